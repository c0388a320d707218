"""Deterministic bag-of-words hashing vectors: for tests about something other than semantics."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

HASH_PREFIX = "hash:"


class HashEmbedder:
    """Hashes words into a fixed number of buckets; no model, no meaning beyond shared words."""

    languages = None
    language_direction = False  # bag of words: no "this is English" direction to take out (search.calibration)
    speed = 5000.0

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

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed(texts)
