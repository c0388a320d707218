"""How many tokens one summary request may carry (`Settings.summary_budget_tokens`; 0, the default: automatic).

Automatic: the model's context window, where it is known: the providers' documented windows for the presets'
models (`llm_config.MODEL_CONTEXT`), else what the server's `/models` listing reports for the model (vLLM's
`max_model_len`, LM Studio's and OpenRouter's `context_length`, llama.cpp's `meta.n_ctx_train`, ...), else
DEFAULT_BUDGET. Of a known window, USABLE_SHARE is used (our token counts are a standard tokenizer's, not the
model's), at most MAX_AUTO_BUDGET (one request should not take minutes). The listing is the server's: read with a
deadline, at most MAX_LISTING_BYTES, its numbers kept only within sane bounds; asked once per endpoint and model
every PROBE_TTL_S (a failure too), never with the key sent anywhere else (no redirect carries it).
"""

from __future__ import annotations

import json
import logging
import threading
import time
import urllib.request
from typing import Any

from desktop_rag.engine.answer.llm_config import LLMConfig, known_context

log = logging.getLogger(__name__)

DEFAULT_BUDGET = 8000
MIN_BUDGET = 1000
USABLE_SHARE = 0.8
MAX_AUTO_BUDGET = 100_000
LISTING_DEADLINE_S = 3.0
MAX_LISTING_BYTES = 1_000_000
PROBE_TTL_S = 600.0
_WINDOW_KEYS = ("context_length", "max_context_length", "max_model_len", "context_window", "max_input_tokens",
                "n_ctx", "n_ctx_train")
_SANE_WINDOW = (1024, 10_000_000)
_probed: dict[tuple[str, str], tuple[float, int | None]] = {}
_lock = threading.Lock()


def summary_budget(setting: int, config: LLMConfig | None) -> int:
    """The budget: `setting` when above 0 (at least MIN_BUDGET), else from the model's window, else the default."""
    if setting > 0:
        return max(setting, MIN_BUDGET)
    window = (known_context(config.model) or listed_context(config)) if config is not None else None
    if not window:
        return DEFAULT_BUDGET
    return max(MIN_BUDGET, min(int(window * USABLE_SHARE), MAX_AUTO_BUDGET))


def listed_context(config: LLMConfig) -> int | None:
    """The context window the server's /models listing reports for the configured model (cached), or None."""
    key = (config.base_url, config.model)
    with _lock:
        seen = _probed.get(key)
    if seen is not None and time.monotonic() - seen[0] < PROBE_TTL_S:
        return seen[1]
    try:
        window = window_in_listing(_read_listing(config), config.model)
    except (OSError, ValueError) as exc:  # unreachable, refused, slow, too large, not JSON: not known
        log.info("The model server's listing gave no context window (%s)", exc)
        window = None
    with _lock:
        _probed[key] = (time.monotonic(), window)
    return window


def window_in_listing(listing: Any, model: str) -> int | None:
    """The window of `model` in an OpenAI-style listing ({"data": [{"id": ..., ...}]}), within sane bounds."""
    entries = listing.get("data") if isinstance(listing, dict) else None
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, dict) and entry.get("id") == model:
            for place in (entry, entry.get("meta"), entry.get("top_provider")):
                for name in _WINDOW_KEYS:
                    value = place.get(name) if isinstance(place, dict) else None
                    if isinstance(value, int) and not isinstance(value, bool) and \
                            _SANE_WINDOW[0] <= value <= _SANE_WINDOW[1]:
                        return value
            return None
    return None


def _read_listing(config: LLMConfig) -> Any:
    """GET <base_url>/models: JSON, at most MAX_LISTING_BYTES, done by LISTING_DEADLINE_S (OSError/ValueError)."""
    deadline = time.monotonic() + LISTING_DEADLINE_S
    request = urllib.request.Request(f"{config.base_url}/models", headers={"Accept": "application/json"})
    if config.api_key:
        request.add_unredirected_header("Authorization", f"Bearer {config.api_key}")  # never sent on a redirect
    with urllib.request.urlopen(request, timeout=LISTING_DEADLINE_S) as response:  # noqa: S310 - the user's server
        body = bytearray()
        while chunk := response.read1(65536):  # whatever has arrived: the deadline is looked at
            body += chunk
            if len(body) > MAX_LISTING_BYTES:
                raise ValueError("the listing is too large")
            if time.monotonic() > deadline:
                raise TimeoutError("the listing took too long")
    return json.loads(body.decode("utf-8"))
