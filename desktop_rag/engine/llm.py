"""OpenAI-compatible chat client: configuration, streaming, retries and user-readable errors."""

from __future__ import annotations

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

log = logging.getLogger(__name__)

KEY_ENV = "OPENAI_API_KEY"
BASE_URL_ENV = "OPENAI_BASE_URL"
MODEL_ENV = "OPENAI_MODEL"
_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0"}
_MAX_DETAIL = 300


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

    @property
    def is_local(self) -> bool:
        return is_local_url(self.base_url)

    @property
    def host(self) -> str:
        return urlparse(self.base_url).netloc or self.base_url


def is_local_url(url: str) -> bool:
    """True for endpoints on this machine (no key needed)."""
    host = (urlparse(url).hostname or "").lower()
    return host in _LOCAL_HOSTS or host.startswith("127.")


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
    server. `partial` holds the text received before a stream was cut.
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
    """Calls one OpenAI-compatible endpoint; retries transient failures before any output."""

    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self._client: Any = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"LLMClient({self.config!r})"

    def _sdk(self) -> Any:
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
                )
            return self._client

    def _backoff(self, attempt: int, cancel: threading.Event | None) -> bool:
        """Sleep before retry `attempt` (0-based); False if cancelled meanwhile."""
        cfg = self.config
        delay = min(cfg.retry_max_delay_s, cfg.retry_base_delay_s * (2**attempt))
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

    def _create(self, messages: Sequence[dict], **extra: Any) -> Any:
        return self._sdk().chat.completions.create(
            model=self.config.model,
            messages=list(messages),
            temperature=extra.pop("temperature", self.config.temperature),
            **extra,
        )

    def stream(self, messages: Sequence[dict], cancel: threading.Event | None = None) -> Iterator[str]:
        """Yield answer text pieces as they arrive; stop (closing the response) once cancel is set.

        Transient failures are retried only before the first piece; a failure after it raises
        LLMError(kind='cut') whose `.partial` holds the text received so far.
        """
        parts: list[str] = []
        attempt = 0
        while True:
            try:
                yield from self._stream_once(messages, cancel, parts)
                return
            except LLMError as err:
                failure = err
            except Exception as exc:  # noqa: BLE001 - mapped to a user-readable error
                failure = map_error(exc, self.config)
            if parts:
                raise _cut_error(failure, "".join(parts)) from None
            if not self._should_retry(failure, attempt):
                raise failure from None
            if not self._backoff(attempt, cancel):
                return  # cancelled while waiting to retry
            attempt += 1

    def _stream_once(self, messages: Sequence[dict], cancel: threading.Event | None, parts: list[str]) -> Iterator[str]:
        if cancel is not None and cancel.is_set():
            return
        response = self._create(messages, stream=True)
        try:
            for chunk in response:
                if cancel is not None and cancel.is_set():
                    return
                choices = getattr(chunk, "choices", None)
                if not choices:
                    continue
                text = getattr(choices[0].delta, "content", None)
                if text:
                    parts.append(text)
                    yield text
        finally:
            response.close()

    def complete(
        self, messages: Sequence[dict], *, max_tokens: int | None = None, temperature: float | None = None
    ) -> str:
        """One non-streaming completion, with retries; returns the reply text ('' if none)."""
        extra: dict[str, Any] = {}
        if max_tokens is not None:
            extra["max_tokens"] = max_tokens
        if temperature is not None:
            extra["temperature"] = temperature
        attempt = 0
        while True:
            try:
                result = self._create(messages, **dict(extra))
                choices = getattr(result, "choices", None) or []
                return (choices[0].message.content or "") if choices else ""
            except LLMError as err:
                failure = err
            except Exception as exc:  # noqa: BLE001 - mapped to a user-readable error
                failure = map_error(exc, self.config)
            if not self._should_retry(failure, attempt):
                raise failure from None
            self._backoff(attempt, None)
            attempt += 1


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
