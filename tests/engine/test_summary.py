"""Summaries of one document (issue 40) against the local chat server, counting the requests it receives: one
when the document fits the budget, map-reduce (one per section, then one) for a 50-page PDF; stored section
summaries make a second summary, or one of an edited document, ask only for what changed; citations name
sections; the language follows the document or the request; a file the library lacks is a UsageError first.

The hashing embedder (hash:64): these tests are about requests and sections, not about meaning.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.messages import CLI, WINDOW
from desktop_rag.engine.answer.events import STOPPED, DoneEvent, SourcesEvent, SummaryStep, TokenEvent
from tests.support import REPO
from tests.support.long_document import write_long_pdf
from tests.support.openai_server import run_openai_server

SAMPLES = REPO / "resources" / "samples"


@pytest.fixture
def server():
    with run_openai_server() as srv:
        srv.reply = "The document surveys regions [1] and their rivers [2]."
        yield srv


def _engine(home: Path, server, **changes) -> Engine:
    values = dict(embedding_model="hash:64", llm_base_url=server.base_url, llm_model="fake-model",
                  translate_queries=False)
    values.update(changes)
    return Engine(resolve_paths(home), Settings(**values))


def _requests(server) -> list[list[dict]]:
    return [r.body["messages"] for r in server.chat_requests()]


def test_each_bundled_sample_is_summarised_in_one_request(tmp_path, server):
    engine = _engine(tmp_path / "home", server)
    engine.index([SAMPLES])
    for n, sample in enumerate(sorted(SAMPLES.iterdir()), 1):
        plan = engine.summary_plan(sample)
        assert (plan.mode, plan.requests) == ("whole", 1)
        events = list(engine.summarise(sample))
        assert len(server.chat_requests()) == n  # exactly one more request
        assert not any(isinstance(e, SummaryStep) for e in events)  # one request: no progress steps
        sources = next(e for e in events if isinstance(e, SourcesEvent))
        done = events[-1]
        assert isinstance(done, DoneEvent) and done.mode == "llm" and not done.cached
        assert sources.prompt.messages == tuple((m["role"], m["content"]) for m in _requests(server)[-1])
        assert done.cited == sources.hits[:2] if len(sources.hits) > 1 else done.cited == sources.hits[:1]
        language = "Chinese" if re.search(r"[\u4e00-\u9fff]", sample.name) else "English"
        assert f"Write in {language}" in _requests(server)[-1][0]["content"]
        text = sample.read_text("utf-8")
        assert text.split()[1] in _requests(server)[-1][1]["content"]  # the document itself is in the request
    assert engine.summary_plan(SAMPLES / "绿茶冲泡指南.md", language="en").language == "en"  # on request
    list(engine.summarise(SAMPLES / "绿茶冲泡指南.md", language="en"))
    assert "Write in English" in _requests(server)[-1][0]["content"]
    events = list(engine.summarise(SAMPLES / "getting-started.md"))  # again: the stored summary, no request
    assert events[-1].cached and len(server.chat_requests()) == 5
    engine.close()


def test_a_50_page_pdf_is_summarised_by_map_reduce_and_an_edit_redoes_only_what_changed(tmp_path, server):
    report = write_long_pdf(tmp_path / "docs" / "report.pdf")
    engine = _engine(tmp_path / "home", server)
    engine.index([tmp_path / "docs"])
    plan = engine.summary_plan(report)
    assert plan.mode == "map-reduce" and plan.tokens > 25_000 and plan.sections >= 5
    assert plan.requests == plan.sections + 1
    events = list(engine.summarise(report))
    requests = _requests(server)
    assert len(requests) == plan.requests
    steps = [e for e in events if isinstance(e, SummaryStep)]
    assert [(s.done, s.total) for s in steps] == [(i, plan.requests) for i in range(plan.requests)]
    kinds = [type(e) for e in events]
    assert kinds.index(SourcesEvent) == len(steps)  # the steps, then the sources, the tokens, the end
    assert kinds[-1] is DoneEvent and TokenEvent in kinds
    sources = events[len(steps)].hits
    assert len(sources) == plan.sections
    page_order = [int(m) for h in sources for m in re.findall(r"Section (\d+):", h.text)]
    assert page_order == list(range(1, 51))  # the sections cover the document in reading order, once
    for n, messages in enumerate(requests[:-1], 1):  # map: one section each, in order, no other section
        pages = [int(m) for m in re.findall(r"Section (\d+):", messages[1]["content"])]
        assert pages == [int(m) for m in re.findall(r"Section (\d+):", sources[n - 1].text)]
        assert f"section [{n}] of {plan.sections}" in messages[0]["content"]
    reduce = requests[-1][1]["content"]
    assert all(f"[{n}] report.pdf" in reduce for n in range(1, plan.sections + 1))
    assert "Section 1:" not in reduce  # the reduce sees the section summaries, not the text
    assert events[-1].cited == sources[:2]
    prompt = events[len(steps)].prompt  # "What was sent": the section requests, then the summary's, as received
    assert [e.purpose for e in prompt.earlier] == ["section"] * plan.sections
    assert prompt.passages_before == prompt.passages_after == plan.tokens  # the text went whole, section by section
    assert [[{"role": r, "content": c} for r, c in e.messages] for e in prompt.earlier] == requests[:-1]
    assert [{"role": r, "content": c} for r, c in prompt.messages] == requests[-1]

    replayed = list(engine.summarise(report))
    assert replayed[-1].cached and len(server.chat_requests()) == plan.requests  # stored
    assert next(e for e in replayed if isinstance(e, SourcesEvent)).prompt == prompt  # what was sent then
    write_long_pdf(report, edited=(40,))  # one page edited: its section (or two, if a cut moved) is asked again
    engine.index([tmp_path / "docs"])
    again = engine.summary_plan(report)
    assert 2 <= again.requests <= 3
    before = len(server.chat_requests())
    list(engine.summarise(report))
    assert len(server.chat_requests()) - before == again.requests
    engine.close()


def test_a_smaller_budget_turns_a_sample_into_map_reduce(tmp_path, server):
    engine = _engine(tmp_path / "home", server, summary_budget_tokens=1000, chunk_size=300)
    engine.index([SAMPLES / "getting-started.md"])
    plan = engine.summary_plan(SAMPLES / "getting-started.md")
    assert plan.mode == "map-reduce" and plan.requests == plan.sections + 1 >= 3
    list(engine.summarise(SAMPLES / "getting-started.md"))
    assert len(server.chat_requests()) == plan.requests
    engine.close()


def test_a_file_the_library_lacks_is_a_usage_error_before_any_event(tmp_path, server):
    engine = _engine(tmp_path / "home", server)
    engine.index([SAMPLES / "getting-started.md"])
    for path in (SAMPLES / "coffee-brewing-guide.txt", tmp_path / "nowhere.md", SAMPLES):
        with pytest.raises(UsageError, match="is not a file of the library"):
            engine.summary_plan(path)
        with pytest.raises(UsageError, match="is not a file of the library"):
            next(engine.summarise(path))
    assert server.chat_requests() == []
    engine.close()


def test_cancel_stops_a_map_reduce_summary_at_once_and_closes_the_request(tmp_path, server):
    import threading
    import time

    report = write_long_pdf(tmp_path / "docs" / "report.pdf")
    engine = _engine(tmp_path / "home", server)
    engine.index([tmp_path / "docs"])
    server.hang_if = lambda body: len(server.chat_requests()) >= 2  # the second map request never answers
    cancel = threading.Event()
    events, stopped_at = [], []
    for event in engine.summarise(report, cancel=cancel):
        events.append(event)
        if isinstance(event, SummaryStep) and event.done == 1:
            threading.Timer(0.3, cancel.set).start()
            started = time.perf_counter()
    stopped_at.append((time.perf_counter() - started) * 1000)
    assert isinstance(events[-1], DoneEvent) and events[-1].answer == "" and events[-1].notice == STOPPED
    assert stopped_at[0] < 300 + 1500  # the cancel, then at most the client's poll
    assert server.chat_requests()[-1].client_gone.wait(5) and len(server.chat_requests()) == 2
    server.release()
    engine.close()


def test_regenerate_writes_a_stored_summary_anew(tmp_path, server):
    engine = _engine(tmp_path / "home", server)
    guide = SAMPLES / "getting-started.md"
    engine.index([guide])
    list(engine.summarise(guide))
    assert list(engine.summarise(guide))[-1].cached and len(server.chat_requests()) == 1
    server.reply = "A second summary [1]."
    fresh = list(engine.summarise(guide, refresh=True))
    assert not fresh[-1].cached and fresh[-1].answer == "A second summary [1]." and len(server.chat_requests()) == 2
    assert list(engine.summarise(guide))[-1].answer == "A second summary [1]."  # it replaced the stored one
    server.reply = "A third summary [1]."
    asked = list(engine.ask("Summarise getting-started", refresh=True))  # Regenerate on a summary question
    assert asked[-1].answer == "A third summary [1]." and len(server.chat_requests()) == 3
    engine.close()


def test_a_summary_question_has_its_plan_before_it_is_asked(tmp_path, server):
    engine = _engine(tmp_path / "home", server, summary_budget_tokens=1000, chunk_size=300)
    engine.index([SAMPLES])
    plan = engine.summary_question_plan("summarise getting-started")
    assert plan == engine.summary_plan(SAMPLES / "getting-started.md", "en") and plan.requests >= 3
    assert engine.summary_question_plan("总结一下 getting-started").language == "zh"
    assert engine.summary_question_plan("How do I start?") is None
    assert engine.summary_question_plan("summarise this document",
                                        files=(str(SAMPLES / "getting-started.md"),)).path == plan.path
    assert server.chat_requests() == []
    engine.close()


def test_the_plan_says_how_long_at_the_models_recent_speed(tmp_path):
    timings = []
    for delay in (0.002, 0.02):  # a fast model, then a slow one (another endpoint: its own history)
        with run_openai_server() as server:
            server.tokens = [f"word{i} " for i in range(40)]
            server.token_delay = delay
            engine = _engine(tmp_path / f"home{delay}", server, summary_budget_tokens=1000, chunk_size=300)
            engine.index([SAMPLES])
            guide = SAMPLES / "getting-started.md"
            assert engine.summary_plan(guide).seconds is None  # nothing known before the model has answered
            list(engine.summarise(SAMPLES / "coffee-brewing-guide.txt"))
            plan = engine.summary_plan(guide)
            assert plan.requests >= 3 and plan.seconds > 0
            timings.append(plan.seconds)
            engine.close()
    assert timings[1] > 2 * timings[0]


def test_thinking_the_chat_template_opened_is_not_the_summary_streamed_or_stored(tmp_path, server):
    """The summary's own (streamed) request kept "reasoning…</think>" in the finished summary; one stored so
    replayed it."""
    engine = _engine(tmp_path / "home", server)
    guide = SAMPLES / "getting-started.md"
    engine.index([guide])
    server.reply = "Okay, section [1] first.\n</think>\n\nThe guide explains setup [1]."
    assert list(engine.summarise(guide))[-1].answer == "The guide explains setup [1]."
    with engine.store.transaction() as db:  # as an earlier version kept it
        (stored,) = db.execute("SELECT text FROM summary_cache").fetchone()
        db.execute("UPDATE summary_cache SET text = ?", (stored.replace('"The guide', '"Hmm.\\n</think>\\nThe guide'),))
    replayed = list(engine.summarise(guide))
    assert replayed[-1].cached and replayed[-1].answer == "The guide explains setup [1]."
    assert [e.text for e in replayed if isinstance(e, TokenEvent)] == ["The guide explains setup [1]."]
    engine.close()


@pytest.mark.parametrize("language, says", [
    ("en", "The model stopped at its limit of 2,048 tokens for one reply, so the summary may be incomplete. "
           "Raise the reply limit (`max_reply_tokens` in settings.json, or `DESKTOP_RAG_MAX_REPLY_TOKENS`) and "
           "summarise again"),
    ("zh", "模型在单次回复 2,048 个 token 的上限处停止，摘要可能不完整。请调高回复上限"),
])
def test_a_summary_the_server_cut_at_its_own_limit_is_said_in_either_language(tmp_path, server, language, says):
    """The summary's own (streamed) request stopped at max_tokens: said so, coded (in the language it is shown in),
    as a summary's (it said "the answer may be incomplete", and a narrower question is no way out of a summary)."""
    guide = SAMPLES / "getting-started.md"
    engine = _engine(tmp_path / "home", server)
    engine.index([guide])
    server.finish_reason = "length"
    done = list(engine.summarise(guide, language=language))[-1]
    assert isinstance(done, DoneEvent) and says in done.notice.text(language), done.notice.text(language)
    assert done.notice.code == "llm_token_limit_summary" and done.ending.reason.code == "llm_token_limit_summary"
    assert "narrower question" not in done.notice.text("en") and "问得更具体" not in done.notice.text("zh")
    assert done.answer.startswith("The document surveys regions [1]")
    engine.close()



def _cut_summary(tmp_path, server, code: str, words: dict[tuple[str, str], str]) -> DoneEvent:
    """The guide's summary, cut as `server` cuts it: said with `code`, kept as its ending, each of `words` (language
    and front: a text of it) in it, none an answer's ("narrower question"; "回答"). Returned."""
    guide, first = SAMPLES / "getting-started.md", SAMPLES / "coffee-brewing-guide.txt"
    engine = _engine(tmp_path / "home", server)
    engine.index([guide, first])
    if code == "cut_thinking_summary":  # a model known to think (a lone </think>), cut past the characters taken
        list(engine.summarise(first))
        server.reply = "Weighing the sections. " * 1200
    done = list(engine.summarise(guide))[-1]
    engine.close()
    assert isinstance(done, DoneEvent) and done.notice.code == done.ending.reason.code == code, done.notice
    for (language, front), says in words.items():
        assert says in done.notice.text(language, front), done.notice.text(language, front)
        assert "narrower question" not in done.notice.text("en", front)
        assert "回答" not in done.notice.text("zh", front) and "问得更具体" not in done.notice.text("zh", front)
    return done


def test_a_summary_cut_inside_its_thinking_says_no_summary_was_written(tmp_path, server):
    """Cut at max_tokens inside its <think> block: it said "wrote no answer … or ask a narrower question"."""
    server.tokens, server.finish_reason = ["<think>Weighing the sections at length. "], "length"
    done = _cut_summary(tmp_path, server, "llm_token_limit_thinking_summary", {
        ("en", CLI): "reasoning and wrote no summary. Raise the reply limit (`max_reply_tokens` in settings.json, or "
                     "`DESKTOP_RAG_MAX_REPLY_TOKENS`) and summarise again.",
        ("zh", CLI): "没有写出摘要。请调高回复上限（settings.json 中的 `max_reply_tokens`",
        ("en", WINDOW): "wrote no summary. Raise “Reply limit (tokens)” in Settings → Language model and summarise "
                        "again.",
        ("zh", WINDOW): "没有写出摘要。请在“设置 → 语言模型”中调高“单次回复上限（token）”后重新总结。"})
    assert done.answer == ""


def test_a_summary_cut_at_the_characters_taken_of_a_reply_says_the_summary_may_be_incomplete(tmp_path, server):
    """A server past max_tokens, cut at the client's cap on characters: it said "The answer was stopped … Ask a
    narrower question"."""
    server.reply = "The document surveys regions [1]. " * 800
    done = _cut_summary(tmp_path, server, "llm_length_summary", {
        ("en", CLI): "The summary was stopped at 24,000 characters, the limit for one reply, so it may be incomplete.",
        ("zh", CLI): "摘要在 24,000 个字符处停止（单次回复的上限），可能不完整。",
        ("en", WINDOW): "The summary was stopped", ("zh", WINDOW): "摘要在 24,000 个字符处停止"})
    assert done.answer.startswith("The document surveys regions [1]")


def test_a_thinking_summary_cut_at_the_characters_taken_before_its_thinking_ended_says_no_summary(tmp_path, server):
    """A model known to think (its lone </think> seen) cut at the cap on characters before its </think>: it said
    "so it wrote no answer. Ask again, or ask a narrower question"."""
    server.reply = "Weighing the sections.\n</think>\n\nThe document surveys regions [1]."
    done = _cut_summary(tmp_path, server, "cut_thinking_summary", {
        ("en", CLI): "before the model finished thinking, so it wrote no summary. Summarise again.",
        ("zh", CLI): "没有写出摘要。请重新总结。", ("en", WINDOW): "wrote no summary", ("zh", WINDOW): "没有写出摘要"})
    assert done.answer == ""


def test_a_summary_the_model_wrote_nothing_of_says_so_and_is_not_kept(tmp_path, server):
    """The summary's whole reply held no text: it ended with no notice and no ending (an empty bubble, a question
    alone once reopened); now it says so, coded, and ends "empty"."""
    guide = SAMPLES / "getting-started.md"
    engine = _engine(tmp_path / "home", server)
    engine.index([guide])
    server.tokens = []
    done = list(engine.summarise(guide, language="en"))[-1]
    assert isinstance(done, DoneEvent) and done.answer == "" and done.ending.state == "empty"
    assert done.notice.text("zh").startswith("模型返回了空的回答")
    server.tokens = None
    assert not list(engine.summarise(guide, language="en"))[-1].cached  # nothing was kept
    engine.close()
