"""The window on a library on a PostgreSQL server (issue 46), what a review in a real window found, against a REAL
server (tests/support/postgres.py): no saved password is said as such and the one typed in Settings opens the library
and its listings without a restart (with the settings saved alongside), Test connection's lines for a missing password
and an unreachable server, a cited file deleted from this computer opens from the library's stored text, the status
bar's library cut in its middle when long, the welcome card saying where the index is kept. English and Chinese."""

from __future__ import annotations

import time
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtWidgets import QMessageBox

from desktop_rag.config import resolve_paths
from desktop_rag.engine import MISSING, PASSWORD_VARIABLE, Engine
from desktop_rag.gui import i18n
from desktop_rag.gui.secrets import write_library_password
from desktop_rag.gui.threads import app_settings
from desktop_rag.gui.views.library_label import MAX_WIDTH, LibraryLabel
from tests.gui.conftest import FAST, add_and_wait

TEA = "Green tea steeps at eighty degrees for two minutes; boiling water makes it bitter."


@pytest.fixture
def no_password(monkeypatch):
    """No library password anywhere: not in the environment, no keyring on this system (keyring's own answer)."""
    monkeypatch.setenv(PASSWORD_VARIABLE, "")  # (restored as it was, absent, at the end: the window may set it)
    monkeypatch.delenv(PASSWORD_VARIABLE)
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(before)


def _boxes(window) -> list[QMessageBox]:
    return [box for box in window.findChildren(QMessageBox) if box.isVisible()]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_no_saved_password_is_said_and_the_one_typed_in_settings_opens_the_library(make_window, qtbot, pg_server,
                                                                                 tmp_path, no_password, caplog,
                                                                                 language):
    """At start: said in the status bar (no message box for the listings that fail the same way). OK in Settings with
    the password: the library opens with its collections and conversations, no restart and no other step; a setting
    changed at the same time is saved too (checked once the password is in use)."""
    database = pg_server.new_database("nopass")
    other = Engine(resolve_paths(tmp_path / "other-computer"), FAST, library=pg_server.url(database))
    try:
        other.create_collection("Team")
        other.new_conversation("Green tea?")
    finally:
        other.close()
    i18n.set_language(language)
    window = make_window(FAST.replace(library=pg_server.url(database, password=""), ui_language=language))
    qtbot.waitUntil(lambda: window.status_problem is not None and window.model_state[0] == "unopened",
                    timeout=30_000)
    said = {"en": "asks for the password of role “postgres”, and none is saved on this computer",
            "zh": "要求角色“postgres”的密码，但本机没有保存密码"}[language]
    assert said in window.index_label.text(), window.index_label.text()
    qtbot.waitUntil(lambda: "Collections could not be listed" in caplog.text, timeout=10_000)  # failed too ...
    assert not _boxes(window)  # ... and said nothing more

    window.settings_flow.open()
    dialog = window.settings_flow.dialog
    dialog.library.password.setText(pg_server.password)  # nothing else changed: no settings saved to prompt a read
    with qtbot.waitSignal(window.app_settings.library_password_saved, timeout=10_000):
        dialog.accept()
    qtbot.waitUntil(lambda: window.status_problem is None and window.model_state[0] == "ready", timeout=60_000)
    qtbot.waitUntil(lambda: "Team" in [c.name for c in window.collections.listing], timeout=10_000)
    qtbot.waitUntil(lambda: window.conversations_model.rowCount() == 1, timeout=10_000)
    assert not _boxes(window) and window.settings_flow.restart_box is None
    assert not window.paths.settings_file.exists() or (
        pg_server.password not in window.paths.settings_file.read_text(encoding="utf-8"))


def test_settings_saved_with_a_password_are_checked_once_it_is_in_use(make_window, qtbot, monkeypatch, pg_server,
                                                                      no_password):
    """The re-index check reads the library: run before the password is in use it failed, and the setting changed
    with the password was lost without a word."""
    window = make_window(FAST.replace(library=pg_server.url(pg_server.new_database("together"), password="")))
    qtbot.waitUntil(lambda: window.status_problem is not None, timeout=30_000)

    def slowly(*args):  # a keyring or disk that takes a moment: the check must wait for it
        time.sleep(1.5)
        return write_library_password(*args)

    monkeypatch.setattr(app_settings, "write_library_password", slowly)
    window.settings_flow.open()
    dialog = window.settings_flow.dialog
    dialog.library.password.setText(pg_server.password)
    dialog.top_k.setValue(7)
    with qtbot.waitSignal(window.app_settings.changed, timeout=30_000):
        dialog.accept()
    assert window.app_settings.current.top_k == 7


@pytest.mark.parametrize("language", ["en", "zh"])
def test_test_connection_says_no_password_is_saved_and_why_a_server_is_unreachable(make_window, qtbot, pg_server,
                                                                                  no_password, language):
    i18n.set_language(language)
    window = make_window(FAST.replace(ui_language=language))
    window.settings_flow.open()
    library = window.settings_flow.dialog.library

    def test(address: str) -> str:
        library.server.setChecked(True)
        library.address.setText(address)
        library.test_button.click()
        qtbot.waitUntil(lambda: not library.testing, timeout=30_000)
        assert library.test_result.styleSheet() == "color: #c62828;"
        return library.test_result.text()

    shown = test(pg_server.url(pg_server.new_database("check"), password=""))
    assert {"en": "asks for the password of role “postgres”, and none is saved",
            "zh": "要求角色“postgres”的密码，但本机没有保存密码"}[language] in shown, shown
    unreachable = test("postgresql://postgres@127.0.0.1:1/desktop_rag")
    assert {"en": "Could not reach the library's server postgresql://postgres@127.0.0.1:1/desktop_rag: "
                  "Connection refused. Check",
            "zh": "无法连接资料库服务器 postgresql://postgres@127.0.0.1:1/desktop_rag：连接被拒绝。"}[language] \
        in unreachable, unreachable  # the system's reason in the interface's language, not the driver's words
    library.address.textEdited.emit(library.address.text())  # typing in the address: that result was about another
    assert library.test_result.text() == ""
    window.settings_flow.dialog.reject()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_cited_file_deleted_from_this_computer_opens_from_the_stored_text(make_window, qtbot, monkeypatch, pg_server,
                                                                          tmp_path, language):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tea.txt").write_text(f"Tea\n\n{TEA}\n", encoding="utf-8")
    monkeypatch.setenv(PASSWORD_VARIABLE, pg_server.password)
    i18n.set_language(language)
    window = make_window(FAST.replace(library=pg_server.url(pg_server.new_database("deleted"), password=""),
                                      ui_language=language))
    add_and_wait(qtbot, window, [str(docs)])
    with qtbot.waitSignal(window.chat.answer_finished, timeout=60_000) as answered:
        window.chat_panel.input.setPlainText("green tea water degrees")
        window.chat_panel.send_button.click()
    number, hit = answered.args[0].sources[0]
    window.backend.watcher.stop()  # deleted while the app was not watching: the library still holds the file
    Path(hit.path).unlink()
    with qtbot.waitSignal(window.viewer.located, timeout=30_000) as blocker:
        window.viewer.open_number(number)
    location, view = blocker.args[0], window.viewer.view
    assert location.file_state == MISSING and location.found and not location.error
    assert view.banner_label.text() == i18n.tr("viewer.missing_stored", path=hit.path)
    assert {"en": "moved or deleted", "zh": "已被移动或删除"}[language] in view.banner_label.text()
    assert TEA in view.text_pane.toPlainText()
    assert view.text_pane.highlighted_text().strip() == hit.text.strip()
    window.viewer.open_in_default_app()  # nothing there to hand over
    assert view.banner_label.text() == i18n.tr("viewer.not_handed", path=hit.path)


def test_a_long_library_address_is_cut_in_its_middle_and_whole_in_the_tooltip(qtbot):
    label = LibraryLabel()
    qtbot.addWidget(label)
    long = "postgresql://postgres@/" + "deep/" * 30 + "socket (socket, port 5432)/team_library"
    label.show_library(long, True, long, long)
    assert label.full_text == f"Library: {long}"
    assert "…" in label.text() and label.text().startswith("Library: postgresql://")
    assert label.text().endswith("team_library") and label.fontMetrics().horizontalAdvance(label.text()) <= MAX_WIDTH
    assert label.full_text in label.toolTip()
    label.show_library("/home/me/library.sqlite3", False, "", "")
    assert label.text() == label.full_text == "Library: this computer"
    assert "/home/me/library.sqlite3" in label.toolTip()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_welcome_card_says_where_the_index_is_kept(make_window, qtbot, monkeypatch, pg_server, tmp_path, language):
    i18n.set_language(language)
    local = make_window(FAST.replace(ui_language=language), home=tmp_path / "local")
    assert local.start_screen.privacy.text() == {"en": "Your documents are read and indexed on this computer.",
                                                 "zh": "文档在这台电脑上读取和索引。"}[language]
    monkeypatch.setenv(PASSWORD_VARIABLE, pg_server.password)
    server = make_window(FAST.replace(library=pg_server.url(pg_server.new_database("welcome"), password=""),
                                      ui_language=language), home=tmp_path / "server")
    assert server.start_screen.privacy.text() == {
        "en": "Your documents are read on this computer; their index is kept in the library on the server.",
        "zh": "文档在这台电脑上读取；索引保存在服务器上的资料库中。"}[language]
    i18n.set_language("zh" if language == "en" else "en")  # said again in the other language, still the server's
    assert server.start_screen.privacy.text() == i18n.tr("start.private_server")


def test_what_changed_while_the_library_was_closed_is_indexed_once_the_password_opens_it(make_window, qtbot,
                                                                                        monkeypatch, pg_server,
                                                                                        tmp_path, no_password):
    """The start's reconcile could not run (no password): it runs once the library can be read."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tea.txt").write_text(f"Tea\n\n{TEA}\n", encoding="utf-8")
    library, home = pg_server.url(pg_server.new_database("resume"), password=""), tmp_path / "home"
    monkeypatch.setenv(PASSWORD_VARIABLE, pg_server.password)
    first = make_window(FAST.replace(library=library), home=home)
    add_and_wait(qtbot, first, [str(docs)])
    first.close()
    monkeypatch.delenv(PASSWORD_VARIABLE)
    (docs / "office.txt").write_text("Office\n\nThe office moves to the third floor in May.\n", encoding="utf-8")
    window = make_window(FAST.replace(library=library), home=home)
    qtbot.waitUntil(lambda: window.model_state[0] == "unopened", timeout=30_000)
    window.settings_flow.open()
    window.settings_flow.dialog.library.password.setText(pg_server.password)
    with qtbot.waitSignal(window.index_finished, timeout=60_000, check_params_cb=lambda report: report.added == 1):
        window.settings_flow.dialog.accept()


def test_settings_with_a_wrong_password_are_not_applied_and_the_window_says_why(make_window, qtbot, pg_server,
                                                                                no_password):
    window = make_window(FAST.replace(library=pg_server.url(pg_server.new_database("wrong"), password="")))
    qtbot.waitUntil(lambda: window.status_problem is not None, timeout=30_000)
    window.settings_flow.open()
    dialog = window.settings_flow.dialog
    dialog.library.password.setText("not-the-password-77")
    dialog.top_k.setValue(9)
    dialog.accept()
    expected = "The settings were not applied: The server postgresql://postgres@"
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith(expected), timeout=30_000)
    assert "refused the password of role “postgres”" in window.statusBar().currentMessage()
    assert "not-the-password-77" not in window.statusBar().currentMessage()
    assert window.app_settings.current.top_k != 9
