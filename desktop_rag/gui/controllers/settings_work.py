"""The work the Settings and Get-a-model dialogs ask for, run off the GUI thread on pools their owner holds: the
connection tests (the language model's, the library server's) and model downloads. The dialogs only ask (signals)
and show what they are told."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QWidget
from shiboken6 import isValid

from desktop_rag.engine import WINDOW, check_connection, check_server, model_download
from desktop_rag.gui import i18n
from desktop_rag.gui.secrets import remember_library_password
from desktop_rag.gui.threads.worker_pool import Worker, WorkerPool, owned_pool
from desktop_rag.gui.views.library_settings import LibrarySettings
from desktop_rag.gui.views.model_download_dialog import ModelDownloadDialog
from desktop_rag.gui.views.settings_dialog import SettingsDialog


class ModelDownloads(QObject):
    """Downloads for Get-a-model dialogs, one at a time on a pool of one thread (joined when `owner` closes)."""

    def __init__(self, owner: QObject) -> None:
        super().__init__(owner)
        self.pool = WorkerPool("desktop-rag-model-download", 1, self)
        self.workers: dict[int, Worker] = {}  # id(dialog) -> its running download

    def open_dialog(self, endpoint: str, parent: QWidget | None, repo_id: str = "") -> ModelDownloadDialog:
        """A Get-a-model dialog (not yet shown) whose downloads this object runs."""
        dialog = ModelDownloadDialog(endpoint=endpoint, parent=parent, repo_id=repo_id)
        self.serve(dialog)
        return dialog

    def serve(self, dialog: ModelDownloadDialog) -> None:
        """Run the downloads `dialog` asks for and tell it how they go."""
        dialog.download_requested.connect(lambda repo_id, endpoint: self._start(dialog, repo_id, endpoint))
        dialog.cancel_requested.connect(lambda: self._cancel(dialog))

    def serve_settings(self, settings: SettingsDialog) -> None:
        """The Settings dialog's "Get a model": a finished download fills its embedding field."""
        def open_() -> None:
            dialog = self.open_dialog(settings.hub_endpoint(), settings)
            settings.model_dialog = dialog

            def done(result: int) -> None:
                if result == QDialog.DialogCode.Accepted and dialog.model_path:
                    settings.use_downloaded_model(dialog.model_path, dialog.endpoint())
                dialog.deleteLater()

            dialog.finished.connect(done)
            dialog.open()

        settings.model_download_requested.connect(open_)

    def _start(self, dialog: ModelDownloadDialog, repo_id: str, endpoint: str) -> None:
        # model_download.download_model: progress as `yielded`, a cancel stops it within a fraction of a second
        worker = self.pool.start(model_download.download_model, repo_id, dialog.data_dir, endpoint=endpoint,
                                 report_kw="on_progress", cancel_kw="cancel")
        key = id(dialog)
        self.workers[key] = worker
        tell = _teller(dialog)
        worker.yielded.connect(lambda progress: tell(dialog.show_progress, progress))
        worker.returned.connect(lambda folder: tell(dialog.download_succeeded, str(folder)))
        worker.errored.connect(lambda message: tell(dialog.download_failed, getattr(worker.exception, "kind", "io"),
                                                    message))
        worker.finished.connect(lambda: (self.workers.pop(key, None), tell(dialog.download_finished)))

    def _cancel(self, dialog: ModelDownloadDialog) -> None:
        worker = self.workers.get(id(dialog))
        if worker is not None:
            worker.cancel()


class ConnectionTests(QObject):
    """The Settings dialog's connection tests (the language model's, the library server's), on a pool of the window
    (a test outlives the dialog; closing the window joins it)."""

    def __init__(self, owner: QWidget) -> None:
        super().__init__(owner)
        self.owner = owner

    def serve(self, settings: SettingsDialog) -> None:
        settings.connection_test_requested.connect(lambda config: self._run(settings, config))
        library = settings.library
        library.test_requested.connect(lambda location, password: self._run_library(library, location, password))

    def _run(self, settings: SettingsDialog, config: object) -> None:
        worker = owned_pool(self.owner, "desktop-rag-connection-test").start(check_connection, config)
        tell = _teller(settings)
        worker.returned.connect(lambda message: tell(settings.show_test, 1, str(message)))
        worker.errored.connect(lambda message: tell(settings.show_test, 0, worker.failure(message)))

    def _run_library(self, view: LibrarySettings, location: str, password: str) -> None:
        """engine.check_server: what the server has and what this role may see, a line each in the interface's
        language; or why it could not be reached (a wrong password, no server there)."""
        remember_library_password(password)  # redacted in logs before any thread sees it
        worker = owned_pool(self.owner, "desktop-rag-connection-test").start(check_server, location, password)
        tell = _teller(view)
        worker.returned.connect(
            lambda check: tell(view.show_test, int(check.ok), "\n".join(check.lines(i18n.language(), WINDOW))))
        worker.errored.connect(lambda message: tell(view.show_test, 0, i18n.error(worker.failure(message))))


def _teller(dialog: QWidget) -> Callable[..., None]:
    """Calls a method of `dialog` unless the dialog has been deleted meanwhile (the work outlives it)."""
    def tell(method: Callable[..., None], *args: object) -> None:
        if isValid(dialog):
            method(*args)
    return tell
