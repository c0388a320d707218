"""A hostile or broken model server cannot hold an answer: Stop works at once, length and time are bounded."""

from __future__ import annotations

import threading
import time

import openai  # noqa: F401 - imported up front so the request is on the wire well before Stop
import pytest

from desktop_rag.config import Settings
from desktop_rag.engine.answer.answering import Answerer
from desktop_rag.engine.answer.events import STOPPED
from desktop_rag.engine.answer.llm import LLMClient
from desktop_rag.engine.answer.llm_errors import LLMError
from desktop_rag.engine.answer.llm_config import LLMConfig
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent
from desktop_rag.engine.store.values import ChatTurn, Hit
from tests.support.openai_server import FakeOpenAIServer

KEY = "sk-test-SECRET1234567890abcdefXYZ"
MESSAGES = [{"role": "user", "content": "hi"}]
STOP_AT_S = 1.0
PROMPT_S = 0.5  # Stop must take effect within this
HITS = [Hit(chunk_id=1, score=1.0, path="/docs/leave.md", page=None, heading="", text="Staff get 25 days of leave.")]


def config(server: FakeOpenAIServer, **changes) -> LLMConfig:
    # A long per-read timeout, as with the default: Stop must not depend on it.
    values = dict(base_url=server.base_url, model="fake-model", api_key=KEY, timeout_s=8.0, max_retries=0)
    values.update(changes)
    return LLMConfig(**values)


class StopLater:
    """Sets a cancel event after a delay and remembers when."""

    def __init__(self, delay: float) -> None:
        self.event = threading.Event()
        self.at: float | None = None
        self._timer = threading.Timer(delay, self._fire)
        self._timer.start()

    def _fire(self) -> None:
        self.at = time.monotonic()
        self.event.set()

    def lag(self) -> float:
        """Seconds from the cancel to now."""
        assert self.at is not None, "the iterator ended before Stop was pressed"
        return time.monotonic() - self.at


@pytest.mark.parametrize("mode", ["no_headers", "headers_then_nothing"])
def test_stop_reaches_a_server_that_sends_nothing(model_server, mode):
    if mode == "no_headers":
        model_server.hang = True  # accepts the request, never answers
    else:
        model_server.silent_after_headers = True  # 200 + headers, then silence
    stop = StopLater(STOP_AT_S)
    pieces = list(LLMClient(config(model_server)).stream(MESSAGES, stop.event))
    lag = stop.lag()
    assert pieces == []
    assert lag < PROMPT_S, f"Stop took effect {lag:.2f} s after it was pressed"
    (request,) = model_server.chat_requests()
    assert request.client_gone.wait(2), "the connection to the silent server was not closed"


def test_stop_ends_the_answer_events_promptly(model_server):
    model_server.silent_after_headers = True
    answerer = Answerer(Settings(top_k=3), lambda q, k: list(HITS), LLMClient(config(model_server)))
    stop = StopLater(STOP_AT_S)
    events = list(answerer.answer("How much leave?", cancel=stop.event))
    lag = stop.lag()
    assert lag < PROMPT_S, f"the answer ended {lag:.2f} s after Stop"
    assert isinstance(events[0], SourcesEvent)
    assert isinstance(events[-1], DoneEvent) and events[-1].notice == STOPPED


def test_follow_up_rewrite_honours_stop(model_server):
    model_server.hang_if = lambda body: not body.get("stream")  # only the rewrite call hangs
    answerer = Answerer(Settings(top_k=3), lambda q, k: list(HITS), LLMClient(config(model_server)))
    history = [ChatTurn("user", "What is the leave policy?"), ChatTurn("assistant", "25 days [1].")]
    stop = StopLater(STOP_AT_S)
    events = list(answerer.answer("And for part-time staff?", history, stop.event))
    lag = stop.lag()
    assert lag < PROMPT_S, f"the rewrite held the answer {lag:.2f} s after Stop"
    assert isinstance(events[-1], DoneEvent) and events[-1].notice == STOPPED
    assert [r.body.get("stream") for r in model_server.chat_requests()] == [None]  # no answer call after Stop
    assert model_server.chat_requests()[0].client_gone.wait(2)


def test_endless_stream_stops_at_the_length_cap(model_server):
    model_server.endless = True  # ignores max_tokens and never finishes
    watchdog = threading.Timer(15, model_server.release)  # without a cap the test ends here, failing
    watchdog.start()
    try:
        cfg = config(model_server)
        answerer = Answerer(Settings(top_k=3), lambda q, k: list(HITS), LLMClient(cfg))
        started = time.monotonic()
        events = list(answerer.answer("Tell me everything."))
        seconds = time.monotonic() - started
    finally:
        watchdog.cancel()
    done = events[-1]
    assert isinstance(done, DoneEvent), done
    assert 0 < len(done.answer) <= cfg.max_answer_chars
    assert "limit" in str(done.notice)  # coded (a Reason): said in the language it is shown in
    assert seconds < 10
    (request,) = model_server.chat_requests()
    assert request.body["max_tokens"] == cfg.max_tokens  # the length is asked for, not only enforced
    assert request.client_gone.wait(2)


def test_every_call_has_an_overall_deadline(model_server):
    model_server.endless = True
    model_server.token_delay = 0.05  # a trickle: each read is quick, the whole never ends
    client = LLMClient(config(model_server, deadline_s=1.5))
    started = time.monotonic()
    with pytest.raises(LLMError) as info:
        for _ in client.stream(MESSAGES):
            pass
    assert time.monotonic() - started < 1.5 + PROMPT_S
    assert info.value.kind == "cut" and info.value.partial.startswith(" more")
    assert "1.5 s" in str(info.value)

    model_server.endless = False
    model_server.hang = True  # and a reply that never starts
    started = time.monotonic()
    with pytest.raises(LLMError) as info:
        client.complete(MESSAGES)
    assert time.monotonic() - started < 1.5 + PROMPT_S
    assert info.value.kind == "deadline" and "took longer than 1.5 s" in str(info.value)


def test_the_deadline_follows_the_reply_limit_and_a_side_request_keeps_its_own(model_server, monkeypatch):
    """A slow local thinking model given a large reply limit gets the time to write it (it was cut at a fixed 300 s,
    told to ask a narrower question): the larger of MIN_DEADLINE_S and the limit at SLOW_TOKENS_PER_S, both shrunk
    here so the test takes seconds. Past it the notice says how long it took; a side request asking for fewer
    tokens (a rewrite, a translation) keeps the deadline of its own tokens."""
    from desktop_rag.engine.answer import llm_config

    monkeypatch.setattr(llm_config, "MIN_DEADLINE_S", 0.5)
    monkeypatch.setattr(llm_config, "SLOW_TOKENS_PER_S", 200.0)
    settings = Settings(llm_base_url=model_server.base_url, llm_model="fake-model", max_reply_tokens=400)
    cfg = llm_config.resolve_llm_config(settings, env={})
    assert cfg is not None and cfg.deadline_s == llm_config.reply_deadline(400) == 2.0
    client = LLMClient(cfg)

    model_server.reply = " ".join(f"w{i}" for i in range(10))
    model_server.token_delay = 0.1  # 1 s: past the least deadline, within the reply limit's
    assert "".join(client.stream(MESSAGES)).split() == model_server.reply.split()

    model_server.endless = True  # a trickle without end: cut at the reply limit's deadline
    started = time.monotonic()
    with pytest.raises(LLMError) as info:
        for _ in client.stream(MESSAGES):
            pass
    assert 2.0 <= time.monotonic() - started < 2.0 + PROMPT_S
    assert info.value.kind == "cut" and "took longer than 2 s" in str(info.value)
    assert "narrower" not in str(info.value) and info.value.partial.startswith(" more")

    model_server.endless, model_server.hang = False, True  # a side request of 40 tokens: its own 0.5 s
    started = time.monotonic()
    with pytest.raises(LLMError) as info:
        client.complete(MESSAGES, max_tokens=40)
    assert time.monotonic() - started < 0.5 + PROMPT_S
    assert info.value.kind == "deadline" and "took longer than 0.5 s" in str(info.value)


def test_the_length_limit_is_still_sent_to_models_that_refuse_max_tokens(model_server):
    model_server.fail_next(400, message="Unsupported parameter: 'max_tokens' is not supported with this model. "
                                        "Use 'max_completion_tokens' instead.")
    model_server.reply = "fine"
    cfg = config(model_server)
    assert "".join(LLMClient(cfg).stream(MESSAGES)) == "fine"
    first, second = model_server.chat_requests()
    assert first.body["max_tokens"] == cfg.max_tokens
    assert second.body["max_completion_tokens"] == cfg.max_tokens and "max_tokens" not in second.body
