"""While a model thinks in a `<think>` block (not shown), the answer says so, with how much it has thought: a slow
local model thought for a minute behind "Waiting for the model…" and nothing told that it worked. Through the real
local OpenAI-protocol server."""

from __future__ import annotations

import time

import pytest

from desktop_rag.config import Settings
from desktop_rag.engine.answer.answering import Answerer
from desktop_rag.engine.answer.events import THINKING_EVERY_S, DoneEvent, ThinkingEvent, TokenEvent
from desktop_rag.engine.answer.llm import LLMClient
from desktop_rag.engine.answer.llm_config import LLMConfig
from desktop_rag.engine.store.values import Hit
from tests.support.openai_server import run_openai_server

HITS = [Hit(chunk_id=1, score=1.0, path="/docs/leave.md", page=None, heading="", text="Employees get 25 days.")]
THOUGHTS = [f"step {n} of the reasoning. " for n in range(24)]  # 24 pieces of 25 characters
BLOCK = ["<think>", *THOUGHTS, "</think>", "\n\n", "You get ", "25 days [1]."]


@pytest.fixture
def server():
    with run_openai_server() as srv:
        yield srv


def _answer(server) -> tuple[list, float]:
    config = LLMConfig(base_url=server.base_url, model="fake-model", api_key="sk-test", max_retries=0)
    started = time.monotonic()
    events = list(Answerer(Settings(), lambda query, k: HITS[:k], LLMClient(config)).answer("Leave?"))
    return events, time.monotonic() - started


def test_a_think_block_is_counted_as_it_streams_a_few_times_a_second(server):
    server.tokens, server.token_delay = BLOCK, 0.05
    events, seconds = _answer(server)
    counts = [e.chars for e in events if isinstance(e, ThinkingEvent)]
    first_token = next(i for i, e in enumerate(events) if isinstance(e, TokenEvent))
    assert all(not isinstance(e, ThinkingEvent) for e in events[first_token:])  # thinking comes before the answer
    assert len(counts) >= 3 and counts == sorted(set(counts)), counts  # it grows
    assert 0 < counts[0] <= 25 and counts[-1] <= 24 * 25, counts  # the first piece told at once; never the tags
    assert len(counts) <= seconds / THINKING_EVERY_S + 1, (counts, seconds)  # a few a second at most
    assert isinstance(events[-1], DoneEvent) and events[-1].answer == "You get 25 days [1]."
    assert "".join(e.text for e in events if isinstance(e, TokenEvent)) == "You get 25 days [1]."


def test_an_answer_without_a_think_block_tells_no_thinking(server):
    server.tokens = ["You get ", "25 days [1]."]
    events, _seconds = _answer(server)
    assert not any(isinstance(e, ThinkingEvent) for e in events) and events[-1].answer == "You get 25 days [1]."
