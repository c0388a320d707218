"""How fast each model has answered in this process, for a summary's time estimate (`Summariser.plan`).

Every finished request (`LLMClient.stream` / `complete`) adds (weighted characters, seconds) to its endpoint and
model's last KEEP: a character the model wrote counts 1, one it read 1/READ_PER_WRITE (an assumption: reading a
prompt is that much faster than writing). An estimate is the request's weighted characters times the recent
seconds per weighted character; None before any request of that model (no guess is shown then).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable

READ_PER_WRITE = 10
KEEP = 20
_history: dict[tuple[str, str], deque[tuple[float, float]]] = {}
_lock = threading.Lock()


def observe(base_url: str, model: str, prompt_chars: int, reply_chars: int, seconds: float) -> None:
    """A finished request: what it read and wrote, and how long it took (retries included)."""
    if reply_chars <= 0 or seconds <= 0:
        return
    with _lock:
        _history.setdefault((base_url, model), deque(maxlen=KEEP)).append((_weighted(prompt_chars, reply_chars),
                                                                            seconds))


def estimate(base_url: str, model: str, requests: Iterable[tuple[int, int]]) -> float | None:
    """Seconds for requests of (prompt characters, reply characters) at this model's recent speed, or None."""
    with _lock:
        seen = list(_history.get((base_url, model), ()))
    if not seen:
        return None
    rate = sum(s for _, s in seen) / sum(w for w, _ in seen)
    return rate * sum(_weighted(read, written) for read, written in requests)


def _weighted(read: int, written: int) -> float:
    return read / READ_PER_WRITE + written
