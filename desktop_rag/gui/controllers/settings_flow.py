"""Opening Settings and applying the result: key to .env, the library's password to the keyring (or .env) and
settings saved by AppSettings off the GUI thread, re-index check off the GUI thread, ask first; a new library location
offers to restart the app (the library open now stays in use until then)."""

from __future__ import annotations

import dataclasses
import logging

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from desktop_rag.config import Settings
from desktop_rag.engine import Reason
from desktop_rag.gui import i18n
from desktop_rag.gui.secrets import KEYRING, current_api_key
from desktop_rag.gui.controllers.settings_work import ConnectionTests, ModelDownloads
from desktop_rag.gui.threads.app_settings import AppSettings
from desktop_rag.gui.threads.backend import Backend
from desktop_rag.gui.views.library_settings import library_where
from desktop_rag.gui.views.panel import show_plain
from desktop_rag.gui.views.settings_dialog import SettingsDialog

log = logging.getLogger(__name__)


class SettingsFlow(QObject):
    """The steps after the user presses OK in the Settings dialog; every change goes through `AppSettings`.
    `restart_requested`: the user chose to restart now on the library the settings name; `notice(text)`: a short
    message for the status bar (where the library's password was kept)."""

    restart_requested = Signal()
    notice = Signal(str)

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
        self._restart_for: tuple[Settings, bool] | None = None  # offer a restart once these are saved (index kept)
        self._after_password: Settings | None = None  # check these once the library's password is saved and in use
        self.restart_box: QMessageBox | None = None  # the open question
        app_settings.changed.connect(self._changed)
        app_settings.save_failed.connect(self._save_failed)
        app_settings.key_save_failed.connect(self._key_not_saved)
        app_settings.library_password_saved.connect(self._password_saved)
        app_settings.library_password_save_failed.connect(self._password_not_saved)

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
        self.backend.edit(self.backend.engine.review.forget, ("grades",),  # the open answers' grades go too
                          lambda removed: dialog.feedback.show_forgotten(removed),
                          lambda reason: dialog.feedback.show_forgotten(None, reason))

    def _finished(self, result: int) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is None:
            return
        dialog.deleteLater()  # cancelled too: a closed dialog is not kept (a test's late result is then dropped)
        if result == QDialog.DialogCode.Accepted:
            self.apply(dialog.result_settings(), dialog.api_key(), dialog.library.typed_password())

    def apply(self, new: Settings, api_key: str | None = None, library_password: str = "") -> None:
        """Save the key and the library's password, switch the language, then check (on the reader thread) whether a
        re-index is needed; a new library location is saved and a restart offered instead.

        The secrets and the settings are written in this order on the settings thread: they are in use before
        the new settings are announced."""
        if api_key is not None and api_key != current_api_key():
            self.app_settings.save_api_key(api_key)
        if library_password and new.library:
            self.app_settings.save_library_password(new.library, library_password)
        current = self.app_settings.current
        if new.library.strip() not in (current.library.strip(), self.backend.opened_library):  # (back to the open
            self._move_library(new)  # one: nothing to restart for)
            return
        if new.ui_language != current.ui_language:  # the language changes first: questions come in it
            self._after_language = new
            self.app_settings.update(dataclasses.replace(current, ui_language=new.ui_language))
            return
        if library_password and new.library:  # the check reads the library: once the password is in use
            self._after_password = new
            return
        self._check(new)

    def _check(self, new: Settings) -> None:
        engine = self.backend.engine
        self.backend.run(lambda: (engine.needs_reindex(new), engine.reembed_plan(new)),
                         lambda answer: self._decide(new, bool(answer[0]), answer[1]),
                         lambda message: self.notice.emit(i18n.tr("settings.not_applied", reason=i18n.error(message))))

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

    def _move_library(self, new: Settings) -> None:
        """Save a new library location; the library open now stays in use until the app starts again. Index settings
        changed at the same time are not applied (they would change the library being left): the question says so."""
        current = self.app_settings.current
        kept = new.index_params != current.index_params
        new = new.replace(**current.index_params)
        self._restart_for = (new, kept)
        self.app_settings.update(new)

    def _offer_restart(self, kept: bool) -> None:
        """Restart now (`restart_requested`), or later (window-modal, never a nested event loop)."""
        text = i18n.tr("settings.library_restart_question", where=library_where(self.app_settings.current.library))
        if kept:
            text += "\n\n" + i18n.tr("settings.library_index_kept")
        box = QMessageBox(QMessageBox.Icon.Question, i18n.tr("settings.library_restart_title"), text,
                          QMessageBox.StandardButton.NoButton, self.parent_widget)
        box.setTextFormat(Qt.TextFormat.PlainText)
        now = box.addButton(i18n.tr("settings.library_restart_now"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(i18n.tr("settings.library_restart_later"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(now)
        box.finished.connect(lambda _result: self._restart_answered(box, now))
        self.restart_box = box
        box.open()

    def _restart_answered(self, box: QMessageBox, now) -> None:
        self.restart_box = None
        box.deleteLater()
        if box.clickedButton() is now:
            self.restart_requested.emit()

    def _changed(self, _old: Settings, new: Settings) -> None:
        if self._restart_for is not None and new == self._restart_for[0]:
            kept = self._restart_for[1]
            self._restart_for = None
            QTimer.singleShot(0, self, lambda: self._offer_restart(kept))  # after every reader took the new settings
        waiting = self._after_language
        if waiting is not None and new.ui_language == waiting.ui_language:
            self._after_language = None
            self._check(waiting)
        if self._reindex_with is not None and new == self._reindex_with:
            self._reindex_with = None
            self.backend.reindex(new)

    def _key_not_saved(self, reason: Reason) -> None:
        show_plain(self.parent_widget, QMessageBox.Icon.Warning, i18n.tr("dialog.error"),
                   i18n.tr("settings.key_save_failed", path=str(self.app_settings.paths.env_file), reason=i18n.error(reason)))

    def _password_saved(self, where: str) -> None:
        """The password is kept and in use: the settings saved with it are checked now (the check reads the library),
        then saved; applying them reads the library's status again, so one that a wrong or missing password kept
        closed opens (MainWindow._show_status), no restart."""
        self.notice.emit(i18n.tr("settings.library_password_saved_keyring") if where == KEYRING
                         else i18n.tr("settings.library_password_saved_env", path=where))
        self._check_after_password()

    def _password_not_saved(self, reason: Reason) -> None:
        show_plain(self.parent_widget, QMessageBox.Icon.Warning, i18n.tr("dialog.error"),
                   i18n.tr("settings.library_password_save_failed", path=str(self.app_settings.paths.env_file),
                           reason=i18n.error(reason)))
        self._check_after_password()

    def _check_after_password(self) -> None:
        waiting, self._after_password = self._after_password, None
        if waiting is not None:
            self._check(waiting)

    def _save_failed(self, _reason: Reason) -> None:
        self._after_language = None  # the language could not be saved: stop here (the window says why)
        self._restart_for = None  # nor a new library location: nothing to restart for
