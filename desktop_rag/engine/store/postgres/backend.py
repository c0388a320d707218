"""A library on a PostgreSQL server with pgvector, shared by several computers and people (row-level security
decides who sees which collection; postgres/schema.py)."""

from __future__ import annotations

from collections.abc import Callable

from desktop_rag.config import AppPaths
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.pool import ThreadStores
from desktop_rag.engine.store.postgres.changes import ChangesListener
from desktop_rag.engine.store.postgres.dense import ServerDense
from desktop_rag.engine.store.postgres.lock import AdvisoryLock
from desktop_rag.engine.store.postgres.store import PostgresStore
from desktop_rag.engine.store.postgres.url import parse_server_url


class PostgresBackend:
    shared = True

    def __init__(self, location: str, paths: AppPaths, read_only: bool = False, client: str = "") -> None:
        url = parse_server_url(location)
        self.url = url
        self.location = url.display
        self.read_only = read_only
        self._stores = ThreadStores(lambda: PostgresStore(url, read_only, client))
        self.writer = AdvisoryLock(url)
        self.dense = ServerDense(self._stores.current)

    def store(self) -> Store:
        """This thread's connection (made on first use)."""
        return self._stores.current()

    def listen(self, on_change: Callable[[], None]) -> ChangesListener:
        """Hear other clients' commits (a connection of its own, on a thread of its own: changes.py)."""
        return ChangesListener(self.url, on_change)

    def grant(self, collection_id: int, role: str, revoke: bool = False) -> bool:
        """Grant a collection to a role (or take it back); False when there was no such grant to take back."""
        from desktop_rag.engine.store.postgres import grants

        store = self.store()
        with store.transaction() as db:
            if revoke:
                return grants.revoke(db, collection_id, role)
            grants.grant(db, collection_id, role)
            return True

    def grants(self) -> list[tuple[str, str]]:
        from desktop_rag.engine.store.postgres import grants

        return grants.listing(self.store().db)

    def close(self) -> None:
        self._stores.close()
        self.writer.close()
