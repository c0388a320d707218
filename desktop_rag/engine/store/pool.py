"""Sharing one library: a pool of per-thread SQLite connections, and the lock that lets one process write."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

from desktop_rag.engine.errors import LibraryBusyError
from desktop_rag.engine.messages import message
from desktop_rag.engine.store.store import Store


class WriterLock:
    """An advisory lock on a file beside the database: one process at a time changes a library's content.

    Re-entrant within the process (callers serialise their threads); readers never take it.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self._depth = 0

    def acquire(self, wait_s: float = 2.0) -> None:
        """Take the lock, waiting up to `wait_s` for another process; raises LibraryBusyError if it stays held."""
        if self._depth == 0:
            self._fd = _take_file_lock(self.path, wait_s)
        self._depth += 1

    def release(self) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the lock
            self._fd = None

    @property
    def held(self) -> bool:
        return self._depth > 0


BUSY_MESSAGE = message("error.library_busy")


def _take_file_lock(path: Path, wait_s: float) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o600)
    deadline = time.monotonic() + wait_s
    while True:
        try:
            _lock_fd(fd)
            return fd
        except OSError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise LibraryBusyError.coded("library_busy") from None
            time.sleep(0.05)


def _lock_fd(fd: int) -> None:
    """An exclusive, non-blocking lock on the open file (raises OSError when another holder has it)."""
    if sys.platform == "win32":
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # per open file: two handles conflict even in one process


class StorePool:
    """Connections for short-lived threads: a thread leases one on first use and it comes back when the thread
    ends (the lease lives in the thread's locals), so open files stay bounded by the threads alive at once."""

    def __init__(self, path: Path, keep_idle: int = 4, read_only: bool = False) -> None:
        self.path = path
        self.keep_idle = keep_idle
        self.read_only = read_only
        self._idle: list[Store] = []
        self._all: set[Store] = set()
        self._lock = threading.RLock()  # re-entrant: a lease may be collected while this thread holds it

    def lease(self) -> "StoreLease":
        with self._lock:
            store = self._idle.pop() if self._idle else None
        if store is None:
            store = Store(self.path, read_only=self.read_only)
            with self._lock:
                self._all.add(store)
        return StoreLease(self, store)

    def give_back(self, store: Store) -> None:
        with self._lock:
            if store not in self._all:  # closed with the pool meanwhile
                return
            if store.db.in_transaction:  # a thread that died mid-transaction: its work is not committed
                store.db.execute("ROLLBACK")
            if len(self._idle) < self.keep_idle:
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

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self._pool = StorePool(path, read_only=read_only)
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
