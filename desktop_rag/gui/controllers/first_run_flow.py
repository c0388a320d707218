"""First run: when the start screen and the one-time "no language model" banner are visible."""

from __future__ import annotations

from PySide6.QtCore import QObject, QSettings, Signal, SignalInstance

from desktop_rag.config import Settings, resource_path
from desktop_rag.engine import config_problem
from desktop_rag.gui.models.library import LibraryModel
from desktop_rag.gui.threads.app_settings import AppSettings
from desktop_rag.gui.views.chat_area import ChatArea

BANNER_DONE_KEY = "firstRun/modelBannerDone"  # in the window's QSettings ini


class FirstRunFlow(QObject):
    """Shows the start screen while the library has no source and the model banner until it is done.

    It gets only what it uses (the chat area, the settings owner, the library model and its listing signal,
    the window's QSettings) and reports the user's requests as signals; the main window turns them into the
    same actions as its own buttons (Add folder, Settings).
    """

    add_folder_requested = Signal()  # the start screen's Add folder…
    add_paths_requested = Signal(list)  # the sample documents' folder, to add like any other
    settings_requested = Signal()  # the banner's Settings…

    def __init__(self, area: ChatArea, app_settings: AppSettings, library_model: LibraryModel,
                 library_loaded: SignalInstance, qsettings: QSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.area = area
        self.library_model = library_model
        self.qsettings = qsettings
        self.library_known = False  # the start screen waits for the first listing (no flash on a full library)
        area.start_screen.add_folder_requested.connect(self.add_folder_requested.emit)
        area.start_screen.samples_requested.connect(self.add_samples)
        area.banner.settings_requested.connect(self.settings_requested.emit)
        area.banner.dismissed.connect(self.dismiss_banner)
        library_model.rowsInserted.connect(self.update_start_screen)
        library_model.rowsRemoved.connect(self.update_start_screen)
        library_model.modelReset.connect(self.update_start_screen)
        library_loaded.connect(self._library_loaded)
        app_settings.changed.connect(self._settings_changed)
        self.update_banner(app_settings.current)

    # ---- start screen ----

    @property
    def start_visible(self) -> bool:
        return self.area.stack.currentWidget() is self.area.start_screen

    def _library_loaded(self, _listing: object) -> None:
        self.library_known = True
        self.update_start_screen()

    def update_start_screen(self, *_args: object) -> None:
        empty = self.library_model.rowCount() == 0
        self.area.show_start(self.library_known and empty)

    def add_samples(self) -> None:
        """Index the bundled sample documents exactly as if their folder had been added."""
        self.add_paths_requested.emit([str(resource_path("samples"))])

    # ---- model banner ----

    @property
    def banner_done(self) -> bool:
        value = self.qsettings.value(BANNER_DONE_KEY, False)
        return value is True or str(value).lower() == "true"

    def _remember_banner(self) -> None:
        self.qsettings.setValue(BANNER_DONE_KEY, True)
        self.qsettings.sync()

    def _settings_changed(self, _old: Settings, new: Settings) -> None:
        self.update_banner(new)

    def update_banner(self, settings: Settings) -> None:
        """Show the banner while no model is configured and it was never dismissed; a model ends it for good."""
        if self.banner_done:
            self.area.banner.hide()
            return
        if config_problem(settings) is None:
            self._remember_banner()
            self.area.banner.hide()
            return
        self.area.banner.show()

    def dismiss_banner(self) -> None:
        self._remember_banner()
        self.area.banner.hide()
