"""The answer bubble while it streams reads as the finished answer: no thinking the chat template opened, no raw
citation marker (split across tokens or not), through the real local model server."""

from __future__ import annotations

import re
import time

from desktop_rag.engine.answer.thinking_models import models_file
from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait, llm_settings, wait_idle, write_docs

THINKING = ["Let me ", "think about [", "2] first", "\n</think>", "\n\n", "Alpha ", "【", "1】", " and beta [^", "2]",
            " not [7]", "."]


def _texts_while_streaming(qtbot, window, question: str, shown: list[str] | None = None) -> tuple[list[str], str]:
    """Ask `question`; the assistant message's text at every change while it streamed (its bubble's into `shown`),
    and its final text."""
    seen: list[str] = []
    shown = [] if shown is None else shown

    def changed(*_args) -> None:
        row = window.chat_model.last_assistant_row()
        message = window.chat_model.message(row)
        if message is not None and message.streaming:
            seen.append(message.text)
            bubble = window.chat_panel.messages.widget_at(row)
            if bubble is not None:
                shown.append(bubble.browser.toPlainText())

    window.chat_model.dataChanged.connect(changed)
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        window.chat_panel.input.setPlainText(question)
        window.chat_panel.send_button.click()
    window.chat_model.dataChanged.disconnect(changed)
    return seen, blocker.args[0].text


def test_thinking_and_raw_markers_never_show_while_streaming(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens, llm_server.token_delay = THINKING, 0.05
    write_docs(tmp_path / "docs", count=3)
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])

    shown: list[str] = []
    seen, final = _texts_while_streaming(qtbot, window, "What does topic1 say about gamma?", shown)
    assert final == "Alpha [1] and beta [2] not."
    for text in seen + shown:
        assert not any(raw in text for raw in ("think", "Let me", "【", "1】", "[^", "[7]")), (seen, shown)
    assert all(final.startswith(text) for text in seen), seen

    assert seen, "nothing was recorded while the answer streamed"
    llm_server.tokens = ["Beta ", "is ", "in ", "【2】", " plainly", "."]
    seen, final = _texts_while_streaming(qtbot, window, "And topic2?")  # this model opened thinking: still held
    assert final == "Beta is in [2] plainly." and not any(seen), seen


def test_a_model_seen_without_thinking_streams_at_once(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens, llm_server.token_delay = ["Beta ", "is ", "in ", "【2】", " plainly", "."], 0.05
    write_docs(tmp_path / "docs", count=3)
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])

    seen, final = _texts_while_streaming(qtbot, window, "What does topic1 say about gamma?")
    assert final == "Beta is in [2] plainly." and not any(seen), seen
    seen, final = _texts_while_streaming(qtbot, window, "And topic2?")
    assert "Beta is" in seen and "Beta is in" in seen, seen
    assert all(final.startswith(text) for text in seen), seen


# ---- across sessions: only a model's very first answer is held, and while it is the bubble says it is writing ----

WRITING = re.compile(r"^The model is writing… ([\d,]+) characters? so far$")
LONG = [f"Word{i} " for i in range(30)] + ["[1]."]


def _record(qtbot, window, question: str) -> dict:
    """Ask `question`; while it streams, the message's text and held count at every change and the bubble's text at
    every change of it (its browser's textChanged); the final text and the time it took."""
    record: dict = {"seen": [], "held": [], "shown": []}
    hooked: set[int] = set()

    def changed(*_args) -> None:
        row = window.chat_model.last_assistant_row()
        message = window.chat_model.message(row)
        if message is None or not message.streaming:
            return
        record["seen"].append(message.text)
        record["held"].append(message.held)
        bubble = window.chat_panel.messages.widget_at(row)
        if bubble is not None and id(bubble) not in hooked:
            hooked.add(id(bubble))
            bubble.browser.textChanged.connect(lambda: record["shown"].append(bubble.browser.toPlainText()))

    window.chat_model.dataChanged.connect(changed)
    started = time.monotonic()
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        window.chat_panel.input.setPlainText(question)
        window.chat_panel.send_button.click()
    window.chat_model.dataChanged.disconnect(changed)
    record["final"], record["seconds"] = blocker.args[0].text, time.monotonic() - started
    return record


def _library_window(make_window, qtbot, tmp_path, llm_server, monkeypatch, tokens: list[str], delay: float):
    """A window on a new library of three documents, answering through the server with `tokens`."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens, llm_server.token_delay = tokens, delay
    write_docs(tmp_path / "docs", count=3)
    window = make_window(llm_settings(llm_server), home=tmp_path / "home")
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    return window


def _reopened(make_window, qtbot, window, llm_server, forget_models: bool = False):
    """`window` closed, and a new one (a new session) on its data and settings, idle; `forget_models`: the file
    of the models seen is removed between them."""
    window.close()
    if forget_models:
        models_file(window.app_settings.paths).unlink()
    again = make_window(llm_settings(llm_server), home=window.app_settings.paths.data_dir)
    wait_idle(qtbot, again)
    return again


def _no_thinking_shown(record: dict) -> None:
    for text in record["seen"] + record["shown"]:
        assert not any(raw in text for raw in ("think", "Let me", "【", "[^")), record


def test_an_unseen_models_first_answer_says_it_is_writing_and_a_later_window_streams_it(
        make_window, qtbot, tmp_path, llm_server, monkeypatch):
    window = _library_window(make_window, qtbot, tmp_path, llm_server, monkeypatch, LONG, 0.05)

    first = _record(qtbot, window, "What does topic1 say about gamma?")
    assert first["final"].startswith("Word0 Word1") and not any(first["seen"]), first  # held: never a part shown
    counts = [int(m.group(1).replace(",", "")) for m in map(WRITING.match, first["shown"]) if m]
    assert len(set(counts)) >= 3 and counts == sorted(counts), first["shown"]  # the count grows while held
    updates = len(set(h for h in first["held"] if h))
    assert updates <= first["seconds"] / 0.25 + 1, (updates, first["seconds"])  # a few times a second at most
    again = _reopened(make_window, qtbot, window, llm_server)
    later = _record(qtbot, again, "And topic2?")
    assert "Word0 Word1" in later["seen"] and not any(later["held"]), later  # streamed at once
    assert all(later["final"].startswith(text) for text in later["seen"]), later["seen"]


def test_a_model_seen_thinking_stays_held_in_a_later_session(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    window = _library_window(make_window, qtbot, tmp_path, llm_server, monkeypatch, ["Beta ", "is ", "in ", "【2】", "."], 0.02)
    _record(qtbot, window, "What does topic1 say about gamma?")  # seen without thinking
    llm_server.tokens = THINKING
    assert _record(qtbot, window, "And topic2?")["final"] == "Alpha [1] and beta [2] not."  # then thinking
    again = _reopened(make_window, qtbot, window, llm_server)
    later = _record(qtbot, again, "What does topic0 say?")
    assert later["final"] == "Alpha [1] and beta [2] not."
    _no_thinking_shown(later)  # held from the start: it is known to think
    assert later["shown"], "the bubble never changed while the answer streamed"


def test_a_stopped_or_replayed_answer_does_not_teach_that_a_model_never_thinks(
        make_window, qtbot, tmp_path, llm_server, monkeypatch):
    window = _library_window(make_window, qtbot, tmp_path, llm_server, monkeypatch, THINKING, 0.05)
    _record(qtbot, window, "What does topic1 say about gamma?")  # stored for replay
    again = _reopened(make_window, qtbot, window, llm_server, forget_models=True)  # stored answers, model new
    assert _record(qtbot, again, "What does topic1 say about gamma?")["final"] == "Alpha [1] and beta [2] not."
    assert again.chat_model.message(again.chat_model.last_assistant_row()).cached  # a replay: its thinking was dropped
    again.chat.token_received.connect(again.chat.stop)  # stopped while its thinking streams: its tag never came
    stopped = _record(qtbot, again, "And topic2?")
    again.chat.token_received.disconnect(again.chat.stop)
    assert again.chat_model.message(again.chat_model.last_assistant_row()).notice and not any(stopped["seen"])
    later = _record(qtbot, again, "What does topic0 say?")
    assert later["final"] == "Alpha [1] and beta [2] not."
    _no_thinking_shown(later)  # still held: nothing has shown that the model never thinks


# ---- a <think> block: the bubble says that the model is thinking, and how much, then shows the answer ----

THINKING_COUNT = re.compile(r"^The model is thinking… ([\d,]+) characters? so far$")
BLOCK = ["<think>", *[f"step {n} of the reasoning. " for n in range(16)], "</think>", "\n\n", "Alpha ", "[1]."]


def test_a_model_thinking_in_a_block_says_how_much_it_has_thought(make_window, qtbot, tmp_path, llm_server,
                                                                  monkeypatch):
    """A slow local model thought for a minute behind "Waiting for the model…", with nothing to tell that it worked."""
    window = _library_window(make_window, qtbot, tmp_path, llm_server, monkeypatch, BLOCK, 0.06)
    record = _record(qtbot, window, "What does topic1 say about gamma?")
    counts = [int(m.group(1).replace(",", "")) for m in map(THINKING_COUNT.match, record["shown"]) if m]
    thought = sum(len(piece) for piece in BLOCK[1:17])  # 406 characters of thinking in all
    assert len(set(counts)) >= 3 and counts == sorted(counts) and counts[-1] <= thought, record["shown"]
    assert record["final"] == "Alpha [1]." and not any("step" in text for text in record["seen"] + record["shown"])
    i18n.set_language("zh")
    try:
        record = _record(qtbot, window, "And topic2?")
    finally:
        i18n.set_language("en")
    assert any(re.match(r"^模型正在思考……已思考 [\d,]+ 个字符$", text) for text in record["shown"]), record["shown"]


# ---- stopped while thinking: a model known to think shows (and keeps) no thinking as its answer ----

UNFINISHED = ["Let me ", "think about [", "2] first", " and", " then", " more", " of", " it", " still"]


def _stopped(qtbot, window, question: str) -> tuple[dict, str]:
    """`question` asked and stopped (the Stop button's slot) at its first token: its record, and the bubble's text
    and notice once finished."""
    window.chat.token_received.connect(window.chat.stop)
    record = _record(qtbot, window, question)
    window.chat.token_received.disconnect(window.chat.stop)
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    return record, f"{bubble.browser.toPlainText()}\n{bubble.notice_label.text()}"


def test_a_thinking_model_stopped_mid_thought_shows_and_keeps_no_thinking(
        make_window, qtbot, tmp_path, llm_server, monkeypatch):
    """The final bubble said "Let me think about first" (a reply without its `</think>` was kept whole)."""
    window = _library_window(make_window, qtbot, tmp_path, llm_server, monkeypatch, THINKING, 0.02)
    _record(qtbot, window, "What does topic1 say about gamma?")  # seen thinking
    llm_server.tokens, llm_server.token_delay = UNFINISHED, 0.1
    record, bubble = _stopped(qtbot, window, "And topic2?")
    assert record["final"] == "" and "Let me" not in bubble and "think about" not in bubble, bubble
    assert "Stopped before the model finished thinking" in bubble, bubble
    _no_thinking_shown(record)
    turns = window.backend.engine.messages(window.chat.conversation_id)
    assert not any("Let me" in turn.content for turn in turns), turns


def test_a_model_not_thinking_stopped_mid_answer_keeps_its_partial_answer(
        make_window, qtbot, tmp_path, llm_server, monkeypatch):
    window = _library_window(make_window, qtbot, tmp_path, llm_server, monkeypatch, ["Beta ", "is ", "in ", "."], 0.02)
    _record(qtbot, window, "What does topic1 say about gamma?")  # seen without thinking
    llm_server.tokens, llm_server.token_delay = ["Gamma ", "is ", "in ", "topic2 ", "[1]."], 0.2
    record, bubble = _stopped(qtbot, window, "And topic2?")
    assert record["final"].startswith("Gamma") and bubble.startswith("Gamma"), (record, bubble)
    assert bubble.endswith("\nStopped."), bubble
