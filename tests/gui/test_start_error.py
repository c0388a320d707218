"""A library address that cannot be used stops the start with a window saying why (a double-clicked app has no
terminal for the error line), in the interface's language; the address is never called "this computer"."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from desktop_rag.config import resolve_paths
from desktop_rag.engine import UsageError
from desktop_rag.gui import app, i18n
from desktop_rag.gui.views.library_settings import library_where
from tests.gui.conftest import FAST


@pytest.mark.parametrize("language", ["en", "zh"])
def test_an_unusable_library_address_is_said_in_a_window(qtbot, tmp_path, monkeypatch, language):
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda _parent, title, text, *a: shown.append((title, text)))
    monkeypatch.setattr("desktop_rag.gui.crash_handler.install_excepthook", lambda _log: None)  # pytest-qt's hook
    monkeypatch.setattr("desktop_rag.logs.current_log_file", lambda: tmp_path / "log")
    i18n.set_language(language)
    with pytest.raises(UsageError):
        app.run(resolve_paths(tmp_path / "home"), FAST.replace(library="mysql://anna@db.example/team",
                                                               ui_language=language))
    assert shown == [(i18n.tr("app.cannot_start"), i18n.error(UsageError.coded("library_not_url")))]
    assert shown[0][0] == {"en": "Desktop RAG cannot start", "zh": "Desktop RAG 无法启动"}[language]
    assert shown[0][1].startswith({"en": "This is not a library address.", "zh": "这不是资料库地址。"}[language])
    assert not (tmp_path / "home" / "library.sqlite3").exists()


def test_a_mistyped_address_is_not_called_this_computer():
    assert library_where("") == i18n.tr("status.library_this_computer")
    assert library_where("not a url") == "not a url"
    assert library_where("postgres://anna:secret@db.example/team") == "postgresql://anna@db.example:5432/team"
