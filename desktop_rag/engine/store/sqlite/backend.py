"""The default backend: a library in the data folder of this computer, one SQLite file (the truth) with its FAISS
cache, written by one process at a time (`library.lock`)."""

from __future__ import annotations

from collections.abc import Callable

from desktop_rag.config import AppPaths
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.pool import ThreadStores
from desktop_rag.engine.store.sqlite.dense import FaissDense
from desktop_rag.engine.store.sqlite.lock import WriterLock
from desktop_rag.engine.store.sqlite.store import SqliteStore


class SqliteBackend:
    shared = False

    def __init__(self, paths: AppPaths, read_only: bool = False) -> None:
        self.location = str(paths.database)
        self.read_only = read_only  # the MCP server: SQLite opened mode=ro, no cache written, no writer lock
        self._stores = ThreadStores(lambda: SqliteStore(paths.database, read_only=read_only))
        self.writer = WriterLock(paths.database.with_name("library.lock"))
        self.dense = FaissDense(paths.vector_index, read_only)

    def store(self) -> Store:
        """This thread's connection."""
        return self._stores.current()

    def listen(self, on_change: Callable[[], None]) -> None:
        return None  # (its files are watched: a change of them says the same)

    def grant(self, collection_id: int, role: str, revoke: bool = False) -> bool:
        raise UsageError.coded("not_a_server_library")

    def grants(self) -> list[tuple[str, str]]:
        return []

    def close(self) -> None:
        self._stores.close()
