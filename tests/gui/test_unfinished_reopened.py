"""An answer stopped with the Stop button, cut at its size limit or cut off by the server, reopened in a new window on
the same data folder (a restart): its partial text and the note it had live ("Stopped.", the size limit, the error),
said again in Chinese. Before, the reopened answer showed its partial text as if whole, and a thinking model's stopped
answer was not there at all. Through the real local OpenAI-protocol server."""

from __future__ import annotations

import sqlite3

import pytest

from desktop_rag.engine import STOPPED
from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait, llm_settings, wait_idle, write_docs
from tests.support.unfinished_turns import SECTION_REPLY, long_report

WORDS = [f"word{i} " for i in range(400)]


def _ask(qtbot, window, question: str, stop_after: int | None = None, server=None):
    """Send `question` and wait for its answer to end (pressing Stop after `stop_after` tokens, or, given `server`,
    once it has sent that many: a `<think>` block gives the window none); its message."""
    got: list[str] = []
    before = 0 if server is None else len(server.chat_requests())

    def sent() -> int:
        return len(got) if server is None else sum(r.tokens_sent for r in server.chat_requests()[before:])

    window.chat.token_received.connect(got.append)
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        window.chat_panel.input.setPlainText(question)
        window.chat_panel.send_button.click()
        if stop_after is not None:
            qtbot.waitUntil(lambda: sent() >= stop_after, timeout=15_000)
            window.chat_panel.stop_button.click()
    window.chat.token_received.disconnect(got.append)
    return blocker.args[0]


def _reopened(make_window, qtbot, settings, home, window):
    """A new window on `home` (`window` closed first, as a restart) with `window`'s conversation opened; the
    answer's bubble."""
    conversation = window.chat.conversation_id
    wait_idle(qtbot, window)
    window.close()
    again = make_window(settings, home)
    qtbot.waitUntil(lambda: again.conversations_model.row_of(conversation) >= 0, timeout=10_000)
    with qtbot.waitSignal(again.chat.messages_loaded, timeout=10_000):
        again.conversations_panel.opened.emit(conversation)
    model = again.chat_model
    assert [model.message(r).role for r in range(model.rowCount())] == ["user", "assistant"]
    return again, model.message(1), again.chat_panel.messages.widget_at(1)


def _window(make_window, qtbot, tmp_path, llm_server, monkeypatch, model: str = "fake-model"):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    write_docs(tmp_path / "docs", count=2)
    if model not in llm_server.models:
        llm_server.models.append(model)
    settings = llm_settings(llm_server, translate_queries=False, llm_model=model)
    window = make_window(settings, tmp_path / "home")
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    return window, settings


def test_a_stopped_answer_reopens_with_its_text_and_stop(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    window, settings = _window(make_window, qtbot, tmp_path, llm_server, monkeypatch)
    llm_server.tokens, llm_server.token_delay = WORDS, 0.02
    live = _ask(qtbot, window, "Tell me everything about topic0", stop_after=5)
    assert live.notice == STOPPED and live.text.startswith("word0 word1")
    again, message, bubble = _reopened(make_window, qtbot, settings, tmp_path / "home", window)
    assert message.text == live.text and len(message.sources) == len(live.sources) > 0
    assert bubble.notice_label.text() == "Stopped.", bubble.notice_label.text()
    i18n.set_language("zh")
    assert bubble.notice_label.text() == "已停止。"


def test_a_reply_the_server_cut_off_reopens_with_its_error(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    window, settings = _window(make_window, qtbot, tmp_path, llm_server, monkeypatch)
    llm_server.tokens, llm_server.cut_after = ["Partial ", "answer ", "here ", "and ", "more"], 3
    live = _ask(qtbot, window, "What is topic0?")
    live_note = window.chat_panel.messages.widget_at(1).notice_label.text()
    # said once: the cut's own text says what became of the answer, not inside "The answer failed: …" as well
    assert live.error and live_note.startswith("The answer was cut off: the connection"), live_note
    again, message, bubble = _reopened(make_window, qtbot, settings, tmp_path / "home", window)
    assert message.text == live.text == "Partial answer here " and bubble.notice_label.text() == live_note
    i18n.set_language("zh")
    assert bubble.notice_label.text().startswith("回答被中断：回答到一半时"), bubble.notice_label.text()


def test_a_reply_cut_at_its_size_limit_reopens_with_the_limit(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    window, settings = _window(make_window, qtbot, tmp_path, llm_server, monkeypatch)
    llm_server.tokens, llm_server.finish_reason = ["Partial ", "answer ", "here"], "length"
    live = _ask(qtbot, window, "What is topic0?")
    live_note = window.chat_panel.messages.widget_at(1).notice_label.text()
    assert live_note.startswith("The model stopped at its limit")
    again, message, bubble = _reopened(make_window, qtbot, settings, tmp_path / "home", window)
    assert message.text == "Partial answer here" and bubble.notice_label.text() == live_note
    i18n.set_language("zh")
    assert bubble.notice_label.text().startswith("模型在单次回复")


def test_a_cut_reply_says_its_limit_in_the_interfaces_language(make_window, qtbot, tmp_path, llm_server,
                                                               monkeypatch):
    """A Chinese interface, an English question: the live note is the interface's, as the reopened one is (before,
    live it was the question's English, reopened Chinese)."""
    window, settings = _window(make_window, qtbot, tmp_path, llm_server, monkeypatch)
    i18n.set_language("zh")
    llm_server.tokens, llm_server.finish_reason = ["Partial ", "answer ", "here"], "length"
    _ask(qtbot, window, "What is topic0?")
    live_note = window.chat_panel.messages.widget_at(1).notice_label.text()
    assert live_note.startswith("模型在单次回复"), live_note
    again, message, bubble = _reopened(make_window, qtbot, settings, tmp_path / "home", window)
    i18n.set_language("zh")  # (a new window starts in its settings' language)
    assert bubble.notice_label.text() == live_note
    i18n.set_language("en")
    assert bubble.notice_label.text().startswith("The model stopped at its limit")


@pytest.mark.parametrize("language, tokens, says", [
    ("en", [], "The model returned an empty answer."), ("zh", [], "模型返回了空的回答。"),
    ("en", ["<think>", "Let me weigh topic0"], "The model only thought and gave no answer."),
    ("zh", ["Let me weigh topic0", "\n</think>\n"], "模型只进行了思考，没有给出回答。")])
def test_a_reply_without_an_answer_reopens_with_its_note(make_window, qtbot, tmp_path, llm_server, monkeypatch,
                                                         language, tokens, says):
    """The model's whole reply held no answer (nothing, or thinking only): live and reopened, its note in the
    interface's language (before, reopened, the question stood alone; thinking only said it was empty)."""
    window, settings = _window(make_window, qtbot, tmp_path, llm_server, monkeypatch)
    i18n.set_language(language)
    llm_server.tokens = tokens
    live = _ask(qtbot, window, "What is topic0?")
    live_note = window.chat_panel.messages.widget_at(1).notice_label.text()
    assert live.text == "" and live_note.startswith(says), live_note
    again, message, bubble = _reopened(make_window, qtbot, settings, tmp_path / "home", window)
    i18n.set_language(language)
    assert message.text == "" and bubble.notice_label.text() == live_note


def test_a_summary_that_fails_before_it_begins_reopens_with_its_error(make_window, qtbot, tmp_path, llm_server,
                                                                     monkeypatch):
    """"Summarise" on a file no longer in the library: the engine raises before any event. Before, nothing was kept
    (reopened, the conversation was empty); now the question and its error, said again in either language."""
    window, settings = _window(make_window, qtbot, tmp_path, llm_server, monkeypatch)
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        window.chat.summarise(str(tmp_path / "docs" / "gone.md"), "Summarise gone.md")
    live_note = window.chat_panel.messages.widget_at(1).notice_label.text()
    assert blocker.args[0].error and blocker.args[0].text == "" and "gone.md" in live_note, live_note
    again, message, bubble = _reopened(make_window, qtbot, settings, tmp_path / "home", window)
    assert again.chat_model.message(0).text == "Summarise gone.md" and bubble.notice_label.text() == live_note
    i18n.set_language("zh")
    # a failure that does not say what became of the answer keeps the chat's frame
    assert live_note.startswith("The answer failed: "), live_note
    assert bubble.notice_label.text().startswith("回答失败：") and "gone.md" in bubble.notice_label.text()


def test_a_summary_cut_to_its_budget_reopens_with_its_note(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    """A summary of only the first sections (the others' summaries did not fit its budget): its note was plain text in
    the document's language, English in a Chinese window, and gone once the conversation was reopened. Now it is said
    in the interface's language, live and reopened."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    report = long_report(tmp_path / "docs")
    settings = llm_settings(llm_server, translate_queries=False, summary_budget_tokens=1000,
                            summary_request_limit=100)
    window = make_window(settings, tmp_path / "home")
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    llm_server.reply_for = lambda body: None if body.get("stream") else SECTION_REPLY  # the sections' replies
    llm_server.reply = "The basin report covers rainfall [1]."
    i18n.set_language("zh")
    with qtbot.waitSignal(window.chat.answer_finished, timeout=60_000):
        window.chat.summarise(str(report), "Summarise basin.md")
    live_note = window.chat_panel.messages.widget_at(1).notice_label.text()
    assert live_note.startswith("本摘要只涵盖文档 18 个部分中的前 1 个"), live_note
    again, message, bubble = _reopened(make_window, qtbot, settings, tmp_path / "home", window)
    i18n.set_language("zh")
    assert message.text == "The basin report covers rainfall [1]." and bubble.notice_label.text() == live_note
    i18n.set_language("en")
    assert bubble.notice_label.text().startswith("This summary covers the first 1 of the document's 18 sections")


def test_a_thinking_model_stopped_mid_thought_reopens_as_stopped(make_window, qtbot, tmp_path, llm_server,
                                                                  monkeypatch):
    window, settings = _window(make_window, qtbot, tmp_path, llm_server, monkeypatch)
    llm_server.tokens = ["Let me ", "think", "\n</think>", "\n\n", "topic0 is alpha [1]."]
    _ask(qtbot, window, "What is topic1?")  # a whole answer: the model is seen thinking
    window.chat.new_conversation()
    llm_server.tokens = ["SECRET-THOUGHT ", *WORDS]
    llm_server.token_delay = 0.02
    live = _ask(qtbot, window, "Tell me everything about topic0", stop_after=5)
    assert live.text == "" and live.notice != STOPPED
    _reopens_stopped_thinking(make_window, qtbot, settings, tmp_path / "home", window)


def _reopens_stopped_thinking(make_window, qtbot, settings, home, window) -> str:
    """`window`'s conversation reopened: no text, its note that the model had not finished thinking in either
    language, and no word of the thinking ("SECRET-THOUGHT", "word0") in the library; the note in English."""
    again, message, bubble = _reopened(make_window, qtbot, settings, home, window)
    note = bubble.notice_label.text()
    assert message.text == "" and note.startswith("Stopped before the model finished thinking"), note
    i18n.set_language("zh")
    assert bubble.notice_label.text().startswith("已停止：模型还在思考")
    db = sqlite3.connect(home / "library.sqlite3")
    try:
        stored = db.execute("SELECT content || coalesce(ended, '') FROM messages").fetchall()
    finally:
        db.close()
    assert stored and not any("SECRET-THOUGHT" in row[0] or "word0" in row[0] for row in stored), stored
    return note


# ---- a reply that opens with `<think>` is thinking until its close, from a model never seen as from any ----

OPENED = ["<think>", "SECRET-THOUGHT ", *WORDS[:40], "</think>", "\n\n", "topic0 is alpha [1]."]


def test_a_new_models_reply_stopped_inside_its_think_block_says_so_live_and_reopened(
        make_window, qtbot, tmp_path, llm_server, monkeypatch):
    """A model never seen (not known to think), stopped inside the `<think>` block its first reply opened with: the
    bubble said "Stopped." as if it had begun its answer; now it says the model had not finished thinking, live and
    reopened, in either language. Nothing of the thinking is shown or kept."""
    window, settings = _window(make_window, qtbot, tmp_path, llm_server, monkeypatch, model="qwen3-never-seen")
    llm_server.tokens, llm_server.token_delay = OPENED, 0.02
    shown: list[str] = []
    window.chat_model.dataChanged.connect(lambda *_: shown.append(window.chat_model.message(1).text))
    live = _ask(qtbot, window, "Tell me everything about topic0", stop_after=5, server=llm_server)
    live_note = window.chat_panel.messages.widget_at(1).notice_label.text()
    assert live.text == "" and live_note.startswith("Stopped before the model finished thinking"), live_note
    assert not any(shown), shown
    assert _reopens_stopped_thinking(make_window, qtbot, settings, tmp_path / "home", window) == live_note


def test_a_new_models_think_block_cut_says_its_limit_and_a_think_named_mid_sentence_stays(
        make_window, qtbot, tmp_path, llm_server, monkeypatch):
    """Cut at its size limit inside the `<think>` block: no thinking shown, the limit said (kept so); an answer
    naming the tag mid-sentence is shown whole."""
    window, settings = _window(make_window, qtbot, tmp_path, llm_server, monkeypatch, model="qwen3-never-seen")
    llm_server.tokens, llm_server.finish_reason = OPENED[:10], "length"
    live = _ask(qtbot, window, "What is topic0?")
    live_note = window.chat_panel.messages.widget_at(1).notice_label.text()
    assert live.text == "" and live_note.startswith("The model spent its whole limit of"), live_note
    llm_server.tokens, llm_server.finish_reason = ["Wrap", " it in a <think>", " tag [1]", " first."], "stop"
    assert _ask(qtbot, window, "How do I mark reasoning?").text == "Wrap it in a <think> tag [1] first."
    i18n.set_language("zh")
    assert window.chat_panel.messages.widget_at(1).notice_label.text().startswith("模型把单次回复")
