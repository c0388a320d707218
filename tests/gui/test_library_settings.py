"""Settings → Library (issue 46): this computer or a PostgreSQL server. A password never reaches settings.json, the
address, the window or the log; it is kept in the OS keyring, else in .env (0600), and used by this process at once.
"Test connection" asks a REAL PostgreSQL server (tests/support/postgres.py, no stand-in) off the GUI thread and says
what it found, or why it could not connect, in English and Chinese. A new location offers a restart."""

from __future__ import annotations

import json
import os
import stat

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import PASSWORD_VARIABLE, Engine
from desktop_rag.gui import i18n
from desktop_rag.gui.views.library_settings import split_password
from desktop_rag.logs import redact
from tests.gui.conftest import FAST

TYPED = "S3cret-pa@ss:w/rd"  # '@', ':' and '/' inside: percent-encoded in an address
ADDRESS = "postgresql://alice:S3cret-pa%40ss%3Aw%2Frd@db.example.org:5432/team"
WITHOUT = "postgresql://alice@db.example.org:5432/team"


class MemoryKeyring(KeyringBackend):
    """An OS keyring for this test run, through keyring's own backend interface (this machine has none)."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()
        self.saved: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.saved.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.saved[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.saved.pop((service, username), None)


@pytest.fixture
def no_keyring():
    """A system without a keyring (a headless Linux): keyring's own "no backend" answer."""
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(before)


@pytest.fixture
def memory_keyring():
    before = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(before)


def _open_settings(window):
    window.settings_flow.open()
    return window.settings_flow.dialog


def _type_address(qtbot, dialog, address: str, leave: bool = True) -> None:
    library = dialog.library
    library.server.setChecked(True)
    library.address.setText(address)
    if leave:
        library.address.editingFinished.emit()  # what leaving the field (Tab, a click elsewhere) delivers


def _save(qtbot, window, dialog, answer_restart: str = "later") -> None:
    """OK; wait for the settings and the password to be saved, then answer the restart question."""
    with qtbot.waitSignal(window.app_settings.changed, timeout=10_000):
        dialog.accept()
    qtbot.waitUntil(lambda: window.settings_flow.restart_box is not None, timeout=5_000)
    box = window.settings_flow.restart_box
    button = next(b for b in box.buttons() if b.text() == i18n.tr(f"settings.library_restart_{answer_restart}"))
    button.click()


def test_split_password_takes_the_password_out_of_an_address():
    assert split_password(ADDRESS) == (WITHOUT, TYPED)
    assert split_password(WITHOUT) == (WITHOUT, "")
    assert split_password("postgresql://bob:@/lib?host=/run/pg&port=5433") == ("postgresql://bob@/lib?host=/run/pg&port=5433",
                                                                              "")
    assert split_password("  postgresql://u:p%20w@h/db  ") == ("postgresql://u@h/db", "p w")


def test_a_password_typed_into_the_address_moves_out_and_is_kept_in_env_without_a_keyring(
        make_window, qtbot, tmp_path, no_keyring):
    window = make_window(FAST)
    dialog = _open_settings(window)
    _type_address(qtbot, dialog, ADDRESS)
    library = dialog.library
    assert library.address.text() == WITHOUT and library.password.text() == TYPED
    assert library.password.echoMode() == library.password.EchoMode.Password
    assert library.notice.isVisible() and library.notice.text() == i18n.tr("settings.library_password_moved")
    with qtbot.waitSignal(window.app_settings.library_password_saved, timeout=10_000) as saved:
        _save(qtbot, window, dialog)
    paths = window.paths
    stored = paths.settings_file.read_text(encoding="utf-8")
    assert json.loads(stored)["library"] == WITHOUT
    assert TYPED not in stored and "S3cret" not in stored
    assert saved.args == [str(paths.env_file)]
    env = paths.env_file.read_text(encoding="utf-8")
    assert f"{PASSWORD_VARIABLE}='{TYPED}'" in env
    assert stat.S_IMODE(paths.env_file.stat().st_mode) == 0o600
    assert os.environ[PASSWORD_VARIABLE] == TYPED  # this process connects with it from now on
    assert TYPED not in redact(f"connecting with {TYPED} now")
    assert window.statusBar().currentMessage() == i18n.tr("settings.library_password_saved_env", path=str(paths.env_file))
    # "Later": the library open now stays in use, and the status bar says which one opens after a restart
    assert window.backend.engine.library.shared is False and window.restart_library is None
    assert window.library_label.full_text == "Library: this computer (after a restart: postgresql://alice@db.example.org:5432/team)"
    assert TYPED not in window.library_label.full_text


def test_the_password_goes_to_the_keyring_when_there_is_one_and_leaves_env(make_window, qtbot, memory_keyring):
    window = make_window(FAST)
    paths = window.paths
    paths.config_dir.mkdir(parents=True, exist_ok=True)
    paths.env_file.write_text(f"OPENAI_API_KEY='sk-kept-1234567890'\n{PASSWORD_VARIABLE}='an-old-one-123'\n", "utf-8")
    dialog = _open_settings(window)
    _type_address(qtbot, dialog, ADDRESS, leave=False)  # OK pressed while the password is still in the address
    with qtbot.waitSignal(window.app_settings.library_password_saved, timeout=10_000) as saved:
        _save(qtbot, window, dialog)
    assert saved.args == ["keyring"]
    assert memory_keyring.saved == {("desktop-rag", "alice@db.example.org:5432/team"): TYPED}
    env = paths.env_file.read_text(encoding="utf-8")
    assert PASSWORD_VARIABLE not in env and "sk-kept-1234567890" in env  # the old one would be used first
    assert json.loads(paths.settings_file.read_text(encoding="utf-8"))["library"] == WITHOUT
    assert os.environ[PASSWORD_VARIABLE] == TYPED


def test_an_unusable_address_is_refused_beside_it_and_nothing_is_saved(make_window, qtbot):
    window = make_window(FAST)
    dialog = _open_settings(window)
    dialog.library.server.setChecked(True)
    dialog.accept()
    assert dialog.isVisible() and dialog.library.notice.text() == i18n.tr("settings.library_url_missing")
    _type_address(qtbot, dialog, "postgresql://alice@db.example.org:99999/team")
    dialog.accept()
    assert dialog.isVisible() and "postgresql://USER@HOST:PORT/DATABASE" in dialog.library.notice.text()
    assert not window.paths.settings_file.exists()
    dialog.library.local.setChecked(True)  # back to this computer: nothing to check
    dialog.reject()


@pytest.fixture(scope="module")
def checked_library(pg_server, tmp_path_factory):
    """A library on the test server (made by its administrator, one collection) and a role granted nothing."""
    database = pg_server.new_database("guicheck")
    admin = Engine(resolve_paths(tmp_path_factory.mktemp("admin")), Settings(embedding_model="hash:64"),
                   library=pg_server.url(database))
    admin.create_collection("Team")
    admin.close()
    pg_server.role("gui_reader", "gui-reader-password-7")
    return pg_server, database


def _test_connection(qtbot, dialog, address: str, password: str) -> str:
    library = dialog.library
    library.server.setChecked(True)
    library.address.setText(address)
    library.password.setText(password)
    with qtbot.waitSignal(library.test_requested, timeout=1000):
        library.test_button.click()
    assert library.test_result.text() == i18n.tr("settings.library_testing")
    qtbot.waitUntil(lambda: not library.testing, timeout=30_000)
    return library.test_result.text()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_test_connection_says_ready_missing_grants_or_wrong_password(make_window, qtbot, checked_library, language):
    pg_server, database = checked_library
    i18n.set_language(language)
    window = make_window(FAST.replace(ui_language=language))
    dialog = _open_settings(window)
    library = dialog.library
    admin = pg_server.url(database, password="")

    ready = _test_connection(qtbot, dialog, admin, pg_server.password)
    assert library.test_result.styleSheet() == "color: #2e7d32;"
    lines = ready.splitlines()
    assert lines[0].startswith("Server: postgresql://postgres@" if language == "en" else "服务器：postgresql://postgres@")
    expected = {"en": ["pgvector 0.8", "Library: ready (library version", "“postgres” administers the library"],
                "zh": ["已安装 pgvector 0.8", "资料库：可用（资料库版本", "角色“postgres”是资料库管理员"]}[language]
    for line, part in zip(lines[1:], expected, strict=True):
        assert part in line, ready

    reader = pg_server.url(database, user="gui_reader", password="")
    missing = _test_connection(qtbot, dialog, reader, "gui-reader-password-7")
    assert library.test_result.styleSheet() == "color: #c62828;"
    assert ({"en": "Role “gui_reader” has no collection yet", "zh": "角色“gui_reader”还没有任何知识库"}[language]
            in missing), missing
    assert ({"en": "Library: there is one, but this role may not read it", "zh": "资料库：已存在，但当前角色"}[language]
            in missing), missing

    refused = _test_connection(qtbot, dialog, reader, "not-the-password-42")
    assert library.test_result.styleSheet() == "color: #c62828;"
    assert ({"en": "refused the password of role “gui_reader”", "zh": "拒绝了角色“gui_reader”的密码"}[language]
            in refused), refused
    for shown in (ready, missing, refused):
        assert pg_server.password not in shown and "gui-reader-password-7" not in shown
        assert "not-the-password-42" not in shown
    assert "not-the-password-42" not in redact("typed not-the-password-42 in Settings")  # a secret from typing on
    dialog.reject()


def test_index_settings_changed_with_the_library_are_kept_for_the_library_open(make_window, qtbot, no_keyring):
    window = make_window(FAST)
    dialog = _open_settings(window)
    dialog.chunk_size.setValue(FAST.chunk_size * 2)
    _type_address(qtbot, dialog, WITHOUT)
    with qtbot.waitSignal(window.app_settings.changed, timeout=10_000):
        dialog.accept()
    qtbot.waitUntil(lambda: window.settings_flow.restart_box is not None, timeout=5_000)
    assert i18n.tr("settings.library_index_kept") in window.settings_flow.restart_box.text()
    stored = json.loads(window.paths.settings_file.read_text(encoding="utf-8"))
    assert stored["library"] == WITHOUT and stored["chunk_size"] == FAST.chunk_size
    window.settings_flow.restart_box.reject()  # Later
    dialog = _open_settings(window)  # back to this computer, the library open: no restart to offer
    dialog.library.local.setChecked(True)
    with qtbot.waitSignal(window.app_settings.changed, timeout=10_000):
        dialog.accept()
    qtbot.wait(300)  # a question would be asked by now
    assert window.settings.library == "" and window.settings_flow.restart_box is None
    assert window.library_label.full_text == "Library: this computer"


def test_restart_now_closes_the_window_for_a_start_on_the_new_library(make_window, qtbot, no_keyring):
    window = make_window(FAST)
    dialog = _open_settings(window)
    _type_address(qtbot, dialog, WITHOUT)
    _save(qtbot, window, dialog, answer_restart="now")
    qtbot.waitUntil(lambda: window._closed, timeout=10_000)
    assert window.restart_library == WITHOUT and window.backend.stopped
