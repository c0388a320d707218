"""The dense index of a library on a server: the server searches its own vectors (pgvector's HNSW index, kept in
step by every write), so the process holds nothing to load, rebuild or save."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.scope import Restriction


class ServerVectors:
    """The library's vectors on the server, searched there (`PostgresStore.nearest`)."""

    def __init__(self, dimension: int, stores: Callable[[], Store]) -> None:
        self.dimension = dimension
        self._stores = stores

    @property
    def size(self) -> int:
        """1 while any vector is stored, else 0 (the server keeps the index current: nothing is counted here)."""
        return int(self._stores().has_vectors())

    def nearest(self, store: Store, query: np.ndarray, k: int,
                within: Restriction | None = None) -> list[tuple[int, float]]:
        return store.nearest(query, k, within)

    def add(self, ids: Sequence[int] | np.ndarray, vectors: np.ndarray) -> None:
        """Stored vectors are in the server's index already."""

    def remove(self, ids: Sequence[int] | np.ndarray) -> None:
        """Deleted vectors left the server's index with their rows."""


class ServerDense:
    """What the runtime holds for a server library's dense search: only the dimension's view of it."""

    def __init__(self, stores: Callable[[], Store]) -> None:
        self._stores = stores
        self._vectors: ServerVectors | None = None

    def open(self, store: Store, dimension: int) -> ServerVectors:
        self._vectors = ServerVectors(dimension, self._stores)
        return self._vectors

    def loaded(self) -> ServerVectors | None:
        return self._vectors

    def stale(self, store: Store) -> bool:
        return False

    def add(self, ids: np.ndarray, matrix: np.ndarray) -> None:
        pass

    def add_stored(self, store: Store, ids: list[int]) -> None:
        pass

    def remove(self, ids: list[int]) -> None:
        pass

    def changed(self) -> None:
        pass

    def drop(self, delete_file: bool = False) -> None:
        self._vectors = None

    def save(self, stores: Callable[[], Store]) -> None:
        pass
