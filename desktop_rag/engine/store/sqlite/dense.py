"""The dense index of a library on this computer: the FAISS cache of its stored vectors (sqlite/vector_index.py),
loaded once per process, rebuilt when another process moved the stored vectors under it (their generation), kept
in step with this process's writes and saved after them (never by a read-only process)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.sqlite.vector_index import VectorIndex, open_vector_index, save_cache


class FaissDense:
    """The FAISS cache file `path` of one library (thread-safe)."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        self._index: VectorIndex | None = None
        self._dirty = False  # the loaded cache differs from its saved file
        self._lock = threading.RLock()

    def open(self, store: Store, dimension: int) -> VectorIndex:
        """The cache loaded anew (the saved file when it matches the store, else rebuilt from the stored vectors)."""
        with self._lock:
            self._index = open_vector_index(self.path, store, dimension, save=not self.read_only)
            self._dirty = False
            return self._index

    def loaded(self) -> VectorIndex | None:
        return self._index

    def stale(self, store: Store) -> bool:
        """Another process changed the stored vectors since the cache was loaded."""
        index = self._index
        return index is not None and index.generation != store.vectors_generation()

    def add(self, ids: np.ndarray, matrix: np.ndarray) -> None:
        """Vectors just stored: into the cache if it is loaded (an unloaded one is rebuilt from the store)."""
        with self._lock:
            if len(ids) and self._index is not None:
                self._index.add(ids, matrix)
                self._dirty = True

    def add_stored(self, store: Store, ids: list[int]) -> None:
        """Vectors the store gave chunks itself: read from it into the cache if it is loaded."""
        with self._lock:
            if ids and self._index is not None:
                found = store.stored_vectors(ids)
                if found:
                    self.add(np.fromiter(found, dtype=np.int64, count=len(found)), np.stack(list(found.values())))

    def remove(self, ids: list[int]) -> None:
        with self._lock:
            if ids and self._index is not None:
                self._index.remove(ids)
                self._dirty = True

    def changed(self) -> None:
        """The loaded cache was changed by its holder (an index run's vector phase adds to it directly)."""
        self._dirty = True

    def drop(self, delete_file: bool = False) -> None:
        """Forget the loaded cache (and its file)."""
        with self._lock:
            self._index, self._dirty = None, False
            if delete_file:
                self.path.unlink(missing_ok=True)

    def save(self, stores: Callable[[], Store]) -> None:
        """Write the cache if it changed, stamped with the store's generation (a failed save is logged, retried)."""
        with self._lock:
            if self._index is not None and self._dirty and not self.read_only:
                self._dirty = not save_cache(self._index, self.path, stores().vectors_generation())
