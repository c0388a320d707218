"""An embedder that uses its fast path and falls back to another one when that path cannot load."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

import numpy as np

from desktop_rag.engine.errors import contain_panics
from desktop_rag.engine.messages import Phrase

log = logging.getLogger(__name__)


class FallbackEmbedder:
    """`primary` (with a `load()` method) unless loading it fails; then `fallback`, for the rest of the run.
    Both must embed into the same space (the same model under two runtimes)."""

    def __init__(self, primary, fallback) -> None:
        self.model_id = primary.model_id
        self._primary, self._fallback = primary, fallback
        self._active = None
        self._lock = threading.Lock()

    @property
    def active(self):
        """The embedder in use, choosing on first call."""
        with self._lock:
            if self._active is None:
                try:
                    with contain_panics(Phrase("phrase.loading_model", model=self.model_id)):  # a native library's too
                        self._primary.load()
                    self._active = self._primary
                except Exception as exc:  # an unloadable fast path of any kind: the fallback serves
                    log.warning("fast embedding runtime unavailable for %s (%s); using the fallback",
                                self.model_id, type(exc).__name__)
                    self._active = self._fallback
            return self._active

    @property
    def runtime(self) -> str:
        return type(self.active).__name__

    @property
    def loaded(self) -> bool:
        return self._active is not None and self._active.loaded

    @property
    def dimension(self) -> int:
        return self._primary.dimension

    @property
    def languages(self):
        return self._primary.languages

    @property
    def speed(self) -> float:
        return self._primary.speed if self._active is None else self._active.speed

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        return self.active.embed(texts, batch_size)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.active.embed_queries(texts)
