"""OpenAI-compatible chat client: configuration, streaming, retries and user-readable errors."""

from __future__ import annotations

import ipaddress
import logging
import os
import re
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.llm_http import Exchange, abortable_http_client, iterate

log = logging.getLogger(__name__)

KEY_ENV = "OPENAI_API_KEY"
BASE_URL_ENV = "OPENAI_BASE_URL"
MODEL_ENV = "OPENAI_MODEL"
_MAX_DETAIL = 300
_WARNED_HOSTS: set[str] = set()


@dataclass(frozen=True)
class Preset:
    """A known provider: where it lives, a sensible default model, whether it needs a key."""

    name: str
    label: str
    base_url: str
    default_model: str
    needs_key: bool = True
    placeholder_key: str = ""


PRESETS: dict[str, Preset] = {
    "openai": Preset("openai", "OpenAI", "https://api.openai.com/v1", "gpt-4o-mini"),
    "deepseek": Preset("deepseek", "DeepSeek", "https://api.deepseek.com/v1", "deepseek-chat"),
    "zhipu": Preset("zhipu", "Zhipu GLM", "https://open.bigmodel.cn/api/paas/v4", "glm-4-flash"),
    "ollama": Preset("ollama", "Ollama (local)", "http://localhost:11434/v1", "", False, "ollama"),
    "lmstudio": Preset("lmstudio", "LM Studio (local)", "http://localhost:1234/v1", "", False, "lm-studio"),
    "custom": Preset("custom", "Custom endpoint", "", "", True),
}


@dataclass(frozen=True)
class LLMConfig:
    """Everything needed to call one endpoint. The key never shows in repr/str."""

    base_url: str
    model: str
    api_key: str = field(default="", repr=False)
    provider: str = "custom"
    temperature: float = 0.2
    timeout_s: float = 60.0
    max_retries: int = 2
    retry_base_delay_s: float = 0.5
    retry_max_delay_s: float = 8.0
    max_tokens: int = 2048  # sent with every request
    max_answer_chars: int = 24_000  # received text beyond this is cut (a server may ignore max_tokens)
    deadline_s: float = 300.0  # one answer (or rewrite), retries included, ends by then

    @property
    def is_local(self) -> bool:
        return is_local_url(self.base_url)

    @property
    def host(self) -> str:
        """host[:port] for messages (never any user:password part of the address)."""
        try:
            parsed = urlparse(self.base_url)
            port = parsed.port
        except ValueError:
            return self.base_url
        host = parsed.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        return (f"{host}:{port}" if port else host) or self.base_url


def url_host(url: str) -> str:
    """The host name of a URL, lower-cased, without brackets or a trailing dot ('' if none)."""
    try:
        host = urlparse(url.strip()).hostname or ""
    except ValueError:  # e.g. an unbalanced '[' in the address
        return ""
    return host.lower().rstrip(".")


def is_loopback_host(host: str) -> bool:
    """True only for this machine: 'localhost', 127.0.0.0/8, ::1 (or 0.0.0.0 / ::, which reach it)."""
    host = host.lower().rstrip(".")
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False  # a name such as 127.evil.com is resolved by DNS: anywhere
    mapped = getattr(address, "ipv4_mapped", None)
    if mapped is not None:
        address = mapped
    return address.is_loopback or address.is_unspecified


def is_local_url(url: str) -> bool:
    """True for endpoints on this machine (no key needed)."""
    return is_loopback_host(url_host(url))


def sends_in_clear(url: str) -> bool:
    """True when the address is plain http:// to another machine (key, questions and passages readable on the way)."""
    try:
        scheme = urlparse(url.strip()).scheme.lower()
    except ValueError:
        return False
    return scheme == "http" and bool(url_host(url)) and not is_local_url(url)


def plain_http_warning(config: LLMConfig | None) -> str | None:
    """The warning to show when a configured model is reached over plain HTTP on another machine."""
    if config is None or not sends_in_clear(config.base_url):
        return None
    return (f"warning: the model server {config.host} is reached over plain http://, so your API key, your "
            "questions and the passages sent with them travel unencrypted and can be read or changed on the "
            "way. Use an https:// address for servers on other machines.")


def _pick(env: Mapping[str, str], name: str, fallback: str) -> str:
    return (env.get(name) or "").strip() or (fallback or "").strip()


def _resolve_parts(settings: Any, env: Mapping[str, str]) -> tuple[str, Preset | None, str, str, str]:
    """(provider, preset, base_url, model, key) after env overrides and preset defaults."""
    provider = (getattr(settings, "llm_provider", "") or "").strip().lower()
    key = (env.get(KEY_ENV) or "").strip()
    explicit_url = _pick(env, BASE_URL_ENV, getattr(settings, "llm_base_url", ""))
    if not provider and not explicit_url and key:
        provider = "openai"  # a bare OPENAI_API_KEY means OpenAI itself
    preset = PRESETS.get(provider)
    base_url = explicit_url or (preset.base_url if preset else "")
    model = _pick(env, MODEL_ENV, getattr(settings, "llm_model", "")) or (preset.default_model if preset else "")
    return provider or "custom", preset, base_url.rstrip("/"), model, key


def resolve_llm_config(settings: Any, env: Mapping[str, str] = os.environ) -> LLMConfig | None:
    """The configured model, or None (extractive mode) when base URL, model or key is missing.

    OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL override the settings. Local endpoints
    (localhost/127.0.0.1) need no key: a placeholder is sent instead.
    """
    provider, preset, base_url, model, key = _resolve_parts(settings, env)
    if not base_url or not model:
        return None
    if not key:
        if not is_local_url(base_url):
            return None
        key = (preset.placeholder_key if preset else "") or "not-needed"
    return LLMConfig(
        base_url=base_url,
        model=model,
        api_key=key,
        provider=provider,
        temperature=float(getattr(settings, "temperature", 0.2)),
    )


def config_problem(settings: Any, env: Mapping[str, str] = os.environ) -> str | None:
    """Why no model is configured, as advice for the user; None when one is."""
    provider, preset, base_url, model, key = _resolve_parts(settings, env)
    label = preset.label if preset else "the model server"
    where = "in Settings, or in the .env file in the app's config folder"
    if not base_url and not model:
        return f"No language model is configured. Choose a provider {where} (OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL)."
    if not base_url:
        return f"No server address is set for {label}. Set the base URL {where} (OPENAI_BASE_URL)."
    if not model:
        return f"No model name is set for {label}. Set the model {where} (OPENAI_MODEL)."
    if not key and not is_local_url(base_url):
        return f"No API key is set for {label}. Add your key {where} (OPENAI_API_KEY)."
    return None


class LLMError(DesktopRagError):
    """A model call failed; `kind` says how, the message says what to do.

    Kinds: no_key, auth, unreachable, model_not_found, rate_limit, timeout, cut, bad_request,
    server, length (the answer hit `max_answer_chars`), deadline (the call outlived `deadline_s`).
    `partial` holds the text received before a stream was cut or stopped.
    """

    RETRYABLE = frozenset({"unreachable", "timeout", "rate_limit", "server"})

    def __init__(self, kind: str, message: str, *, partial: str = "", status: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.partial = partial
        self.status = status

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
    message = body.get("message") if isinstance(body, dict) else None
    detail = message if isinstance(message, str) and message else getattr(exc, "message", "") or str(exc)
    detail = scrub(" ".join(str(detail).split()), secret)
    return detail[:_MAX_DETAIL] + ("…" if len(detail) > _MAX_DETAIL else "")


def _status_error(exc: Any, config: LLMConfig) -> LLMError:
    status = int(getattr(exc, "status_code", 0) or 0)
    detail = _server_detail(exc, config.api_key)
    code = str(getattr(exc, "code", "") or "")
    host = config.host
    if status in (401, 403):
        msg = (
            f"The API key was rejected by {host} (HTTP {status}). Check the key in Settings "
            f"or OPENAI_API_KEY. Server said: {detail}"
        )
        return LLMError("auth", msg, status=status)
    if status == 404 or code == "model_not_found":
        msg = (
            f"The model '{config.model}' was not found at {host} (HTTP {status}). Check the model "
            f"name and the base URL in Settings. Server said: {detail}"
        )
        return LLMError("model_not_found", msg, status=status)
    if status == 429:
        msg = (
            f"{host} is rate-limiting requests (HTTP 429). Wait a minute and try again, or check "
            f"your plan's quota. Server said: {detail}"
        )
        return LLMError("rate_limit", msg, status=status)
    if 400 <= status < 500:
        msg = f"{host} rejected the request (HTTP {status}): {detail}"
        return LLMError("bad_request", msg, status=status)
    msg = f"The model server {host} had an internal error (HTTP {status}). Try again later. Server said: {detail}"
    return LLMError("server", msg, status=status)


def map_error(exc: Exception, config: LLMConfig) -> LLMError:
    """Turn an openai SDK (or socket) exception into an LLMError with an actionable message."""
    import openai

    if isinstance(exc, LLMError):
        return exc
    if isinstance(exc, openai.APITimeoutError):
        msg = (
            f"The model server {config.host} did not answer within {config.timeout_s:g} s. "
            "Try again; a slow local model may need a longer timeout."
        )
        return LLMError("timeout", msg)
    if isinstance(exc, openai.APIConnectionError):
        hint = " Is the local server (Ollama / LM Studio) running?" if config.is_local else ""
        msg = (
            f"Could not reach the model server at {config.base_url}. Check the base URL and "
            f"your network connection.{hint}"
        )
        return LLMError("unreachable", msg)
    if isinstance(exc, openai.APIStatusError):
        return _status_error(exc, config)
    detail = _server_detail(exc, config.api_key)
    return LLMError("server", f"The model server {config.host} returned an unexpected reply: {detail}")


def _cut_error(cause: LLMError, partial: str) -> LLMError:
    why = {
        "unreachable": "the connection to the model server dropped",
        "timeout": "the model server stopped sending",
    }.get(cause.kind, f"the model server reported an error ({cause.message})")
    msg = f"The answer was cut off: {why} mid-answer. The partial answer is kept; ask again to get the rest."
    return LLMError("cut", msg, partial=partial, status=cause.status)


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
        warning = plain_http_warning(config)
        if warning and config.host not in _WARNED_HOSTS:
            _WARNED_HOSTS.add(config.host)
            log.warning("%s", warning)

    def __repr__(self) -> str:
        return f"LLMClient({self.config!r})"

    def _sdk(self) -> Any:
        """The SDK client, made once on the first request's thread (importing the SDK takes a while, and
        cancel must not wait for it); its connections can be shut down by a cancel, see llm_http."""
        if not self.config.api_key and not self.config.is_local:
            raise LLMError(
                "no_key",
                f"No API key is set for {self.config.host}. Add it in Settings or put "
                "OPENAI_API_KEY=... in the .env file in the app's config folder.",
            )
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

    def _backoff(self, attempt: int, cancel: threading.Event | None, deadline: float) -> bool:
        """Sleep before retry `attempt` (0-based); False if cancelled meanwhile or out of time."""
        cfg = self.config
        delay = min(cfg.retry_max_delay_s, cfg.retry_base_delay_s * (2**attempt))
        if time.monotonic() + delay >= deadline:
            return False
        if cancel is not None:
            return not cancel.wait(delay)
        time.sleep(delay)
        return True

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
            limit = f"{self.config.deadline_s:g} s, the limit for one answer"
            if received:
                msg = (f"The answer was cut off: {self.config.host} took longer than {limit}. "
                       "The partial answer is kept; ask a narrower question to get the rest.")
                raise LLMError("cut", msg, partial="".join(received))
            raise LLMError("deadline", f"The model server {self.config.host} did not finish within {limit}. "
                                       "Try again later, or ask a narrower question.")
        return left

    def stream(self, messages: Sequence[dict], cancel: threading.Event | None = None) -> Iterator[str]:
        """Yield answer text pieces as they arrive; stop (closing the connection) once cancel is set.

        Transient failures are retried only before the first piece; a failure after it raises
        LLMError(kind='cut') whose `.partial` holds the text received so far. Past
        `max_answer_chars` the text is cut there and LLMError(kind='length', partial=...) raised;
        past `deadline_s`, LLMError 'deadline' (or 'cut' once text has arrived).
        """
        parts: list[str] = []
        deadline = time.monotonic() + self.config.deadline_s
        attempt = 0
        while True:
            try:
                yield from self._stream_once(messages, cancel, parts, deadline)
                return
            except LLMError as err:
                failure = err
            except Exception as exc:  # noqa: BLE001 - mapped to a user-readable error
                failure = map_error(exc, self.config)
            if failure.kind in ("cut", "length", "deadline"):
                raise failure from None
            if parts:
                raise _cut_error(failure, "".join(parts)) from None
            if self._switch_token_param(failure):
                continue
            if not self._should_retry(failure, attempt):
                raise failure from None
            if not self._backoff(attempt, cancel, deadline):
                if _is_set(cancel):
                    return  # cancelled while waiting to retry
                raise failure from None
            attempt += 1

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
            try:
                for chunk in response:
                    if stopped():
                        return
                    choices = getattr(chunk, "choices", None)
                    text = getattr(choices[0].delta, "content", None) if choices else None
                    if text:
                        yield text
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
    ) -> str:
        """One non-streaming completion, with retries; returns the reply text ('' if none or cancelled).

        Bounded like `stream`: `max_tokens` sent, the reply cut at `max_answer_chars`, `deadline_s`.
        """
        deadline = time.monotonic() + self.config.deadline_s
        attempt = 0
        while True:
            try:
                return self._complete_once(messages, max_tokens, temperature, cancel, deadline)
            except LLMError as err:
                failure = err
            except Exception as exc:  # noqa: BLE001 - mapped to a user-readable error
                failure = map_error(exc, self.config)
            if failure.kind == "deadline":
                raise failure from None
            if self._switch_token_param(failure):
                continue
            if not self._should_retry(failure, attempt):
                raise failure from None
            if not self._backoff(attempt, cancel, deadline):
                if _is_set(cancel):
                    return ""
                raise failure from None
            attempt += 1

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
            result = client.chat.completions.create(**request)
            choices = getattr(result, "choices", None) or []
            yield (choices[0].message.content or "") if choices else ""

        exchange = Exchange(work, "llm-complete")
        for text in iterate(exchange, lambda: _is_set(cancel), self._deadline_clock(deadline, [])):
            return text[: self.config.max_answer_chars]
        return ""


def _is_set(cancel: threading.Event | None) -> bool:
    return cancel is not None and cancel.is_set()


def _length_error(cap: int, partial: str) -> LLMError:
    msg = (f"The answer was stopped at {cap:,} characters, the limit for one answer. "
           "Ask a narrower question to get the rest.")
    return LLMError("length", msg, partial=partial)


def test_connection(config: LLMConfig) -> str:
    """Send a tiny request; return a short human result or raise LLMError (for Settings)."""
    started = time.monotonic()
    client = LLMClient(config)
    reply = client.complete(
        [{"role": "user", "content": "Reply with the single word OK."}], max_tokens=8, temperature=0.0
    )
    seconds = time.monotonic() - started
    said = scrub(" ".join(reply.split())[:40], config.api_key) or "(an empty reply)"
    return f"Connected to {config.model} at {config.host} in {seconds:.1f} s; it said: {said}"


test_connection.__test__ = False  # type: ignore[attr-defined]  # not a pytest test
