"""Each thread's own connection to one library: a pool of connections (any backend's stores), leased by a thread on
first use and given back when it ends."""

from __future__ import annotations

import threading
from collections.abc import Callable

from desktop_rag.engine.store.library import Store


class StorePool:
    """Connections for short-lived threads: a thread leases one on first use and it comes back when the thread
    ends (the lease lives in the thread's locals), so open files stay bounded by the threads alive at once."""

    def __init__(self, connect: Callable[[], Store], keep_idle: int = 4) -> None:
        self.connect = connect
        self.keep_idle = keep_idle
        self._idle: list[Store] = []
        self._all: set[Store] = set()
        self._lock = threading.RLock()  # re-entrant: a lease may be collected while this thread holds it

    def lease(self) -> "StoreLease":
        with self._lock:
            store = self._idle.pop() if self._idle else None
        if store is None:
            store = self.connect()
            with self._lock:
                self._all.add(store)
        return StoreLease(self, store)

    def give_back(self, store: Store) -> None:
        with self._lock:
            if store not in self._all:  # closed with the pool meanwhile
                return
            try:
                if store.db.in_transaction:  # a thread that died mid-transaction: its work is not committed
                    store.db.execute("ROLLBACK")
                usable = True
            except Exception:  # noqa: BLE001 - a connection the server dropped: not kept
                usable = False
            if usable and len(self._idle) < self.keep_idle:
                self._idle.append(store)
                return
            self._all.discard(store)
        store.close()

    def close(self) -> None:
        """Close every connection, leased or idle (stop the threads using them first); the pool can be reused."""
        with self._lock:
            stores, self._all, self._idle = list(self._all), set(), []
        for store in stores:
            store.close()


class StoreLease:
    """A thread's hold on a pooled Store; dropping it (the thread ended) returns the Store to the pool."""

    def __init__(self, pool: StorePool, store: Store) -> None:
        self.pool = pool
        self.store = store

    def __del__(self) -> None:
        try:
            self.pool.give_back(self.store)
        except Exception:  # noqa: BLE001 - never raise from a finaliser (interpreter shutdown, closed database)
            pass


class ThreadStores:
    """Each thread's own connection to one library, leased from a pool on first use and given back when the
    thread ends (the provider the engine and its runtime read the library through)."""

    def __init__(self, connect: Callable[[], Store]) -> None:
        self._pool = StorePool(connect)
        self._local = threading.local()

    def current(self) -> Store:
        """This thread's connection."""
        lease = getattr(self._local, "lease", None)
        if lease is None:
            lease = self._local.lease = self._pool.lease()
        return lease.store

    def close(self) -> None:
        """Close every connection (stop the threads using them first); connections are leased anew afterwards."""
        self._local = threading.local()
        self._pool.close()
