"""OpenAI-compatible chat client: streaming, retries, limits and user-readable errors (the model it calls:
`llm_config`)."""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from desktop_rag.engine.answer.llm_config import LLMConfig, plain_http_warning
from desktop_rag.engine.endpoint import address_notice, key_problem
from desktop_rag.engine.answer.llm_http import Exchange, ReplyTooLarge, abortable_http_client, iterate
from desktop_rag.engine.answer.llm_reply import ReplyProblem, completion_piece, streamed_pieces
from desktop_rag.engine.answer.reasoning import ThinkFilter, without_thinking
from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.messages import Phrase, message
from desktop_rag.engine.system_errors import system_reason

log = logging.getLogger(__name__)

_MAX_DETAIL = 300
_MAX_QUOTE = 80  # of a reply that is not JSON, the part quoted
_MAX_BODY_READ = 4000  # of an error body that is not JSON, the part read for its words
_WARNED_HOSTS: set[str] = set()


class LLMError(DesktopRagError):
    """A model call failed; `kind` says how, the message says what to do.

    Kinds: no_key, bad_key (a key that cannot be sent: said in the interface's language), auth, unreachable,
    model_not_found, rate_limit, timeout, cut, bad_request, server, bad_reply (a 200 reply holding no answer),
    length (the answer hit `max_answer_chars`, or the server stopped it at `max_tokens`), deadline (the call
    outlived `deadline_s`).
    `partial` holds the text received before a stream was cut or stopped.
    """

    RETRYABLE = frozenset({"unreachable", "timeout", "rate_limit", "server"})

    def __init__(self, kind: str, message: str, *, partial: str = "", status: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.partial = partial
        self.status = status
        self.retry_after: float | None = None  # seconds the server asked to wait (a 429's Retry-After)

    @property
    def retryable(self) -> bool:
        return self.kind in self.RETRYABLE

    def __repr__(self) -> str:
        return f"LLMError(kind={self.kind!r}, message={self.message!r})"


# ---- scrubbing and error mapping ----

_SECRET_PATTERNS = (
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._\-~+/=]{6,}"),
    re.compile(r"\bsk-[A-Za-z0-9_\-]{12,}"),
)


def scrub(text: str, secret: str = "") -> str:
    """Remove the key (and anything that looks like a bearer token or sk- key) from text."""
    if secret and len(secret) >= 4:
        text = text.replace(secret, "***")
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub("***", text)
    return text


def _server_detail(exc: Exception, secret: str) -> str:
    """The server's own error message, scrubbed and shortened."""
    body = getattr(exc, "body", None)
    message = body.get("message") if isinstance(body, dict) else _body_text(body) if isinstance(body, str) else None
    detail = message if isinstance(message, str) and message else getattr(exc, "message", "") or str(exc)
    detail = scrub(" ".join(str(detail).split()), secret)
    return detail[:_MAX_DETAIL] + ("…" if len(detail) > _MAX_DETAIL else "")


def _body_text(body: str) -> str:
    """What an error body that is not JSON says: a web page's title (a proxy's "502 Bad Gateway"), else its text."""
    import html

    head = body[:_MAX_BODY_READ]
    title = re.search(r"(?is)<title[^>]*>(.*?)</title>", head)
    return html.unescape(title.group(1) if title else re.sub(r"<[^>]*>", " ", head))


def _status_error(exc: Any, config: LLMConfig) -> LLMError:
    status = int(getattr(exc, "status_code", 0) or 0)
    detail = _server_detail(exc, config.api_key)
    code = str(getattr(exc, "code", "") or "")
    host = config.host
    if status in (401, 403):
        return _with(LLMError.coded("llm_auth", "auth", host=host, status=status, detail=detail), status=status)
    if code == "model_not_found" or (status == 404 and re.search(r"(?i)model|模型", detail)):
        return _with(LLMError.coded("llm_model_not_found", "model_not_found", model=config.model, host=host,
                                    status=status, detail=detail), status=status)
    if status == 404:  # no such path: the base URL (a missing /v1, a pasted /chat/completions), not the model
        return _with(LLMError.coded("llm_no_endpoint", "model_not_found", url=config.shown_url, status=status,
                                    detail=detail), status=status)
    if status == 429:
        wait = retry_after(getattr(exc, "response", None))
        if wait is not None:
            return _with(LLMError.coded("llm_rate_limit_wait", "rate_limit", host=host, seconds=math.ceil(wait),
                                        detail=detail), status=status, retry_after=wait)
        return _with(LLMError.coded("llm_rate_limit", "rate_limit", host=host, detail=detail), status=status)
    if 400 <= status < 500:
        return _with(LLMError.coded("llm_bad_request", "bad_request", host=host, status=status, detail=detail),
                     status=status)
    if status in (502, 503, 504):  # a gateway's or an overloaded server's answer: no error inside the model server
        return _with(LLMError.coded("llm_unavailable", "server", host=host, status=status, detail=detail),
                     status=status)
    return _with(LLMError.coded("llm_server", "server", host=host, status=status, detail=detail), status=status)


def retry_after(response: Any) -> float | None:
    """The seconds a reply asks to wait before the next request (Retry-After: seconds or an HTTP date), or None."""
    headers = getattr(response, "headers", None)
    value = (headers.get("retry-after") or "").strip() if headers is not None else ""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        from email.utils import parsedate_to_datetime

        try:
            seconds = parsedate_to_datetime(value).timestamp() - time.time()
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
    return min(max(seconds, 0.0), 86_400.0) if seconds == seconds else None  # NaN: none


def _with(exc: LLMError, **attributes: object) -> LLMError:
    """`exc` with its `partial` text or HTTP `status` set (the constructor's keywords, not text values)."""
    for name, value in attributes.items():
        setattr(exc, name, value)
    return exc


def map_error(exc: Exception, config: LLMConfig) -> LLMError:
    """Turn an openai SDK (or socket) exception into an LLMError with an actionable message."""
    import openai

    if isinstance(exc, LLMError):
        return exc
    too_large = next((e for e in (exc, exc.__cause__) if isinstance(e, ReplyTooLarge)), None)  # (the SDK may wrap it)
    if too_large is not None:
        return LLMError.coded("llm_reply_too_large", "bad_reply", host=config.host, megabytes=too_large.cap >> 20)
    if isinstance(exc, openai.APITimeoutError):
        return LLMError.coded("llm_timeout", "timeout", host=config.host, seconds=f"{config.timeout_s:g}")
    if isinstance(exc, openai.APIConnectionError) and not config.shown_url.lower().startswith(("http://", "https://")):
        return LLMError.coded("llm_bad_scheme", "bad_request", url=config.shown_url)  # ("htp://", "ftp://"): no retry
    if isinstance(exc, openai.APIConnectionError):  # with the system's reason: refused, no such name, a certificate
        reason = system_reason(exc) or scrub(" ".join(str(exc.__cause__ or exc).split()), config.api_key)[:_MAX_DETAIL]
        return LLMError.coded("llm_unreachable_local" if config.is_local else "llm_unreachable", "unreachable",
                              url=config.shown_url, reason=reason or type(exc).__name__)
    if isinstance(exc, openai.APIStatusError):
        return _status_error(exc, config)
    if isinstance(exc, ReplyProblem):  # a 200 reply without an answer: a web page, a quota notice
        if exc.what:
            return LLMError.coded("llm_not_an_answer", "bad_reply", host=config.host, what=exc.what)
        return LLMError.coded("llm_unexpected", "bad_reply", host=config.host,
                              detail=_server_detail(exc, config.api_key))
    if isinstance(exc, json.JSONDecodeError):  # a stream's line or a reply body that is not JSON
        text = scrub(" ".join(exc.doc.split()), config.api_key)
        return LLMError.coded("llm_not_json", "server", host=config.host,
                              text=text[:_MAX_QUOTE] + ("…" if len(text) > _MAX_QUOTE else ""))
    detail = _server_detail(exc, config.api_key)
    return LLMError.coded("llm_unexpected", "server", host=config.host, detail=detail)


def _cut_error(cause: LLMError, partial: str) -> LLMError:
    why = {
        "unreachable": Phrase("phrase.llm_dropped"),
        "timeout": Phrase("phrase.llm_stopped"),
    }.get(cause.kind) or Phrase("phrase.llm_reported", detail=cause.message)
    return _with(LLMError.coded("llm_cut", "cut", why=why), partial=partial, status=cause.status)


# ---- the client ----


class LLMClient:
    """Calls one OpenAI-compatible endpoint; retries transient failures before any output.

    Every call runs on a daemon thread (see `llm_http`), so cancel takes effect within
    `llm_http.POLL_S` whatever the server does, and the connection is shut down at once.
    Every call is bounded: `max_tokens` is sent, at most `max_answer_chars` are accepted, and
    it ends by `deadline_s` (retries included).
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

    def _backoff(self, attempt: int, cancel: threading.Event | None, deadline: float, wait: float = 0.0) -> bool:
        """Sleep before retry `attempt` (0-based), at least `wait` s; False if cancelled meanwhile or out of time."""
        cfg = self.config
        delay = max(wait, min(cfg.retry_max_delay_s, cfg.retry_base_delay_s * (2**attempt)))
        if time.monotonic() + delay >= deadline:
            return False
        if cancel is not None:
            return not cancel.wait(delay)
        time.sleep(delay)
        return True

    def _as_error(self, exc: Exception) -> LLMError:
        return exc if isinstance(exc, LLMError) else map_error(exc, self.config)

    def _next_attempt(self, failure: LLMError, attempt: int, cancel: threading.Event | None,
                      deadline: float) -> int | None:
        """After a failed attempt (the one retry rule of `stream` and `complete`): the attempt to make next
        (the token parameter switched, or a retryable error waited out), None when cancelled while waiting;
        raises `failure` when it is final."""
        if self._switch_token_param(failure):
            return attempt
        if (failure.retry_after or 0.0) > self.config.retry_max_delay_s or not self._should_retry(failure, attempt):
            raise self._final(failure, attempt, deadline)  # (a server asking to wait longer is told at once)
        if not self._backoff(attempt, cancel, deadline, failure.retry_after or 0.0):
            if _is_set(cancel):
                return None
            raise self._final(failure, attempt, deadline)
        return attempt + 1

    def _final(self, failure: LLMError, attempt: int, deadline: float) -> LLMError:
        """The failure to raise after `attempt` (0-based): a timeout after retries says the tries and the time
        they took in all, not only one try's limit."""
        if failure.kind != "timeout" or attempt == 0:
            return failure
        waited = time.monotonic() - (deadline - self.config.deadline_s)
        return _with(LLMError.coded("llm_timeout_tries", "timeout", host=self.config.host, tries=attempt + 1,
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

    def _deadline_clock(self, deadline: float, received: list[str]) -> Any:
        """A callable: seconds left before `deadline`; raises the deadline error when none are."""
        def left() -> float:
            remaining = deadline - time.monotonic()
            if remaining > 0:
                return remaining
            limit = f"{self.config.deadline_s:g}"
            if received:
                raise _with(LLMError.coded("llm_cut_deadline", "cut", host=self.config.host, seconds=limit),
                            partial="".join(received))
            raise LLMError.coded("llm_deadline", "deadline", host=self.config.host, seconds=limit)
        return left

    def stream(self, messages: Sequence[dict], cancel: threading.Event | None = None) -> Iterator[str]:
        """Yield answer text pieces as they arrive; stop (closing the connection) once cancel is set.

        Transient failures are retried only before the first piece; a failure after it raises
        LLMError(kind='cut') whose `.partial` holds the text received so far. Past
        `max_answer_chars` the text is cut there and LLMError(kind='length', partial=...) raised;
        past `deadline_s`, LLMError 'deadline' (or 'cut' once text has arrived).
        """
        parts: list[str] = []
        started = time.monotonic()
        deadline = started + self.config.deadline_s
        attempt = 0
        while True:
            try:
                yield from self._stream_once(messages, cancel, parts, deadline)
                if not _is_set(cancel):
                    self._observe(messages, "".join(parts), started)
                return
            except Exception as exc:  # noqa: BLE001 - mapped to a user-readable error
                failure = self._as_error(exc)
            if failure.kind in ("cut", "length", "deadline"):
                raise _with(failure, partial=failure.partial or "".join(parts)) from None
            if parts:
                raise _cut_error(failure, "".join(parts)) from None
            attempt = self._next_attempt(failure, attempt, cancel, deadline)
            if attempt is None:
                return  # cancelled while waiting to retry

    def _observe(self, messages: Sequence[dict], reply: str, started: float) -> None:
        """The request's speed, for time estimates (`llm_speed`)."""
        from desktop_rag.engine.answer import llm_speed

        llm_speed.observe(self.config.base_url, self.config.model, sum(len(str(m["content"])) for m in messages),
                          len(reply), time.monotonic() - started)

    def _stream_once(
        self, messages: Sequence[dict], cancel: threading.Event | None, parts: list[str], deadline: float
    ) -> Iterator[str]:
        if _is_set(cancel):
            return
        request = self._request(messages, stream=True)

        def work(stopped: Any) -> Iterator[str]:
            client = self._sdk()
            if stopped():
                return
            response = client.chat.completions.create(**request)
            thinking = ThinkFilter()  # a reasoning model's <think> block is not the answer
            finish, wrote = None, False
            try:
                for text, finished in streamed_pieces(response):
                    if stopped():
                        return
                    finish = finished or finish
                    if text and (shown := thinking.feed(text)):
                        wrote = True
                        yield shown
                if rest := thinking.finish():
                    wrote = True
                    yield rest
                if finish == "length":  # the server stopped at max_tokens: the answer is not whole
                    raise _token_limit_error(request[self._token_param], thinking=not wrote)
            finally:
                response.close()

        exchange = Exchange(work, "llm-stream")
        received = sum(len(p) for p in parts)
        cap = self.config.max_answer_chars
        for text in iterate(exchange, lambda: _is_set(cancel), self._deadline_clock(deadline, parts)):
            text = text[: cap - received]
            received += len(text)
            if text:
                parts.append(text)
                yield text
            if received >= cap:
                raise _length_error(cap, "".join(parts))

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

        Bounded like `stream`: `max_tokens` sent, the reply cut at `max_answer_chars`, `deadline_s`; a reply the
        server stopped at `max_tokens` raises LLMError 'length' with its text as `partial`. Without
        `retry_timeout` a timeout is final: an extra the answer can do without (the question's rewrite or
        translation) never waits out a silent server's read timeout again before the answer's own request.
        """
        from desktop_rag.engine.answer import sent

        sent.note(messages, self.config.model)  # "What was sent" lists it when an answer is recording
        started = time.monotonic()
        deadline = started + self.config.deadline_s
        attempt = 0
        while True:
            try:
                reply = self._complete_once(messages, max_tokens, temperature, cancel, deadline)
                if not _is_set(cancel):
                    self._observe(messages, reply, started)
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
        deadline: float,
    ) -> str:
        if _is_set(cancel):
            return ""
        request = self._request(messages, max_tokens=max_tokens, temperature=temperature)

        def work(stopped: Any) -> Iterator[str]:
            client = self._sdk()
            if stopped():
                return
            text, finish = completion_piece(client.chat.completions.create(**request))
            answer = without_thinking(text)
            if finish == "length":  # the server stopped at max_tokens: the reply is not whole
                raise _with(_token_limit_error(request[self._token_param], thinking=not answer.strip()),
                            partial=answer[: self.config.max_answer_chars])
            yield answer

        exchange = Exchange(work, "llm-complete")
        for text in iterate(exchange, lambda: _is_set(cancel), self._deadline_clock(deadline, [])):
            return text[: self.config.max_answer_chars]
        return ""


def _is_set(cancel: threading.Event | None) -> bool:
    return cancel is not None and cancel.is_set()


def _length_error(cap: int, partial: str) -> LLMError:
    return _with(LLMError.coded("llm_length", "length", cap=cap), partial=partial)


def _token_limit_error(tokens: int, thinking: bool) -> LLMError:
    """The reply ended at its `max_tokens` (finish_reason "length"): mid-answer, or before a word of it (reasoning,
    in a think block or hidden as OpenAI's reasoning models do)."""
    return LLMError.coded("llm_token_limit_thinking" if thinking else "llm_token_limit", "length", tokens=tokens)


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
