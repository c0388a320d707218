"""Opening a test window's views as a person does: the Review (Ctrl+Shift+R) and an answer's "What was sent" dialog;
and what that dialog must show."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


def open_review(qtbot, window):
    """The Review view, opened with its shortcut and shown."""
    window.activateWindow()
    QTest.keyClick(window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: window.review.view is not None and window.review.view.isVisible(), timeout=10_000)
    return window.review.view


def open_sent(window, qtbot, row: int):
    """The "What was sent" dialog of the answer at `row`, opened with its button and exposed."""
    bubble = window.chat_panel.messages.widget_at(row)
    assert bubble.sent_button.isVisibleTo(window)
    bubble.sent_button.click()
    dialog = window.chat.sent_dialog
    qtbot.waitExposed(dialog)
    return dialog


def assert_sent_exactly(text: str, messages: list[dict]) -> None:
    """Each message's content appears whole, after the one before it, under a line naming its role."""
    position = 0
    for message in messages:
        header = text.index(f" {message['role']} · ", position)
        found = text.index("\n" + message["content"], header)
        assert found == text.index("\n", header)  # the content starts on the line after its header, untouched
        position = found + len(message["content"])
