"""A summary's cost has a limit (issue 49 item 3): one that needs more model requests than
`Settings.summary_request_limit` runs only when confirmed (`confirm_cost`), for `summarise` and for a summary
question through `ask`; refused, it says its cost and sends nothing. A read-only engine (the MCP server's) keeps
section and document summaries in memory, so a second summary in the same process sends nothing again. Against the
local chat server, counting its requests."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import Settings, load_settings, resolve_paths
from desktop_rag.engine import error_text
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.answer.events import DoneEvent
from tests.support.summary_cost import SUMMARY_LIMIT, library, server  # noqa: F401 - fixtures used by name


def _engine(home: Path, server, read_only: bool = False, **changes) -> Engine:
    values = dict(embedding_model="hash:64", llm_base_url=server.base_url, llm_model="fake-model",
                  translate_queries=False, summary_request_limit=SUMMARY_LIMIT)
    values.update(changes)
    return Engine(resolve_paths(home), Settings(**values), read_only=read_only)


def test_a_summary_over_the_limit_runs_only_when_confirmed(library, server) -> None:
    home, report = library
    engine = _engine(home, server)
    try:
        plan = engine.summary_plan(report)
        assert plan.mode == "map-reduce" and plan.requests > SUMMARY_LIMIT
        for refused in (lambda: list(engine.summarise(report)), lambda: list(engine.ask("Summarise report.pdf"))):
            with pytest.raises(UsageError) as caught:
                refused()
            assert caught.value.code == "summary_over_limit" and server.chat_requests() == []  # nothing was sent
        said = str(caught.value)
        assert f"takes {plan.requests} requests" in said and f"{plan.sections} sections" in said
        assert f"{plan.tokens:,} tokens" in said and f"more than the {SUMMARY_LIMIT}" in said
        assert error_text(caught.value, "zh").startswith(f"总结“report.pdf”需要向模型发送 {plan.requests} 次请求")
        conversation = engine.new_conversation()  # in a conversation: not a turn until the person says yes
        with pytest.raises(UsageError):
            list(engine.ask("Summarise report.pdf", conversation))
        assert engine.messages(conversation) == []
        events = list(engine.ask("Summarise report.pdf", confirm_cost=True))
        assert isinstance(events[-1], DoneEvent) and len(server.chat_requests()) == plan.requests
        assert engine.summary_plan(report).requests == 0  # stored: a summary again needs no confirmation
        assert isinstance(list(engine.summarise(report))[-1], DoneEvent)
        assert len(server.chat_requests()) == plan.requests
    finally:
        engine.close()


def test_a_summary_within_the_limit_needs_no_confirmation(library, server) -> None:
    home, report = library
    engine = _engine(home, server, summary_request_limit=100)
    try:
        requests = engine.summary_plan(report).requests
        assert isinstance(list(engine.summarise(report))[-1], DoneEvent)
        assert len(server.chat_requests()) == requests
    finally:
        engine.close()


def test_a_read_only_engine_reuses_its_summaries_in_memory(library, server) -> None:
    home, report = library
    engine = _engine(home, server, read_only=True)
    try:
        requests = engine.summary_plan(report).requests
        first = list(engine.summarise(report, confirm_cost=True))
        assert len(server.chat_requests()) == requests and not first[-1].cached
        assert engine.summary_plan(report).requests == 0  # the plan sees what this process keeps
        second = list(engine.ask("Summarise report.pdf"))  # no confirmation needed: nothing to send
        assert len(server.chat_requests()) == requests and second[-1].cached
        assert second[-1].answer == first[-1].answer
        chinese = list(engine.summarise(report, "zh", confirm_cost=True))  # another language: asked anew
        assert isinstance(chinese[-1], DoneEvent) and len(server.chat_requests()) == 2 * requests
    finally:
        engine.close()
    writable = _engine(home, server)
    try:
        assert writable.summary_plan(report).requests == requests  # nothing was written to the library
    finally:
        writable.close()


def test_the_limit_is_a_setting_with_a_default_of_twenty(tmp_path: Path, monkeypatch) -> None:
    assert Settings().summary_request_limit == 20
    monkeypatch.setenv("DESKTOP_RAG_SUMMARY_REQUEST_LIMIT", "25")
    assert load_settings(resolve_paths(tmp_path)).summary_request_limit == 25
    monkeypatch.setenv("DESKTOP_RAG_SUMMARY_REQUEST_LIMIT", "0")  # below 1: the default stands
    assert load_settings(resolve_paths(tmp_path)).summary_request_limit == 20
