"""A model call's failures: LLMError, an SDK's or a socket's exception read as one (the server's words scrubbed of
keys and shortened), and the errors of a reply cut, too long or stopped at its token limit (`llm` raises them)."""

from __future__ import annotations

import json
import math
import re
import time
from typing import Any

from desktop_rag.engine.answer.llm_config import LLMConfig
from desktop_rag.engine.answer.llm_http import ReplyTooLarge
from desktop_rag.engine.answer.llm_reply import ReplyProblem
from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.system_errors import system_reason

_MAX_DETAIL = 300
_MAX_QUOTE = 80  # of a reply that is not JSON, the part quoted
_MAX_BODY_READ = 4000  # of an error body that is not JSON, the part read for its words


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
        return amend(LLMError.coded("llm_auth", "auth", host=host, status=status, detail=detail), status=status)
    if code == "model_not_found" or (status == 404 and re.search(r"(?i)model|模型", detail)):
        return amend(LLMError.coded("llm_model_not_found", "model_not_found", model=config.model, host=host,
                                    status=status, detail=detail), status=status)
    if status == 404:  # no such path: the base URL (a missing /v1, a pasted /chat/completions), not the model
        return amend(LLMError.coded("llm_no_endpoint", "model_not_found", url=config.shown_url, status=status,
                                    detail=detail), status=status)
    if status == 429:
        wait = retry_after(getattr(exc, "response", None))
        if wait is not None:
            return amend(LLMError.coded("llm_rate_limit_wait", "rate_limit", host=host, seconds=math.ceil(wait),
                                        detail=detail), status=status, retry_after=wait)
        return amend(LLMError.coded("llm_rate_limit", "rate_limit", host=host, detail=detail), status=status)
    if 400 <= status < 500:
        return amend(LLMError.coded("llm_bad_request", "bad_request", host=host, status=status, detail=detail),
                     status=status)
    if status in (502, 503, 504):  # a gateway's or an overloaded server's answer: no error inside the model server
        return amend(LLMError.coded("llm_unavailable", "server", host=host, status=status, detail=detail),
                     status=status)
    return amend(LLMError.coded("llm_server", "server", host=host, status=status, detail=detail), status=status)


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


def amend(exc: LLMError, **attributes: object) -> LLMError:
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


def cut_error(cause: LLMError, partial: str) -> LLMError:
    """A stream that failed after text arrived (`partial`), saying how: dropped, stopped, or the server's words."""
    why = {
        "unreachable": Phrase("phrase.llm_dropped"),
        "timeout": Phrase("phrase.llm_stopped"),
    }.get(cause.kind) or Phrase("phrase.llm_reported", detail=cause.message)
    return amend(LLMError.coded("llm_cut", "cut", why=why), partial=partial, status=cause.status)


def length_error(cap: int, partial: str) -> LLMError:
    """An answer cut at `max_answer_chars` (`cap`), its text so far as `partial`."""
    return amend(LLMError.coded("llm_length", "length", cap=cap), partial=partial)


def token_limit_error(tokens: int, thinking: bool) -> LLMError:
    """The reply ended at its `max_tokens` (finish_reason "length"): mid-answer, or before a word of it (reasoning,
    in a think block or hidden as OpenAI's reasoning models do)."""
    return LLMError.coded("llm_token_limit_thinking" if thinking else "llm_token_limit", "length", tokens=tokens)
