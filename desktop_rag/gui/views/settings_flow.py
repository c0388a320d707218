"""Opening Settings and applying the result: key to .env, re-index check off the GUI thread, ask first."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QMessageBox

from desktop_rag.config import Settings
from desktop_rag.gui import i18n
from desktop_rag.gui.secrets import current_api_key, save_api_key
from desktop_rag.gui.views.settings_dialog import SettingsDialog

if TYPE_CHECKING:
    from desktop_rag.gui.views.main_window import MainWindow

log = logging.getLogger(__name__)


class SettingsFlow(QObject):
    """The steps after the user presses OK in the Settings dialog."""

    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window = window
        self.dialog: SettingsDialog | None = None

    def open(self) -> None:
        dialog = SettingsDialog(self.window.settings, current_api_key(), self.window)
        self.dialog = dialog
        dialog.finished.connect(self._finished)
        dialog.open()

    def _finished(self, result: int) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is None or result != QDialog.DialogCode.Accepted:
            return
        new, key = dialog.result_settings(), dialog.api_key()
        dialog.deleteLater()
        self.apply(new, key)

    def apply(self, new: Settings, api_key: str | None = None) -> None:
        """Save the key, switch the language, then check (on the reader thread) whether a re-index is needed."""
        window = self.window
        if api_key is not None and api_key != current_api_key():
            try:
                save_api_key(window.paths, api_key)
            except OSError as exc:
                QMessageBox.warning(window, i18n.tr("dialog.error"), str(exc))
        if new.ui_language != window.settings.ui_language:
            i18n.set_language(i18n.resolve_language(new.ui_language))
            window.backend.engine.interface_language = i18n.language()
        engine = window.backend.engine
        window.backend.run(lambda: (engine.needs_reindex(new), engine.reembed_plan(new)),
                           lambda answer: self._decide(new, bool(answer[0]), answer[1]))

    def _decide(self, new: Settings, needed: bool, plan: tuple[str, int, float] | None = None) -> None:
        window = self.window
        reindex = False
        if plan is not None and not needed:
            model, chunks, seconds = plan
            question = i18n.tr("settings.reembed_question", model=model, chunks=chunks, time=i18n.format_eta(seconds))
            answer = QMessageBox.question(window, i18n.tr("settings.reembed_title"), question)
            if answer != QMessageBox.StandardButton.Yes:
                new = dataclasses.replace(new, embedding_model=window.settings.embedding_model)
        if needed:
            answer = QMessageBox.question(window, i18n.tr("settings.reindex_title"), i18n.tr("settings.reindex_question"))
            reindex = answer == QMessageBox.StandardButton.Yes
            if not reindex:  # keep what the library was built with
                old = window.settings
                new = dataclasses.replace(new, embedding_model=old.embedding_model, chunk_size=old.chunk_size,
                                          chunk_overlap=old.chunk_overlap)
        window.settings = new
        window.backend.apply_settings(new, reindex)  # Engine.apply_settings saves them, on the index worker
