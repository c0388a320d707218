"""The window on a library on a PostgreSQL server (issue 46), against a REAL server (tests/support/postgres.py): the
status bar names the library open, a server library is indexed, searched and answered, a passage whose file is not on
this computer opens from its stored text and says so, a server that goes away is said in the status bar and the chat,
in English and Chinese, and a restart opens the library Settings chose."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from desktop_rag.config import resolve_paths
from desktop_rag.engine import PASSWORD_VARIABLE, STORED, Engine, LocalServer
from desktop_rag.gui import i18n, secrets
from desktop_rag.gui.app import relaunch_command
from tests.gui.conftest import FAST, add_and_wait, wait_idle
from tests.support import REPO
from tests.support.chat_window import ask
from tests.support.hash_cli import own_environment

TEA = "Green tea steeps at eighty degrees for two minutes; boiling water makes it bitter."
REWRITTEN = "This file was rewritten on this computer after it was indexed elsewhere."


def _server_window(make_window, monkeypatch, pg_server, database: str, **settings):
    """A window on `database` of the test server, the password given as the environment gives it."""
    monkeypatch.setenv(PASSWORD_VARIABLE, pg_server.password)
    return make_window(FAST.replace(library=pg_server.url(database, password=""), **settings))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_status_bar_names_the_library_open(make_window, qtbot, monkeypatch, pg_server, tmp_path, language):
    local = make_window(FAST.replace(ui_language=language), home=tmp_path / "local")
    assert local.library_label.full_text == {"en": "Library: this computer", "zh": "资料库：本机"}[language]
    assert "library.sqlite3" in local.library_label.toolTip()  # which file
    database = pg_server.new_database("status")
    server = _server_window(make_window, monkeypatch, pg_server, database, ui_language=language)
    expected = f"postgresql://postgres@{pg_server.socket_dir} (socket, port {pg_server.server._port()})/{database}"
    assert server.library_label.full_text == {"en": "Library: ", "zh": "资料库："}[language] + expected
    wait_idle(qtbot, server)  # the library opened (made on the server) and its status read
    assert pg_server.password not in server.library_label.full_text + server.index_label.text()
    i18n.set_language("en" if language == "zh" else "zh")  # a language change says it again
    assert server.library_label.full_text.endswith(expected) and server.library_label.full_text != (
        {"en": "Library: ", "zh": "资料库："}[language] + expected)


def test_the_window_indexes_searches_and_answers_a_server_library(make_window, qtbot, monkeypatch, pg_server,
                                                                   tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tea.txt").write_text(f"Tea\n\n{TEA}\n", encoding="utf-8")
    (docs / "office.txt").write_text("Office\n\nThe office moves to the third floor in May.\n", encoding="utf-8")
    database = pg_server.new_database("window")
    window = _server_window(make_window, monkeypatch, pg_server, database)
    report = add_and_wait(qtbot, window, [str(docs)])
    assert report.added == 2 and not report.failed
    assert window.backend.engine.library.shared
    message = ask(qtbot, window, "How hot should the water be for green tea?", timeout=60_000)
    assert not message.error and message.sources
    assert Path(message.sources[0][1].path).name == "tea.txt" and "eighty degrees" in message.text
    admin = pg_server.admin(database)  # the passages are the server's, not in this computer's data folder
    try:
        stored = admin.run("SELECT count(*) FROM desktop_rag.chunks c JOIN desktop_rag.files f ON f.id = c.file_id "
                           "WHERE f.path LIKE :path", path=f"{docs}%")
    finally:
        admin.close()
    assert stored[0][0] >= 2
    assert not (window.paths.data_dir / "library.sqlite3").exists()


def _open_stored(qtbot, window, question: str, folder: Path):
    """Ask, then open the cited passage of a file in `folder` in the viewer; its Location once shown."""
    message = ask(qtbot, window, question, timeout=60_000)
    number = next(n for n, hit in message.sources if Path(hit.path).parent == folder)
    with qtbot.waitSignal(window.viewer.located, timeout=30_000) as blocker:
        window.viewer.open_number(number)
    return blocker.args[0], dict(message.sources)[number]


def _check_stored_view(window, location, hit, language: str) -> None:
    view = window.viewer.view
    assert location.file_state == STORED and location.found and not location.error
    assert view.banner.isVisible() and view.banner_label.text() == i18n.tr("viewer.stored_text")
    assert ("not on this computer" if language == "en" else "不在本机上") in view.banner_label.text()
    shown = view.text_pane.toPlainText()
    assert TEA in shown and REWRITTEN not in shown  # the library's text, not the file at that path
    assert view.text_pane.highlighted_text().strip() == hit.text.strip()
    window.viewer.open_in_default_app()  # never handed to another app: the file there is not this passage's
    assert view.banner_label.text() == i18n.tr("viewer.not_handed", path=hit.path)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_passage_another_computer_indexed_opens_from_its_stored_text(make_window, qtbot, monkeypatch, pg_server,
                                                                       tmp_path, language):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    note = theirs / "tea-notes.txt"
    note.write_text(f"Tea notes\n\n{TEA}\n", encoding="utf-8")
    database = pg_server.new_database("stored")
    other = Engine(resolve_paths(tmp_path / "other-computer"), FAST, library=pg_server.url(database))
    try:
        assert other.index([theirs]).added == 1
    finally:
        other.close()
    note.write_text(f"{REWRITTEN}\n", encoding="utf-8")  # a file at the same path here holds something else
    i18n.set_language(language)
    window = _server_window(make_window, monkeypatch, pg_server, database, ui_language=language)
    wait_idle(qtbot, window)
    location, hit = _open_stored(qtbot, window, "green tea water degrees", theirs)
    _check_stored_view(window, location, hit, language)


def test_a_passage_of_an_archive_without_its_documents_opens_from_its_stored_text(make_window, qtbot, tmp_path):
    docs = tmp_path / "shared"
    docs.mkdir()
    (docs / "tea-notes.txt").write_text(f"Tea notes\n\n{TEA}\n", encoding="utf-8")
    origin = Engine(resolve_paths(tmp_path / "origin"), FAST)
    try:
        origin.index([docs])
        origin.export_collection(origin.collections()[0].id, tmp_path / "tea.zip")
    finally:
        origin.close()
    (docs / "tea-notes.txt").write_text(f"{REWRITTEN}\n", encoding="utf-8")
    home = tmp_path / "here"
    here = Engine(resolve_paths(home), FAST)
    try:
        here.import_archive(tmp_path / "tea.zip", name="Imported")
    finally:
        here.close()
    window = make_window(FAST, home=home)
    wait_idle(qtbot, window)
    location, hit = _open_stored(qtbot, window, "green tea water degrees", docs)
    _check_stored_view(window, location, hit, "en")


def test_a_server_that_goes_away_is_said_in_the_status_bar_and_the_chat(make_window, qtbot, monkeypatch, tmp_path):
    folder = Path(tempfile.mkdtemp(prefix="desktop-rag-pg-gui-"))  # see tests/conftest.py: not under pytest's tmp
    server = LocalServer(folder).start()
    try:
        docs = tmp_path / "docs"
        docs.mkdir()
        (docs / "tea.txt").write_text(f"Tea\n\n{TEA}\n", encoding="utf-8")
        monkeypatch.setenv(PASSWORD_VARIABLE, server.password)
        window = make_window(FAST.replace(library=server.url))
        add_and_wait(qtbot, window, [str(docs)])
        server.stop()
        window.backend.refresh_status()
        qtbot.waitUntil(lambda: window.status_problem is not None, timeout=30_000)
        shown = window.index_label.text()
        assert shown.startswith(("The connection to the library's server postgresql://postgres@",
                                 "Could not reach the library's server postgresql://postgres@")), shown
        assert window.index_label.styleSheet() == "color: #c62828;"
        message = ask(qtbot, window, "green tea", timeout=60_000)
        said = str(message.error)  # what the chat shows (in English now)
        assert "postgresql://postgres@" in said and "server" in said
        i18n.set_language("zh")
        chinese = window.index_label.text()
        assert chinese.startswith(("与资料库服务器 postgresql://postgres@", "无法连接资料库服务器 postgresql://postgres@"))
        for text in (shown, said, chinese, window.library_label.full_text, window.model_label.toolTip()):
            assert server.password not in text
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_wrong_password_is_said_and_the_right_one_from_settings_opens_the_library(make_window, qtbot, monkeypatch,
                                                                                    pg_server, tmp_path):
    """A wrong password at start: the status bar says the server refused it, the model waits for the library; the
    right one typed in Settings works at once, without a restart (no keyring on this machine: kept in .env)."""
    import keyring
    from keyring.backends import fail

    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        database = pg_server.new_database("password")
        monkeypatch.setenv(PASSWORD_VARIABLE, "not-the-password-99")
        window = make_window(FAST.replace(library=pg_server.url(database, password="")))
        qtbot.waitUntil(lambda: window.status_problem is not None and window.model_state[0] == "unopened",
                        timeout=30_000)
        assert "refused the password of role “postgres”" in window.index_label.text()
        assert window.model_label.text() == "Model not loaded: the library could not be opened"
        window.settings_flow.open()
        dialog = window.settings_flow.dialog
        dialog.library.password.setText(pg_server.password)
        with qtbot.waitSignal(window.app_settings.library_password_saved, timeout=10_000):
            dialog.accept()
        window.backend.refresh_status()  # what the next change or index run does
        qtbot.waitUntil(lambda: window.status_problem is None and window.model_state[0] == "ready", timeout=60_000)
        assert window.index_label.text().startswith("0 indexed") and window.settings_flow.restart_box is None
        # the settings are written after the password (one saver thread): on a busy machine not yet by now
        qtbot.waitUntil(lambda: not window.app_settings.saving, timeout=10_000)
        assert pg_server.password not in window.paths.settings_file.read_text(encoding="utf-8")
    finally:
        keyring.set_keyring(before)


def test_relaunch_command_drops_library_and_a_password_set_here(monkeypatch):
    argv = ["/usr/bin/python3", "-X", "utf8", "-m", "desktop_rag", "--library", "postgresql://a@h/db", "--data-dir",
            "/d", "--library=postgresql://b@h/db"]
    environ = {"DESKTOP_RAG_LIBRARY": "postgresql://c@h/db", PASSWORD_VARIABLE: "old-password-1", "HOME": "/root"}
    monkeypatch.setattr(secrets, "_password_set_here", False)
    command, env = relaunch_command("", argv, environ)
    assert command == ["/usr/bin/python3", "-X", "utf8", "-m", "desktop_rag", "--data-dir", "/d"]
    assert "DESKTOP_RAG_LIBRARY" not in env and env[PASSWORD_VARIABLE] == "old-password-1" and env["HOME"] == "/root"
    monkeypatch.setattr(secrets, "_password_set_here", True)
    command, env = relaunch_command(" postgresql://d@h:5433/team ", argv, environ)
    assert env["DESKTOP_RAG_LIBRARY"] == "postgresql://d@h:5433/team" and PASSWORD_VARIABLE not in env


def test_the_relaunched_app_opens_the_library_chosen(pg_server, tmp_path, monkeypatch):
    """The command `relaunch_command` builds, run for real: started on this computer's library with --library local,
    it comes back on the server library chosen in Settings (the library is made there by its first open)."""
    database = pg_server.new_database("relaunch")
    home = tmp_path / "home"
    argv = [sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "--library", "local"]
    monkeypatch.setattr(secrets, "_password_set_here", False)
    environ = own_environment() | {PASSWORD_VARIABLE: pg_server.password, "QT_QPA_PLATFORM": "offscreen",
                                   "DESKTOP_RAG_EXIT_AFTER_SHOWN": "1", "DESKTOP_RAG_EMBEDDING_MODEL": "hash:64"}
    command, env = relaunch_command(pg_server.url(database, password=""), argv, environ)
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300,
                            cwd=REPO)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "DESKTOP_RAG_SHOWN" in result.stdout
    admin = pg_server.admin(database)
    try:
        made = admin.run("SELECT to_regclass('desktop_rag.meta') IS NOT NULL")[0][0]
    finally:
        admin.close()
    assert made and not (home / "library.sqlite3").exists()
    assert pg_server.password not in result.stdout + result.stderr
