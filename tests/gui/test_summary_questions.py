"""Summaries asked in the chat (issue 40): "summarise X" typed as a question shows the same estimate as the
document's menu before a summary of several requests (nothing is sent until Yes; No sends nothing); Regenerate
on a stored summary writes a new one; a reopened conversation still shows what each answer sent, the requests
made before it included. Real MainWindow and engine, offscreen, the local chat server counting requests."""

from __future__ import annotations

from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait, llm_settings, write_docs
from tests.support.window_views import assert_sent_exactly, open_sent

SAMPLE = "getting-started.md"


def _library(make_window, qtbot, tmp_path, llm_server, **changes):
    from desktop_rag.config import resource_path

    window = make_window(llm_settings(llm_server, translate_queries=False, **changes))
    add_and_wait(qtbot, window, [str(resource_path("samples") / SAMPLE)])
    return window


def _estimate_shown(window, previous=None) -> bool:
    box = window.summaries.estimate_box
    return box is not None and box is not previous and box.isVisible()


def _type(window, question: str) -> None:
    window.chat_panel.input.setPlainText(question)
    window.chat_panel.send_button.click()


def test_a_summary_question_shows_the_estimate_first(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["The ", "guide ", "[1]", "."]
    window = _library(make_window, qtbot, tmp_path, llm_server, summary_budget_tokens=1000, chunk_size=300)
    _type(window, "Summarise getting-started")
    qtbot.waitUntil(lambda: window.summaries.estimate_box is not None and window.summaries.estimate_box.isVisible(),
                    timeout=20_000)
    box = window.summaries.estimate_box
    assert "getting-started.md" in box.text() and "requests to the model" in box.text()
    assert llm_server.chat_requests() == [] and not window.chat.streaming and window.chat.checking
    window.chat_panel.input.setPlainText("Summarise getting-started")
    window.chat_panel.send_button.click()  # a second question while the first is being checked: ignored
    box.button(box.StandardButton.No).click()
    qtbot.waitUntil(lambda: not window.chat.checking, timeout=5_000)
    assert llm_server.chat_requests() == [] and window.chat_model.rowCount() == 0  # declined: nothing asked

    i18n.set_language("zh")
    _type(window, "总结一下 getting-started")
    qtbot.waitUntil(lambda: window.summaries.estimate_box is not box and window.summaries.estimate_box.isVisible(),
                    timeout=20_000)
    box = window.summaries.estimate_box
    assert "getting-started.md" in box.text() and "次请求" in box.text()
    assert box.grab().save(str(tmp_path / "summary-question-estimate-zh.png"))
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        box.button(box.StandardButton.Yes).click()
    i18n.set_language("en")
    assert blocker.args[0].text == "The guide [1]." and len(llm_server.chat_requests()) >= 3
    asked = len(llm_server.chat_requests())
    _type(window, "How do I add documents?")  # an ordinary question: no estimate, asked at once
    qtbot.waitUntil(lambda: not window.chat.streaming and len(llm_server.chat_requests()) == asked + 1,
                    timeout=20_000)
    box = window.summaries.estimate_box
    _type(window, "Summarise getting-started")  # (in English: not stored yet) then Stop
    qtbot.waitUntil(lambda: _estimate_shown(window, box), timeout=20_000)
    window.chat_panel.stop_button.click()
    assert not window.chat.checking and window.chat_panel.send_button.isEnabled()
    stale = window.summaries.estimate_box
    _type(window, "Summarise getting-started.md")  # asked again: a new estimate
    qtbot.waitUntil(lambda: _estimate_shown(window, stale), timeout=20_000)
    rows = window.chat_model.rowCount()
    stale.button(box.StandardButton.Yes).click()  # the stopped one's Yes: too late, and not the new one's
    qtbot.wait(300)
    assert window.chat.checking and window.chat_model.rowCount() == rows
    window.summaries.estimate_box.button(box.StandardButton.No).click()
    assert not window.chat.checking and len(llm_server.chat_requests()) == asked + 1


def test_regenerate_on_a_stored_summary_writes_a_new_one(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    from desktop_rag.config import resource_path

    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["First ", "[1]", "."]
    window = _library(make_window, qtbot, tmp_path, llm_server)
    path = str(resource_path("samples") / SAMPLE)
    for _ in range(2):  # the second time: the stored summary
        with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
            window.summaries.summarise(path)
    row = window.chat_model.last_assistant_row()
    assert blocker.args[0].cached and len(llm_server.chat_requests()) == 1
    bubble = window.chat_panel.messages.widget_at(row)
    assert bubble.regenerate_button.isVisibleTo(window)
    llm_server.tokens = ["Second ", "[1]", "."]
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        bubble.regenerate_button.click()
    assert blocker.args[0].text == "Second [1]." and not blocker.args[0].cached
    assert len(llm_server.chat_requests()) == 2
    _type(window, "Summarise getting-started")  # the stored summary is the new one
    qtbot.waitUntil(lambda: not window.chat.streaming and window.chat_model.rowCount() == 8, timeout=20_000)
    assert window.chat_model.message(7).text == "Second [1]." and window.chat_model.message(7).cached
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        window.chat_panel.messages.widget_at(7).regenerate_button.click()  # asked as a question: also anew
    assert not blocker.args[0].cached and len(llm_server.chat_requests()) == 3


def test_a_reopened_conversation_shows_what_was_sent(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    write_docs(tmp_path / "docs", count=3, words=100)
    window = make_window(llm_settings(llm_server, translate_queries=False))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    llm_server.tokens = ["Gamma ", "[1]", "."]
    for question in ("What does topic1 say about gamma?", "And about beta?"):
        if question.startswith("And"):
            llm_server.queue_reply("What does topic1 say about beta")  # the follow-up's rewrite
        with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000):
            _type(window, question)
    requests = llm_server.chat_requests()
    conversation = window.chat.conversation_id
    window.chat.new_conversation()
    with qtbot.waitSignal(window.chat.messages_loaded, timeout=10_000):
        window.chat.open_conversation(conversation)
    row = window.chat_model.last_assistant_row()
    assert window.chat_model.message(row).prompt is not None and not window.chat_model.message(row).cached
    qtbot.waitUntil(lambda: window.chat_panel.messages.widget_at(row).sent_button.isVisibleTo(window), timeout=5_000)
    dialog = open_sent(window, qtbot, row)
    text = dialog.text.toPlainText()
    assert_sent_exactly(text, requests[-2].body["messages"] + requests[-1].body["messages"])  # rewrite, then answer
    assert "Request 1 of 2: the follow-up made to stand alone" in text and "Request 2 of 2: the answer" in text
    assert "Before it, 1 more request of " in dialog.summary.text()
    assert dialog.grab().save(str(tmp_path / "what-was-sent-reopened.png"))
    dialog.close()
