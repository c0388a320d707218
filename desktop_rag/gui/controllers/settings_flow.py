"""Opening Settings and applying the result: key to .env and settings saved by AppSettings off the GUI thread,
re-index check off the GUI thread, ask first."""

from __future__ import annotations

import dataclasses
import logging

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from desktop_rag.config import Settings
from desktop_rag.gui import i18n
from desktop_rag.gui.secrets import current_api_key
from desktop_rag.gui.controllers.settings_work import ConnectionTests, ModelDownloads
from desktop_rag.gui.threads.app_settings import AppSettings
from desktop_rag.gui.threads.backend import Backend
from desktop_rag.gui.views.panel import show_plain
from desktop_rag.gui.views.settings_dialog import SettingsDialog

log = logging.getLogger(__name__)


class SettingsFlow(QObject):
    """The steps after the user presses OK in the Settings dialog; every change goes through `AppSettings`."""

    def __init__(self, app_settings: AppSettings, backend: Backend, parent: QWidget) -> None:
        super().__init__(parent)
        self.app_settings = app_settings
        self.backend = backend
        self.parent_widget = parent  # the dialog's and the questions' parent
        self.downloads = ModelDownloads(parent)  # the Get-a-model dialogs' downloads
        self.connection_tests = ConnectionTests(parent)
        self.dialog: SettingsDialog | None = None
        self._reindex_with: Settings | None = None  # re-index once these settings are saved
        self._after_language: Settings | None = None  # check these once the new language is in use
        app_settings.changed.connect(self._changed)
        app_settings.save_failed.connect(self._save_failed)
        app_settings.key_save_failed.connect(self._key_not_saved)

    def open(self) -> None:
        dialog = SettingsDialog(self.app_settings.current, current_api_key(), self.parent_widget)
        self.dialog = dialog
        self.serve(dialog)
        dialog.finished.connect(self._finished)
        dialog.clear_answers_requested.connect(lambda: self._clear_answers(dialog))
        dialog.feedback.forget_requested.connect(lambda: self._forget_grades(dialog))
        dialog.open()

    def serve(self, dialog: SettingsDialog) -> None:
        """Do the work `dialog` asks for: its connection test, its Get-a-model downloads."""
        self.connection_tests.serve(dialog)
        self.downloads.serve_settings(dialog)

    def _clear_answers(self, dialog: SettingsDialog) -> None:
        """Remove every stored answer on the reader thread (the answer cache is not part of the index)."""
        self.backend.run(self.backend.engine.forget_answers, lambda removed: dialog.show_answers_cleared(removed),
                         lambda reason: dialog.show_answers_cleared(None, reason))

    def _forget_grades(self, dialog: SettingsDialog) -> None:
        """Remove every grade on the reader thread (grades are not part of the index)."""
        self.backend.run(self.backend.engine.review.forget, lambda removed: dialog.feedback.show_forgotten(removed),
                         lambda reason: dialog.feedback.show_forgotten(None, reason))

    def _finished(self, result: int) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is None or result != QDialog.DialogCode.Accepted:
            return
        new, key = dialog.result_settings(), dialog.api_key()
        dialog.deleteLater()
        self.apply(new, key)

    def apply(self, new: Settings, api_key: str | None = None) -> None:
        """Save the key, switch the language, then check (on the reader thread) whether a re-index is needed.

        The key and the settings are written in this order on the settings thread: the key is in use before
        the new settings are announced."""
        if api_key is not None and api_key != current_api_key():
            self.app_settings.save_api_key(api_key)
        current = self.app_settings.current
        if new.ui_language != current.ui_language:  # the language changes first: questions come in it
            self._after_language = new
            self.app_settings.update(dataclasses.replace(current, ui_language=new.ui_language))
            return
        self._check(new)

    def _check(self, new: Settings) -> None:
        engine = self.backend.engine
        self.backend.run(lambda: (engine.needs_reindex(new), engine.reembed_plan(new)),
                         lambda answer: self._decide(new, bool(answer[0]), answer[1]))

    def _decide(self, new: Settings, needed: bool, plan: tuple[str, int, float] | None = None) -> None:
        parent, current = self.parent_widget, self.app_settings.current
        reindex = False
        if plan is not None and not needed:
            model, chunks, seconds = plan
            question = i18n.tr("settings.reembed_question", model=model, chunks=chunks, time=i18n.format_eta(seconds))
            answer = QMessageBox.question(parent, i18n.tr("settings.reembed_title"), question)
            if answer != QMessageBox.StandardButton.Yes:
                new = dataclasses.replace(new, embedding_model=current.embedding_model)
        if needed:
            answer = QMessageBox.question(parent, i18n.tr("settings.reindex_title"), i18n.tr("settings.reindex_question"))
            reindex = answer == QMessageBox.StandardButton.Yes
            if not reindex:  # keep what the library was built with
                new = new.replace(**current.index_params)
        if reindex and new == current:  # nothing to save: the library was built with other settings
            self.backend.reindex(new)
            return
        self._reindex_with = new if reindex else None  # a save that fails changes nothing: no re-index
        self.app_settings.update(new)  # saved off the GUI thread; `changed` reaches the window, backend and engine

    def _changed(self, _old: Settings, new: Settings) -> None:
        waiting = self._after_language
        if waiting is not None and new.ui_language == waiting.ui_language:
            self._after_language = None
            self._check(waiting)
        if self._reindex_with is not None and new == self._reindex_with:
            self._reindex_with = None
            self.backend.reindex(new)

    def _key_not_saved(self, reason: str) -> None:
        show_plain(self.parent_widget, QMessageBox.Icon.Warning, i18n.tr("dialog.error"),
                   i18n.tr("settings.key_save_failed", path=str(self.app_settings.paths.env_file), reason=i18n.error(reason)))

    def _save_failed(self, _reason: str) -> None:
        self._after_language = None  # the language could not be saved: stop here (the window says why)
