"""Asks once for the password of a locked PDF that an index run could not open, then reads it again."""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QInputDialog, QLineEdit, QWidget

from desktop_rag.engine import IndexReport, is_inside, needs_password
from desktop_rag.gui import i18n
from desktop_rag.gui.threads.backend import Backend


class PasswordPrompt(QObject):
    """After a run, asks for each newly locked PDF's password (once per file per session; Re-index asks again).

    The password goes to the engine's memory for this session only (never to disk), and the file is re-read.
    """

    def __init__(self, backend: Backend, window: QWidget) -> None:
        super().__init__(window)
        self.backend = backend
        self.window = window
        self.asked: set[str] = set()
        self._queue: list[str] = []
        backend.index_finished.connect(self._after_run)

    def forget(self, path: str) -> None:
        """The user asked to re-index `path` (a file or a folder): its locked files may be asked about again."""
        self.asked = {p for p in self.asked if not is_inside(p, path)}

    def _after_run(self, report: IndexReport) -> None:
        fresh = [f.path for f in report.failed if needs_password(f.error) and f.path not in self.asked]
        if not fresh or self.backend.stopped:
            return
        self.asked.update(fresh)
        self._queue.extend(fresh)
        QTimer.singleShot(0, self._ask_next)  # not inside the signal: the dialog runs its own event loop

    def _ask_next(self) -> None:
        if not self._queue or self.backend.stopped:
            return
        path = self._queue.pop(0)
        password, ok = QInputDialog.getText(
            self.window, i18n.tr("password.title"), i18n.tr("password.prompt", name=os.path.basename(path)),
            QLineEdit.EchoMode.Password,
        )
        if ok and password:
            self._unlock(path, password)
        if self._queue:
            QTimer.singleShot(0, self._ask_next)

    def _unlock(self, path: str, password: str) -> None:
        """Hand the password to the engine on the reader thread, then re-read the file on the index worker."""
        engine, backend = self.backend.engine, self.backend
        backend.run(lambda: engine.set_password(password, path), lambda _result: backend.force([path]))
