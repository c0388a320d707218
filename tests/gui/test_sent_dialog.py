"""What was sent in the window (issue 40): under an answer, "What was sent" opens a read-only plain-text dialog with
exactly the messages the local chat server received, in order, with token counts and the compression's saving;
a cached answer's dialog shows what was sent when it was made; both languages. Real MainWindow, offscreen."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication

from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait, llm_settings, write_docs
from tests.support.chat_window import ask
from tests.support.window_views import assert_sent_exactly, open_sent


def _received(server) -> list[dict]:
    return [r for r in server.chat_requests() if r.body.get("stream")][-1].body["messages"]


def test_what_was_sent_is_what_the_server_received(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["Topic1 ", "is ", "about ", "gamma ", "[1]", "."]
    write_docs(tmp_path / "docs", count=3, words=400)
    window = make_window(llm_settings(llm_server, translate_queries=False, context_compression="always"))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    message = ask(qtbot, window, "What does topic1 say about gamma?")
    row = window.chat_model.last_assistant_row()
    sent = _received(llm_server)
    dialog = open_sent(window, qtbot, row)
    text = dialog.text.toPlainText()
    assert dialog.text.isReadOnly()
    assert_sent_exactly(text, sent)
    assert [m["content"] for m in sent] == [c for _, c in message.prompt.messages]
    assert "Model fake-model: 2 messages" in dialog.summary.text() and "% saved" in dialog.summary.text()
    dialog.copy_button.click()
    assert QGuiApplication.clipboard().text() == text
    assert dialog.grab().save(str(tmp_path / "what-was-sent.png"))
    dialog.close()

    message = ask(qtbot, window, "What does topic1 say about gamma?")  # the same question: replayed
    assert message.cached and len(llm_server.chat_requests()) == 1
    i18n.set_language("zh")
    dialog = open_sent(window, qtbot, window.chat_model.last_assistant_row())
    assert_sent_exactly(dialog.text.toPlainText(), sent)  # what was sent when the answer was made
    assert "已保存的回答" in dialog.summary.text() and "个 token" in dialog.text.toPlainText()
    dialog.close()


def test_no_button_without_a_model(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=2)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    ask(qtbot, window, "What does topic1 say about gamma?")
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    assert not bubble.sent_button.isVisibleTo(window)  # an extractive answer sends nothing


def test_an_open_dialog_follows_the_language_switch(qtbot):
    """"What was sent" open while the interface language changes: its title, summary, request lines and Copy follow
    (they stayed in the language it was opened in)."""
    from desktop_rag.engine import SentPrompt
    from desktop_rag.gui.views.sent_dialog import SentDialog

    i18n.set_language("en")
    earlier = SentPrompt((("user", "Translate: green tea"),), (5,), 0, 0, "m", "translation")
    prompt = SentPrompt((("system", "Answer from the passages."), ("user", "Green tea?")), (6, 3), 40, 20, "m",
                        earlier=(earlier,))
    dialog = SentDialog(prompt, cached=True)
    qtbot.addWidget(dialog)
    english = (dialog.windowTitle(), dialog.summary.text(), dialog.text.toPlainText(), dialog.copy_button.text())
    i18n.set_language("zh")
    try:
        chinese = (dialog.windowTitle(), dialog.summary.text(), dialog.text.toPlainText(), dialog.copy_button.text())
    finally:
        i18n.set_language("en")
    assert all(a != b for a, b in zip(english, chinese)), (english, chinese)
    assert "Green tea?" in chinese[2] and "Answer from the passages." in chinese[2]  # the messages as sent
