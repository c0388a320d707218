""""Ask this document" for a file that then leaves the library (removed, its collection deleted): the chat stops
asking in it (the "Asking in: notes.md" bar goes and the filters come back). It stayed, and every question failed
with "“…/notes.md” is not a file of the library (see `desktop-rag status`)"."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from tests.gui.conftest import add_and_wait, wait_idle
from tests.support.chat_window import ask


def test_the_scope_goes_with_its_file(make_window, qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    home, work = tmp_path / "home", tmp_path / "work"
    for folder, name in ((home, "tea.txt"), (work, "notes.md")):
        folder.mkdir()
        (folder / name).write_text("Green tea\n\nBrew green tea at 80 degrees for two minutes.", "utf-8")
    window = make_window()
    engine = window.backend.engine
    add_and_wait(qtbot, window, [str(home)])
    notes = engine.create_collection("Work")
    engine.index([work], collection=notes)
    window.chat.ask_scope.ask_in_file(str(work / "notes.md"))
    assert window.chat.ask_scope.file_scope.path == str(work / "notes.md")
    window.collections.refresh()
    qtbot.waitUntil(lambda: any(c.id == notes for c in window.collections.listing), timeout=10_000)
    window.collections.select(notes)
    window.collection_bar.actions["delete"].trigger()
    qtbot.waitUntil(lambda: all(c.id != notes for c in engine.collections()), timeout=10_000)
    qtbot.waitUntil(lambda: window.chat.ask_scope.file_scope.path is None, timeout=10_000)
    assert window.chat.ask_scope.search_filter.isEnabled()
    message = ask(qtbot, window, "green tea at 80 degrees")
    assert not message.error and message.sources
    wait_idle(qtbot, window)
