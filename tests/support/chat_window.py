"""Asking a question in a test's main window, as a person does: type it, press Send, wait for the answer."""

from __future__ import annotations


def ask(qtbot, window, question: str, timeout: int = 30_000):
    """Type `question`, press Send and wait for its answer to finish: the final chat message."""
    with qtbot.waitSignal(window.chat.answer_finished, timeout=timeout) as blocker:
        window.chat_panel.input.setPlainText(question)
        window.chat_panel.send_button.click()
    return blocker.args[0]
