"""Deleting the open conversation while its answer is streaming (Delete, then Yes): the answer stops and the
conversation goes, the chat starts empty. Before, the confirmed delete did nothing: the conversation stayed listed,
the answer went on and was saved in it."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from tests.gui.conftest import add_and_wait, llm_settings, write_docs


def test_the_open_conversation_is_deleted_while_its_answer_streams(make_window, qtbot, tmp_path, llm_server,
                                                                   monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    llm_server.tokens = [f"word{i} " for i in range(400)]
    llm_server.token_delay = 0.02
    write_docs(tmp_path / "docs", count=2)
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    engine = window.backend.engine
    got: list[str] = []
    window.chat.token_received.connect(got.append)
    window.chat_panel.input.setPlainText("Tell me everything about topic0")
    window.chat_panel.send_button.click()
    qtbot.waitUntil(lambda: len(got) >= 5, timeout=15_000)
    conversation = window.chat.conversation_id
    assert conversation is not None and window.chat.streaming
    window.delete_conversation(conversation)
    qtbot.waitUntil(lambda: engine.conversations() == [] and not window.chat.streaming, timeout=15_000)
    qtbot.waitUntil(lambda: window.conversations_model.rowCount() == 0, timeout=10_000)
    assert len(got) < 400  # stopped, not answered to the end
    assert window.chat.conversation_id is None and window.chat_model.rowCount() == 0
    assert window.chat_panel.send_button.isEnabled()
