"""A reply stopped, cut or failed before a thinking model's lone `</think>` is its thinking, never its answer: the
finished answer said "Let me think about [2] first" (`without_thinking` keeps a reply with no tag). Whether a model
thinks is learned by the engine from its whole answers (answer/thinking_models.py), through the real local server."""

from __future__ import annotations

import threading
import time

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import Engine
from desktop_rag.engine.answer.answering import Answerer
from desktop_rag.engine.answer.events import STOPPED, STOPPED_THINKING, THOUGHT_ONLY, DoneEvent, ErrorEvent, SourcesEvent
from desktop_rag.engine.answer.events import TokenEvent
from desktop_rag.engine.answer.events import stopped
from desktop_rag.engine.answer.llm import LLMClient
from desktop_rag.engine.answer.llm_config import LLMConfig
from desktop_rag.engine.answer.reasoning import MAX_THINKING_CHARS
from desktop_rag.engine.answer.thinking_models import ThinkingModel, models_file
from desktop_rag.engine.store.values import Hit
from tests.support.openai_server import run_openai_server

KEY = "sk-test-SECRET1234567890abcdefXYZ"
HITS = [Hit(chunk_id=n, score=1.0 / n, path=f"/docs/doc{n}.md", page=None, heading="", text=text)
        for n, text in enumerate(["Employees get 25 days of leave.", "Leave requests go to your manager."], 1)]
THOUGHT = ["Let me ", "think about [", "2] first", "\n</think>", "\n\n", "You get ", "25 days [1]."]
THINKING = ["Let me ", "think about [", "2] first", " and then", " [1] again", " at length", " before", " answering"]


@pytest.fixture
def server():
    with run_openai_server() as srv:
        yield srv


def answerer(server, tmp_path, **changes) -> Answerer:
    config = LLMConfig(**{"base_url": server.base_url, "model": "fake-model", "api_key": KEY, "timeout_s": 5.0,
                          "max_retries": 0, **changes})
    model = ThinkingModel(models_file(resolve_paths(tmp_path)), config.shown_url, config.model)
    return Answerer(Settings(), lambda query, k: HITS[:k], LLMClient(config), thinking=model)


def stopped_after(answering: Answerer, question: str, tokens: int) -> list:
    """The events of `question`'s answer, stopped after `tokens` tokens (the Stop button, Ctrl-C's cancel)."""
    cancel, events = threading.Event(), []
    for event in answering.answer(question, cancel=cancel):
        events.append(event)
        if sum(isinstance(e, TokenEvent) for e in events) == tokens:
            cancel.set()
    return events


def test_a_thinking_model_stopped_mid_thought_has_no_answer_and_says_so(server, tmp_path):
    server.tokens = THOUGHT
    first = list(answerer(server, tmp_path).answer("Leave?"))
    assert first[0].thinks is None and first[-1].answer == "You get 25 days [1]."  # learned: it thinks
    server.tokens, server.token_delay = THINKING, 0.05
    events = stopped_after(answerer(server, tmp_path), "Leave?", 3)
    assert isinstance(events[0], SourcesEvent) and events[0].thinks is True
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.answer == "" and done.notice == STOPPED_THINKING, done
    assert str(done.notice).startswith("Stopped before the model finished thinking")
    assert done.notice.text("zh").startswith("已停止：模型还在思考")


def test_a_thinking_models_reply_cut_or_failed_mid_thought_is_not_its_answer(server, tmp_path):
    server.tokens = THOUGHT
    list(answerer(server, tmp_path).answer("Leave?"))
    server.tokens, server.finish_reason = THINKING, "length"
    cut = list(answerer(server, tmp_path).answer("Leave?"))[-1]
    assert isinstance(cut, DoneEvent) and cut.answer == "", cut
    # its thinking came as text (a lone </think>), cut at the reply's token limit: the limit, and how to raise it
    assert str(cut.notice).startswith("The model spent its whole limit of 2,048 tokens for one reply reasoning")
    assert "DESKTOP_RAG_MAX_REPLY_TOKENS" in str(cut.notice) and cut.notice.text("zh").startswith("模型把单次回复")
    server.finish_reason, server.cut_after = "stop", 4
    failed = list(answerer(server, tmp_path).answer("Leave?"))[-1]
    assert isinstance(failed, ErrorEvent) and failed.partial == "", failed


@pytest.mark.parametrize("seen", [False, None])
def test_a_model_not_known_to_think_stopped_mid_answer_keeps_its_partial_answer(server, tmp_path, seen):
    if seen is False:  # a whole answer without thinking: learned not to think
        server.reply = "You get 25 days [1]."
        assert list(answerer(server, tmp_path).answer("Leave?"))[-1].answer == "You get 25 days [1]."
    server.tokens, server.token_delay = ["You get", " 25 days", " of", " leave", " a", " year", "."], 0.05
    events = stopped_after(answerer(server, tmp_path), "Leave?", 2)
    assert events[0].thinks is seen
    assert events[-1] == DoneEvent("You get 25 days", "llm", events[-1].cited, STOPPED, ending=stopped()[1])
    assert answerer(server, tmp_path).thinking.thinks() is seen  # a stopped answer teaches nothing


def test_the_engine_neither_stores_nor_caches_a_stopped_thought(server, tmp_path, monkeypatch):
    """`Engine.ask` (the CLI's, the MCP server's): the conversation keeps no thinking (only that it was stopped), the
    cache no answer."""
    for name, value in (("OPENAI_API_KEY", KEY), ("OPENAI_BASE_URL", server.base_url), ("OPENAI_MODEL", "fake-model")):
        monkeypatch.setenv(name, value)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "leave.txt").write_text("Employees get 25 days of leave.\n", encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    try:
        engine.index([tmp_path / "docs"])
        server.tokens = THOUGHT
        list(engine.ask("How much leave?"))  # a whole answer: the model is seen thinking
        server.tokens, server.token_delay = THINKING, 0.05
        conversation = engine.new_conversation()
        cancel, events = threading.Event(), []
        for event in engine.ask("How many days of leave?", conversation, cancel=cancel):
            events.append(event)
            if sum(isinstance(e, TokenEvent) for e in events) == 3:
                cancel.set()
        assert events[-1].answer == "" and events[-1].notice == STOPPED_THINKING
        assert events[-1].answer_id is None and engine.review.stats().answers == 1  # nothing to grade: not logged
        turns = engine.messages(conversation)
        # the stop is kept (tests/engine/test_unfinished_turns.py), none of the thinking
        assert [(turn.role, turn.content) for turn in turns] == [("user", "How many days of leave?"), ("assistant", "")]
        assert turns[1].ending == stopped(thinking=True)[1]
        server.tokens, server.token_delay = ["Twenty-five", " days."], 0.0
        again = list(engine.ask("How many days of leave?"))[-1]
        assert not again.cached and again.answer == "Twenty-five days."
    finally:
        engine.close()


def test_a_summary_stopped_mid_thought_is_not_the_summary(server, tmp_path):
    """A document's summary streams as an answer does: stopped before a thinking model's `</think>` it kept its
    thinking as the summary."""
    guide = tmp_path / "guide.md"
    guide.write_text("# Setup\n\nInstall the app, then add a folder of documents.\n", encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(
        embedding_model="hash:64", llm_base_url=server.base_url, llm_model="fake-model", translate_queries=False))
    try:
        engine.index([guide])
        server.tokens = ["Okay, section [1] first.", "\n</think>\n\n", "The guide explains setup [1]."]
        assert list(engine.summarise(guide))[-1].answer == "The guide explains setup [1]."  # seen thinking
        server.tokens, server.token_delay = THINKING, 0.05
        cancel, events = threading.Event(), []
        for event in engine.summarise(guide, cancel=cancel, refresh=True):
            events.append(event)
            if sum(isinstance(e, TokenEvent) for e in events) == 3:
                cancel.set()
        assert events[-1].answer == "" and events[-1].notice == STOPPED_THINKING, events[-1]
    finally:
        engine.close()


def test_a_section_summary_cut_mid_thought_is_not_the_sections_summary(server, tmp_path):
    """A long document's section request (not streamed) cut at its max_tokens before a thinking model's lone
    `</think>`: its thinking was taken as the section's summary and sent on to the request writing the summary."""
    from tests.support.long_document import write_long_pdf

    guide, report = tmp_path / "guide.md", write_long_pdf(tmp_path / "docs" / "report.pdf")
    guide.write_text("# Setup\n\nInstall the app, then add a folder of documents.\n", encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(
        embedding_model="hash:64", llm_base_url=server.base_url, llm_model="fake-model", translate_queries=False))
    try:
        engine.index([guide, tmp_path / "docs"])
        server.tokens = ["Okay, section [1] first.", "\n</think>\n\n", "The report covers regions [1]."]
        list(engine.summarise(guide))  # a whole reply: the model is seen thinking
        server.reply_for = lambda body: None if body.get("stream") else "Weighing SECRET-THOUGHT of section at length"
        server.finish_for = lambda body: "stop" if body.get("stream") else "length"  # every section's reply is cut
        done = list(engine.summarise(report))[-1]
        sections = [r for r in server.chat_requests() if not r.body.get("stream")]
        assert sections and "SECRET-THOUGHT" not in str(server.chat_requests()[-1].body["messages"])
        assert done.answer == "The report covers regions [1]." and "SECRET-THOUGHT" not in done.answer
    finally:
        engine.close()


# ---- a reply that opens with `<think>`: thinking until its close, whatever its model is known to do ----

NEW_MODEL = "qwen3-never-seen"
OPENED = ["<think>", "Let me ", "weigh [2]", " SECRET-THOUGHT", " at", " length", " before", " answering", ".</think>",
          "\n\n", "You get 25 days [1]."]


def stopped_once_sent(asked, server, tokens: int) -> list:
    """The events of `asked(cancel)` (an answer or a summary), the Stop button pressed (`cancel` set) once the
    server has sent `tokens` tokens of its reply: a `<think>` block yields no token to count."""
    cancel, before = threading.Event(), len(server.chat_requests())

    def stop_when_sent() -> None:
        while not cancel.is_set():
            requests = [r for r in server.chat_requests()[before:] if r.body.get("stream")]
            if requests and requests[-1].tokens_sent >= tokens:
                cancel.set()
            time.sleep(0.01)

    watcher = threading.Thread(target=stop_when_sent, daemon=True)
    watcher.start()
    try:
        return list(asked(cancel))
    finally:
        cancel.set()
        watcher.join()


def new_model_engine(server, tmp_path) -> Engine:
    server.models.append(NEW_MODEL)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "leave.txt").write_text("Employees get 25 days of leave.\n", encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(
        embedding_model="hash:64", llm_base_url=server.base_url, llm_model=NEW_MODEL, translate_queries=False))
    engine.index([tmp_path / "docs"])
    return engine


def test_a_new_models_reply_stopped_inside_its_opening_think_block_keeps_no_thinking_and_says_so(server, tmp_path):
    """A model never seen (not known to think) stopped inside the `<think>` block that opened its reply: the answer
    and its turn said "Stopped." as if the model had begun its answer; now they say it had not finished thinking.
    The summary (the same stream) too. Nothing of the thinking is shown, kept or cached."""
    server.tokens, server.token_delay = OPENED, 0.05
    engine = new_model_engine(server, tmp_path)
    try:
        conversation = engine.new_conversation()
        events = stopped_once_sent(lambda cancel: engine.ask("How much leave?", conversation, cancel=cancel), server, 3)
        assert events[0].thinks is None and not any(isinstance(e, TokenEvent) for e in events), events
        done = events[-1]
        assert isinstance(done, DoneEvent) and done.answer == "" and done.notice == STOPPED_THINKING, done
        turns = engine.messages(conversation)
        assert [(t.role, t.content) for t in turns] == [("user", "How much leave?"), ("assistant", "")]
        assert turns[1].ending == stopped(thinking=True)[1]
        summary = stopped_once_sent(lambda cancel: engine.summarise(tmp_path / "docs" / "leave.txt", cancel=cancel),
                                    server, 3)[-1]
        assert summary.answer == "" and summary.notice == STOPPED_THINKING, summary
        stored = engine.store.db.execute("SELECT content, coalesce(ended, '') FROM messages").fetchall()
        assert not any("SECRET" in content + ended for content, ended in stored), stored
        server.token_delay = 0.0
        again = list(engine.ask("How much leave?"))[-1]
        assert not again.cached and again.answer == "You get 25 days [1]."
    finally:
        engine.close()


def test_a_new_models_reply_cut_inside_its_opening_think_block_keeps_no_thinking(server, tmp_path):
    """Cut at its size limit: it spent the limit thinking, said with the limit; the turn keeps no text."""
    server.tokens, server.finish_reason = OPENED[:6], "length"
    engine = new_model_engine(server, tmp_path)
    try:
        conversation = engine.new_conversation()
        done = list(engine.ask("How much leave?", conversation))[-1]
        assert isinstance(done, DoneEvent) and done.answer == "" and done.ending.state == "cut", done
        assert str(done.notice).startswith("The model spent its whole limit of 2,048 tokens for one reply reasoning")
        turn = engine.messages(conversation)[1]
        assert turn.content == "" and turn.ending.reason == done.notice
        assert turn.ending.reason.text("zh") != turn.ending.reason.text("en")
        server.finish_reason, server.cut_after = "stop", 4  # failed mid-thought: no partial
        failed = list(engine.ask("How many days of leave?", engine.new_conversation()))[-1]
        assert isinstance(failed, ErrorEvent) and failed.partial == "", failed
    finally:
        engine.close()


MENTION = ["Wrap", " the reasoning", " in a <think>", " tag [1]", " and", " close", " it", " with", " </think>", "."]


def test_an_answer_mentioning_think_mid_sentence_stays_whole_stopped_or_not(server, tmp_path):
    """Only a `<think>` that opens the reply is thinking: an answer naming the tag keeps every word, and one stopped
    after naming it keeps its partial text and says "Stopped."."""
    server.tokens = MENTION
    engine = new_model_engine(server, tmp_path)
    try:
        done = list(engine.ask("How do I mark reasoning?"))[-1]
        assert done.answer == "Wrap the reasoning in a <think> tag [1] and close it with </think>.", done
        server.token_delay = 0.05
        events = stopped_once_sent(lambda cancel: engine.ask("How do I mark it?", cancel=cancel), server, 4)
        assert events[-1].notice == STOPPED and events[-1].answer.startswith("Wrap the reasoning in a <think>")
    finally:
        engine.close()


def test_a_long_answer_quoting_a_lone_closing_tag_late_keeps_every_word(server, tmp_path):
    """A model known to think whose answer, long, quotes `</think>` on a line of its own past MAX_THINKING_CHARS:
    everything before that line was taken for thinking, the answer kept only its last words. Within the bound the
    same reply is still read as thinking and its answer (`test_a_whole_reply_loses_its_thinking`)."""
    server.tokens = THOUGHT
    list(answerer(server, tmp_path).answer("Leave?"))  # learned: it thinks
    long_answer = "You get 25 days [1]. " * (MAX_THINKING_CHARS // 20) + "\nThe log ends with:\n"
    server.tokens = [long_answer[at:at + 500] for at in range(0, len(long_answer), 500)] + ["</think>", "\n", "Done."]
    events = list(answerer(server, tmp_path).answer("Leave?"))
    assert events[0].thinks is True
    done = events[-1]
    assert isinstance(done, DoneEvent) and not done.notice, done.notice
    assert done.answer.startswith("You get 25 days [1]. You get") and done.answer.endswith("</think>\nDone."), \
        done.answer[-80:]


def test_a_summary_of_thinking_only_says_the_model_only_thought(server, tmp_path):
    """A document's summary whose whole reply was an unclosed `<think>` block said "empty answer"."""
    server.tokens = OPENED[:8]
    engine = new_model_engine(server, tmp_path)
    try:
        conversation = engine.new_conversation()
        done = list(engine.summarise(tmp_path / "docs" / "leave.txt", conversation_id=conversation))[-1]
        assert isinstance(done, DoneEvent) and done.answer == "" and done.ending.state == "empty", done
        assert done.notice == THOUGHT_ONLY and done.notice.text("zh").startswith("模型只进行了思考")
        assert engine.messages(conversation)[1].ending.reason.code == "thought_no_answer"
    finally:
        engine.close()


def test_the_bound_on_a_lone_closing_tag_grows_with_the_reply_limit():
    """`LLMConfig.thinking_chars`: about 4 characters a token of `max_tokens`, at least MAX_THINKING_CHARS, at most
    what the client takes of a reply (it was 16,000 whatever the limit)."""
    config = LLMConfig(base_url="http://127.0.0.1:1/v1", model="m")
    assert config.thinking_chars == MAX_THINKING_CHARS  # 2,048 tokens hold less
    assert LLMConfig(base_url="", model="m", max_tokens=5_000).thinking_chars == 20_000
    assert LLMConfig(base_url="", model="m", max_tokens=8_192).thinking_chars == config.max_answer_chars
    assert LLMConfig(base_url="", model="m", max_tokens=8_192, max_answer_chars=100_000).thinking_chars == 32_768


def test_thinking_past_the_default_bound_is_taken_out_under_a_raised_reply_limit(server, tmp_path):
    """A model given 8,192 tokens a reply thinks (its template opened it) for 20,000 characters: under the fixed
    16,000 bound its lone `</think>` was an answer's text and all that thinking was shown as the answer; the
    streamed answer (front ends: `SourcesEvent.thinking_chars`) and a whole completion read it the same."""
    from desktop_rag.engine.answer.streamed_answer import StreamedAnswer

    thinking = "Weighing passage one against two. " * 600  # 20,400 characters
    server.tokens = [thinking[i:i + 500] for i in range(0, len(thinking), 500)] + ["\n</think>\n\n",
                                                                                 "You get 25 days [1]."]
    raised = {"max_tokens": 8_192, "max_answer_chars": 60_000}
    events = list(answerer(server, tmp_path, **raised).answer("Leave?"))
    assert events[-1].answer == "You get 25 days [1].", events[-1].answer[:80]
    shown = StreamedAnswer(len(events[0].hits), events[0].thinking_chars)
    text = ""
    for event in events[1:-1]:
        piece, taken_back = shown.feed(event.text)
        text = ("" if taken_back else text) + piece
    piece, taken_back = shown.finish()
    assert ("" if taken_back else text) + piece == "You get 25 days [1]."
    client = LLMClient(LLMConfig(base_url=server.base_url, model="fake-model", api_key=KEY, max_retries=0, **raised))
    assert client.complete([{"role": "user", "content": "Leave?"}]) == "You get 25 days [1]."
    default = list(answerer(server, tmp_path, max_answer_chars=60_000).answer("Leave again?"))[-1]
    assert default.answer.startswith("Weighing passage one")  # the default limit: past its bound, an answer's text
