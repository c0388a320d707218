"""In-memory caches of search: ranked hits by query and library version, query vectors by model, and the answers'
sentence vectors by model and text (LRU, bounded).

The result key holds everything a search depends on (`Engine.search`): the normalised query and its
translations, the scope, k, min_score, the embedding model, whether dense search ran, and the library version
(the backend's library version), so a stale result is never served: a write moves the version and old keys are never asked
for again (they age out). Both caches are safe to use from several threads.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from desktop_rag.engine.store.values import Hit

RESULT_ENTRIES = 256
RESULT_BYTES = 32 * 1024 * 1024
QUERY_VECTOR_ENTRIES = 1024
SENTENCE_VECTOR_ENTRIES = 8192  # the answers' sentences (answer/selection.py): about 25 per answer
_HIT_OVERHEAD = 200  # bytes of a Hit's fields besides its strings


class BoundedLRU:
    """Least recently used entries go first once there are more than `max_entries` or `max_bytes` in all."""

    def __init__(self, max_entries: int, max_bytes: int) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return item[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._items[key] = (value, size)
            self._bytes += size
            while len(self._items) > self.max_entries or self._bytes > self.max_bytes:
                _, (_, dropped) = self._items.popitem(last=False)
                self._bytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._items)

    @property
    def size_bytes(self) -> int:
        return self._bytes


def hits_size(hits: Sequence[Hit]) -> int:
    """Approximate memory of a result list (its strings and fixed fields)."""
    return sum(sys.getsizeof(h.text) + sys.getsizeof(h.path) + sys.getsizeof(h.heading) + _HIT_OVERHEAD
               for h in hits)


def result_cache() -> BoundedLRU:
    return BoundedLRU(RESULT_ENTRIES, RESULT_BYTES)


class CachedQueries:
    """An embedder whose `embed_queries` remembers each question's vector under its model id; all else passes
    through to the wrapped embedder."""

    def __init__(self, embedder: Any, model_id: str, cache: BoundedLRU) -> None:
        self._embedder, self._model_id, self._cache = embedder, model_id, cache

    def __getattr__(self, name: str) -> Any:
        return getattr(self._embedder, name)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return cached_vectors(self._embedder.embed_queries, self._model_id, texts, self._cache)


def cached_vectors(embed: Any, model_id: str, texts: Sequence[str], cache: BoundedLRU) -> np.ndarray:
    """`embed(texts)`, each text's vector remembered under (model id, text): the missing ones embedded in one batch."""
    keys = [(model_id, t) for t in texts]
    found = [cache.get(k) for k in keys]
    missing = [i for i, v in enumerate(found) if v is None]
    if missing:
        fresh = embed([texts[i] for i in missing])
        for i, vector in zip(missing, fresh):
            vector = np.array(vector, dtype=np.float32)
            vector.flags.writeable = False  # shared between callers
            found[i] = vector
            cache.put(keys[i], vector, vector.nbytes + sys.getsizeof(texts[i]))
    return np.stack(found)


def query_vector_cache() -> BoundedLRU:
    return BoundedLRU(QUERY_VECTOR_ENTRIES, QUERY_VECTOR_ENTRIES * 8192)


def sentence_vector_cache() -> BoundedLRU:
    return BoundedLRU(SENTENCE_VECTOR_ENTRIES, SENTENCE_VECTOR_ENTRIES * 2048)
