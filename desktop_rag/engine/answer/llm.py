"""OpenAI-compatible chat client: streaming, retries and limits (the model it calls: `llm_config`; its failures as
user-readable errors: `llm_errors`)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from desktop_rag.engine.answer.llm_config import LLMConfig, plain_http_warning
from desktop_rag.engine.answer.llm_errors import (LLMError, amend, cut_error, length_error, map_error, scrub,
                                                  token_limit_error)
from desktop_rag.engine.answer.llm_http import Exchange, abortable_http_client, iterate
from desktop_rag.engine.answer.llm_reply import completion_piece, streamed_pieces
from desktop_rag.engine.answer.reasoning import ThinkFilter, without_thinking
from desktop_rag.engine.endpoint import address_notice, key_problem
from desktop_rag.engine.messages import message

log = logging.getLogger(__name__)

_WARNED_HOSTS: set[str] = set()


@dataclass(frozen=True)
class _Deadline:
    """When one call (retries included) must end: `seconds` after it started."""

    seconds: float
    started: float = field(default_factory=time.monotonic)

    @property
    def at(self) -> float:
        return self.started + self.seconds


class LLMClient:
    """Calls one OpenAI-compatible endpoint; retries transient failures before any output.

    Every call runs on a daemon thread (see `llm_http`), so cancel takes effect within
    `llm_http.POLL_S` whatever the server does, and the connection is shut down at once.
    Every call is bounded: `max_tokens` is sent, at most `max_answer_chars` are accepted, and
    it ends by `deadline_s` (retries included; a side request asking for fewer tokens: `LLMConfig.deadline_for`).
    """

    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self._token_param = "max_tokens"
        self._client: Any = None
        self._lock = threading.Lock()
        warnings = [w for w in (plain_http_warning(config),
                                address_notice(config.base_url, config.language, config.userinfo_dropped)) if w]
        if warnings and config.host not in _WARNED_HOSTS:
            _WARNED_HOSTS.add(config.host)
            for warning in warnings:
                log.warning("%s", warning)

    def __repr__(self) -> str:
        return f"LLMClient({self.config!r})"

    def _sdk(self) -> Any:
        """The SDK client, made once on the first request's thread (importing the SDK takes a while, and
        cancel must not wait for it); its connections can be shut down by a cancel, see llm_http."""
        if not self.config.api_key and not self.config.is_local:
            raise LLMError.coded("llm_no_key", "no_key", host=self.config.host)
        problem = key_problem(self.config.api_key, self.config.language)
        if problem:  # a local mistake, said before any request (the HTTP library would fail on the header)
            raise LLMError("bad_key", problem)
        with self._lock:
            if self._client is None:
                import openai

                self._client = openai.OpenAI(
                    api_key=self.config.api_key or "not-needed",
                    base_url=self.config.base_url,
                    timeout=self.config.timeout_s,
                    max_retries=0,
                    http_client=abortable_http_client(self.config.timeout_s),
                )
            return self._client

    def _backoff(self, attempt: int, cancel: threading.Event | None, deadline: _Deadline, wait: float = 0.0) -> bool:
        """Sleep before retry `attempt` (0-based), at least `wait` s; False if cancelled meanwhile or out of time."""
        cfg = self.config
        delay = max(wait, min(cfg.retry_max_delay_s, cfg.retry_base_delay_s * (2**attempt)))
        if time.monotonic() + delay >= deadline.at:
            return False
        if cancel is not None:
            return not cancel.wait(delay)
        time.sleep(delay)
        return True

    def _as_error(self, exc: Exception) -> LLMError:
        return exc if isinstance(exc, LLMError) else map_error(exc, self.config)

    def _next_attempt(self, failure: LLMError, attempt: int, cancel: threading.Event | None,
                      deadline: _Deadline) -> int | None:
        """After a failed attempt (the one retry rule of `stream` and `complete`): the attempt to make next
        (the token parameter switched, or a retryable error waited out), None when cancelled while waiting;
        raises `failure` when it is final."""
        if self._switch_token_param(failure):
            return attempt
        if (failure.retry_after or 0.0) > self.config.retry_max_delay_s or not self._should_retry(failure, attempt):
            raise self._final(failure, attempt, deadline)  # (a server asking to wait longer is told at once)
        if not self._backoff(attempt, cancel, deadline, failure.retry_after or 0.0):
            if cancelled(cancel):
                return None
            raise self._final(failure, attempt, deadline)
        return attempt + 1

    def _final(self, failure: LLMError, attempt: int, deadline: _Deadline) -> LLMError:
        """The failure to raise after `attempt` (0-based): a timeout after retries says the tries and the time
        they took in all, not only one try's limit."""
        if failure.kind != "timeout" or attempt == 0:
            return failure
        waited = time.monotonic() - deadline.started
        return amend(LLMError.coded("llm_timeout_tries", "timeout", host=self.config.host, tries=attempt + 1,
                                    seconds=f"{self.config.timeout_s:g}",
                                    waited=f"{waited:.0f}" if waited >= 10 else f"{waited:.1f}"),
                     status=failure.status)

    def _should_retry(self, err: LLMError, attempt: int) -> bool:
        retry = err.retryable and attempt < self.config.max_retries
        if retry:
            log.warning("LLM request to %s failed (%s); retry %d of %d",
                        self.config.host, err.kind, attempt + 1, self.config.max_retries)
        else:
            log.info("LLM request to %s failed (%s)", self.config.host, err.kind)
        return retry

    def _switch_token_param(self, err: LLMError) -> bool:
        """Newer OpenAI models refuse `max_tokens` and ask for `max_completion_tokens`: switch once."""
        if err.kind == "bad_request" and self._token_param == "max_tokens" and "max_completion_tokens" in err.message:
            self._token_param = "max_completion_tokens"
            return True
        return False

    def _request(
        self, messages: Sequence[dict], *, max_tokens: int | None = None, temperature: float | None = None,
        stream: bool = False,
    ) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": self.config.model,
            "messages": list(messages),
            "temperature": self.config.temperature if temperature is None else temperature,
            self._token_param: max_tokens or self.config.max_tokens,
        }
        if stream:
            request["stream"] = True
        return request

    def _deadline_clock(self, deadline: _Deadline, received: list[str]) -> Any:
        """A callable: seconds left before `deadline`; raises the deadline error when none are."""
        def left() -> float:
            remaining = deadline.at - time.monotonic()
            if remaining > 0:
                return remaining
            limit = f"{deadline.seconds:g}"
            if received:
                raise amend(LLMError.coded("llm_cut_deadline", "cut", host=self.config.host, seconds=limit),
                            partial="".join(received))
            raise LLMError.coded("llm_deadline", "deadline", host=self.config.host, seconds=limit)
        return left

    def stream(self, messages: Sequence[dict], cancel: threading.Event | None = None,
               thinking: ThinkFilter | None = None) -> Iterator[str]:
        """Yield answer text pieces as they arrive; stop (closing the connection) once cancel is set.

        A `<think>` block opening the reply is not its answer (`reasoning.ThinkFilter`: pass one to know, once the
        stream ends, whether the reply ended inside it): a piece of it yields '' (the model is thinking:
        `thinking.thought_chars` says how much).

        Transient failures are retried only before the first piece; a failure after it raises
        LLMError(kind='cut') whose `.partial` holds the text received so far. Past
        `max_answer_chars` the text is cut there and LLMError(kind='length', partial=...) raised;
        past `deadline_s`, LLMError 'deadline' (or 'cut' once text has arrived).
        """
        parts: list[str] = []
        thinking = thinking or ThinkFilter()
        deadline = _Deadline(self.config.deadline_s)
        attempt = 0
        while True:
            try:
                yield from self._stream_once(messages, cancel, parts, deadline, thinking)
                if not cancelled(cancel):
                    self._observe(messages, "".join(parts), deadline.started)
                return
            except Exception as exc:  # noqa: BLE001 - mapped to a user-readable error
                failure = self._as_error(exc)
            if failure.kind in ("cut", "length", "deadline"):
                raise amend(failure, partial=failure.partial or "".join(parts)) from None
            if parts:
                raise cut_error(failure, "".join(parts)) from None
            attempt = self._next_attempt(failure, attempt, cancel, deadline)
            if attempt is None:
                return  # cancelled while waiting to retry

    def _observe(self, messages: Sequence[dict], reply: str, started: float) -> None:
        """The request's speed, for time estimates (`llm_speed`)."""
        from desktop_rag.engine.answer import llm_speed

        llm_speed.observe(self.config.base_url, self.config.model, sum(len(str(m["content"])) for m in messages),
                          len(reply), time.monotonic() - started)

    def _stream_once(
        self, messages: Sequence[dict], cancel: threading.Event | None, parts: list[str], deadline: _Deadline,
        thinking: ThinkFilter,
    ) -> Iterator[str]:
        if cancelled(cancel):
            return
        request = self._request(messages, stream=True)
        thinking.restart()  # each attempt's reply is read from its start

        def work(stopped: Any) -> Iterator[tuple[str, str | None]]:
            client = self._sdk()
            if stopped():
                return
            response = client.chat.completions.create(**request)
            try:
                yield from streamed_pieces(response)
            finally:
                response.close()

        def shown() -> Iterator[str]:
            """The reply's answer text: read here, on the thread that consumes it, so `thinking` is what was read."""
            finish = None
            for text, finished in iterate(Exchange(work, "llm-stream"), lambda: cancelled(cancel),
                                          self._deadline_clock(deadline, parts)):
                finish = finished or finish
                yield thinking.feed(text) if text else ""  # a reasoning model's <think> block is not the answer
            if cancelled(cancel):
                return
            yield thinking.finish()
            if finish == "length":  # the server stopped at max_tokens: the answer is not whole
                raise token_limit_error(request[self._token_param], thinking=not parts)

        received = sum(len(p) for p in parts)
        cap = self.config.max_answer_chars
        for text in shown():
            text = text[: cap - received]
            received += len(text)
            if text:
                parts.append(text)
                yield text
            elif thinking.thinking:
                yield ""  # a piece of the think block: the consumer may say that the model is thinking
            if received >= cap:
                raise length_error(cap, "".join(parts))

    def complete(
        self,
        messages: Sequence[dict],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        cancel: threading.Event | None = None,
        retry_timeout: bool = True,
    ) -> str:
        """One non-streaming completion, with retries; returns the reply text ('' if none or cancelled).

        Bounded like `stream`: `max_tokens` sent, the reply cut at `max_answer_chars`, `deadline_for(max_tokens)`; a
        reply the server stopped at `max_tokens` raises LLMError 'length' with its text as `partial`. Without
        `retry_timeout` a timeout is final: an extra the answer can do without (the question's rewrite or
        translation) never waits out a silent server's read timeout again before the answer's own request.
        """
        from desktop_rag.engine.answer import sent

        sent.note(messages, self.config.model)  # "What was sent" lists it when an answer is recording
        deadline = _Deadline(self.config.deadline_for(max_tokens))
        attempt = 0
        while True:
            try:
                reply = self._complete_once(messages, max_tokens, temperature, cancel, deadline)
                if not cancelled(cancel):
                    self._observe(messages, reply, deadline.started)
                return reply
            except Exception as exc:  # noqa: BLE001 - mapped to a user-readable error
                failure = self._as_error(exc)
            if failure.kind == "deadline" or (failure.kind == "timeout" and not retry_timeout):
                raise failure from None
            attempt = self._next_attempt(failure, attempt, cancel, deadline)
            if attempt is None:
                return ""  # cancelled while waiting to retry

    def _complete_once(
        self,
        messages: Sequence[dict],
        max_tokens: int | None,
        temperature: float | None,
        cancel: threading.Event | None,
        deadline: _Deadline,
    ) -> str:
        if cancelled(cancel):
            return ""
        request = self._request(messages, max_tokens=max_tokens, temperature=temperature)

        def work(stopped: Any) -> Iterator[str]:
            client = self._sdk()
            if stopped():
                return
            text, finish = completion_piece(client.chat.completions.create(**request))
            answer = without_thinking(text, self.config.thinking_chars)
            if finish == "length":  # the server stopped at max_tokens: the reply is not whole
                raise amend(token_limit_error(request[self._token_param], thinking=not answer.strip()),
                            partial=answer[: self.config.max_answer_chars])
            yield answer

        exchange = Exchange(work, "llm-complete")
        for text in iterate(exchange, lambda: cancelled(cancel), self._deadline_clock(deadline, [])):
            return text[: self.config.max_answer_chars]
        return ""


def cancelled(cancel: threading.Event | None) -> bool:
    """Whether the person stopped the request (an answer, a summary) `cancel` belongs to."""
    return cancel is not None and cancel.is_set()


def check_connection(config: LLMConfig) -> str:
    """Send a tiny request; return a short human result or raise LLMError (for Settings)."""
    started = time.monotonic()
    client = LLMClient(config)
    try:
        reply = client.complete(
            [{"role": "user", "content": "Reply with the single word OK."}], max_tokens=8, temperature=0.0
        )
    except LLMError as exc:
        if exc.kind != "length":  # 8 tokens spent (reasoning, or a longer reply): connected all the same
            raise
        reply = exc.partial
    seconds = time.monotonic() - started
    said = scrub(" ".join(reply.split())[:40], config.api_key)
    return message("note.connected" if said else "note.connected_empty", config.language, model=config.model,
                   host=config.host, seconds=f"{seconds:.1f}", said=said)
