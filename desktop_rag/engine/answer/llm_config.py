"""Which language model to call: provider presets, settings and environment resolution, address checks."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from desktop_rag.config import Settings
from desktop_rag.engine.answer.reasoning import CHARS_PER_TOKEN, MAX_THINKING_CHARS
from desktop_rag.engine.endpoint import pasted_key, without_userinfo
from desktop_rag.engine.messages import Phrase, message
from desktop_rag.engine.reasons import Reason

KEY_ENV = "OPENAI_API_KEY"
BASE_URL_ENV = "OPENAI_BASE_URL"
MODEL_ENV = "OPENAI_MODEL"
MIN_DEADLINE_S = 300.0  # the least time one reply may take, retries included (a fast cloud model's or a short one's)
# A reply may take as long as its tokens at a slow local speed: a thinking model on a CPU (Ollama, llama.cpp) writes
# some 10-30 tokens a second, so 10 lets such a model finish what its limit allows (16,000 tokens: 1,600 s) where a
# fixed 300 s cut it at ~3,000; a stalled server is stopped sooner by the read timeout (`LLMConfig.timeout_s`).
SLOW_TOKENS_PER_S = 10.0


@dataclass(frozen=True)
class Preset:
    """A known provider: where it lives, a sensible default model, whether it needs a key. Its name for a person
    is the text "provider.<name>" of the message table, in either language (`label`)."""

    name: str
    base_url: str
    default_model: str
    needs_key: bool = True
    placeholder_key: str = ""

    @property
    def label(self) -> Phrase:
        """How a person sees this provider (Settings' list, the messages about its settings): `label.text(lang)`."""
        return Phrase(f"provider.{self.name}")


PRESETS: dict[str, Preset] = {
    "openai": Preset("openai", "https://api.openai.com/v1", "gpt-4o-mini"),
    "deepseek": Preset("deepseek", "https://api.deepseek.com/v1", "deepseek-chat"),
    "zhipu": Preset("zhipu", "https://open.bigmodel.cn/api/paas/v4", "glm-4-flash"),
    "ollama": Preset("ollama", "http://localhost:11434/v1", "", False, "ollama"),
    "lmstudio": Preset("lmstudio", "http://localhost:1234/v1", "", False, "lm-studio"),
    "custom": Preset("custom", "", "", True),
}

# The context windows (tokens) of the presets' models, as their providers document them: a summary's request size
# follows them (answer/summary_budget.py). Matched by the longest name the configured model starts with.
MODEL_CONTEXT: dict[str, int] = {
    "gpt-4o": 128_000, "gpt-4.1": 1_047_576, "gpt-4-turbo": 128_000, "gpt-3.5-turbo": 16_385, "o1": 200_000,
    "o3": 200_000, "o4-mini": 200_000, "gpt-5": 400_000,
    "deepseek-chat": 65_536, "deepseek-reasoner": 65_536,
    "glm-4-flash": 128_000, "glm-4-plus": 128_000, "glm-4-air": 128_000, "glm-4-long": 1_000_000,
}


def known_context(model: str) -> int | None:
    """The documented context window of `model` (MODEL_CONTEXT), or None."""
    name = model.strip().lower()
    matches = [prefix for prefix in MODEL_CONTEXT if name.startswith(prefix)]
    return MODEL_CONTEXT[max(matches, key=len)] if matches else None


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
    max_tokens: int = Settings.max_reply_tokens  # sent with every request (`resolve_llm_config`: the setting's)
    max_answer_chars: int = 24_000  # received text beyond this is cut (a server may ignore max_tokens)
    deadline_s: float = MIN_DEADLINE_S  # one answer, retries included, ends by then (`reply_deadline(max_tokens)`)
    language: str = "en"  # the interface's language ("en"/"zh"): the client's messages about its settings
    userinfo_dropped: bool = False  # the address given had a user:password@ part, taken out (`address_notice`)

    def __post_init__(self) -> None:
        """A user:password@ in the address is never sent: the HTTP library would send it as Basic auth in place of
        the API key."""
        url = without_userinfo(self.base_url)
        if url != self.base_url:
            object.__setattr__(self, "base_url", url)
            object.__setattr__(self, "userinfo_dropped", True)

    @property
    def thinking_chars(self) -> int:
        """How far into a reply a lone `</think>` may end thinking its chat template opened (`answer.reasoning`):
        what `max_tokens` holds, at least MAX_THINKING_CHARS, at most `max_answer_chars`."""
        return min(self.max_answer_chars, max(MAX_THINKING_CHARS, CHARS_PER_TOKEN * self.max_tokens))

    def deadline_for(self, max_tokens: int | None) -> float:
        """The time a request asking for `max_tokens` may take: a side request asking for fewer than the reply limit
        (a rewrite, a translation) gets its own tokens' time, never more than `deadline_s`."""
        return self.deadline_s if max_tokens is None else min(self.deadline_s, reply_deadline(max_tokens))

    @property
    def is_local(self) -> bool:
        return is_local_url(self.base_url)

    @property
    def shown_url(self) -> str:
        """The base URL for messages: without a query (where a proxy's key may be)."""
        try:
            return urlparse(self.base_url)._replace(query="", fragment="").geturl()
        except ValueError:
            return self.host

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


def plain_http_warning(config: LLMConfig | None, language: str = "en") -> str | None:
    """The warning, in `language`, to show when a configured model is reached over plain HTTP on another machine."""
    if config is None or not sends_in_clear(config.base_url):
        return None
    return message("llm_plain_http", language, host=config.host)


def _pick(env: Mapping[str, str], name: str, fallback: str) -> str:
    return (env.get(name) or "").strip() or (fallback or "").strip()


def with_scheme(url: str) -> str:
    """`url`, with http:// before an address typed without a scheme on this machine ("localhost:11434/v1", as
    Ollama's own docs write it) and https:// before one elsewhere (never plain http by a guess)."""
    if not url or "://" in url:
        return url
    return ("http://" if is_loopback_host(url_host(f"//{url}")) else "https://") + url


def _resolve_parts(settings: Any, env: Mapping[str, str]) -> tuple[str, Preset | None, str, str, str]:
    """(provider, preset, base_url, model, key) after env overrides and preset defaults."""
    provider = (getattr(settings, "llm_provider", "") or "").strip().lower()
    key = pasted_key(env.get(KEY_ENV) or "")
    explicit_url = _pick(env, BASE_URL_ENV, getattr(settings, "llm_base_url", ""))
    if not provider and not explicit_url and key:
        provider = "openai"  # a bare OPENAI_API_KEY means OpenAI itself
    preset = PRESETS.get(provider)
    base_url = with_scheme(explicit_url) or (preset.base_url if preset else "")
    model = _pick(env, MODEL_ENV, getattr(settings, "llm_model", "")) or (preset.default_model if preset else "")
    return provider or "custom", preset, base_url.rstrip("/"), model, key


def reply_deadline(max_tokens: int) -> float:
    """The seconds a reply of up to `max_tokens` may take: MIN_DEADLINE_S, or its tokens at SLOW_TOKENS_PER_S."""
    return max(MIN_DEADLINE_S, max_tokens / SLOW_TOKENS_PER_S)


def resolve_llm_config(settings: Any, env: Mapping[str, str] = os.environ) -> LLMConfig | None:
    """The configured model, or None (extractive mode) when base URL, model or key is missing.

    OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL override the settings. Local endpoints
    (localhost/127.0.0.1) need no key: a placeholder is sent instead. A reply's token limit is the settings'
    `max_reply_tokens`, and the characters taken of a reply and its deadline grow with it.
    """
    provider, preset, base_url, model, key = _resolve_parts(settings, env)
    if not base_url or not model:
        return None
    if not key:
        if not is_local_url(base_url):
            return None
        key = (preset.placeholder_key if preset else "") or "not-needed"
    tokens = int(getattr(settings, "max_reply_tokens", Settings.max_reply_tokens))
    return LLMConfig(
        base_url=base_url,
        model=model,
        api_key=key,
        provider=provider,
        temperature=float(getattr(settings, "temperature", 0.2)),
        max_tokens=tokens,
        deadline_s=reply_deadline(tokens),
        # a thinking model's lone `</think>` comes as text: the cap on it must hold what the reply limit allows
        max_answer_chars=max(LLMConfig.max_answer_chars, CHARS_PER_TOKEN * tokens),
    )


def config_problem(settings: Any, env: Mapping[str, str] = os.environ) -> Reason | None:
    """Why no model is configured, as advice for the user (a front end shows it through `error_text`); None when
    one is."""
    provider, preset, base_url, model, key = _resolve_parts(settings, env)
    label = preset.label if preset else Phrase("phrase.the_model_server")
    if not base_url and not model:
        return Reason.coded("no_model_configured")
    if not base_url:
        return Reason.coded("no_server_address", label=label)
    if not model:
        return Reason.coded("no_model_name", label=label)
    if not key and not is_local_url(base_url):
        return Reason.coded("no_api_key_set", label=label)
    return None
