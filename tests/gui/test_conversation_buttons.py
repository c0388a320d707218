"""Rename and Delete act on the conversation the list shows selected, and only when one is. After "New" the list
shows none selected, yet Delete used to act on the conversation opened before (the list's current index outlived
its selection), and both buttons were clickable in an empty list, doing nothing."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton

from tests.gui.conftest import add_and_wait, write_docs
from tests.support.chat_window import ask


def _buttons(window) -> dict[str, bool]:
    return {b.text(): b.isEnabled() for b in window.conversations_panel.findChildren(QPushButton)}


def test_after_new_no_conversation_is_renamed_or_deleted(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=1)
    window = make_window()
    assert _buttons(window) == {"New": True, "Rename": False, "Delete": False}  # an empty list
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    ask(qtbot, window, "topic0 alpha")
    qtbot.waitUntil(lambda: window.conversations_model.rowCount() == 1, timeout=10_000)
    assert window.conversations_panel.current_id() == window.chat.conversation_id
    assert _buttons(window) == {"New": True, "Rename": True, "Delete": True}

    window.chat.new_conversation()
    assert window.conversations_panel.current_id() is None
    assert _buttons(window) == {"New": True, "Rename": False, "Delete": False}
    requested: list[int] = []
    window.conversations_panel.delete_requested.connect(requested.append)
    window.conversations_panel.rename_requested.connect(requested.append)
    for button in window.conversations_panel.findChildren(QPushButton):
        button.click()  # a disabled button emits nothing; Delete on the old current index did
    assert requested == []
    assert window.conversations_model.rowCount() == 1
