"""Writers of a library on a server: each process writing holds a shared advisory lock of the library, so the
server lists who is writing (`pg_locks`); several clients index at once (transactions keep each file whole). Held
on a connection of its own, so it goes with the process if it dies."""

from __future__ import annotations

import threading
import time

from desktop_rag.engine.errors import LibraryBusyError
from desktop_rag.engine.store.postgres.connection import Connection
from desktop_rag.engine.store.postgres.url import ServerUrl

_KEY = "hashtext('desktop_rag writers')"


class AdvisoryLock:
    """Re-entrant within the process (callers serialise their threads)."""

    def __init__(self, url: ServerUrl) -> None:
        self.url = url
        self._connection: Connection | None = None
        self._depth = 0
        self._lock = threading.Lock()

    @property
    def held(self) -> bool:
        return self._depth > 0

    def acquire(self, wait_s: float = 2.0) -> None:
        """Take the lock, waiting up to `wait_s`; LibraryBusyError if it stays taken (exclusively, by hand)."""
        with self._lock:
            if self._depth == 0:
                self._take(wait_s)
            self._depth += 1

    def release(self) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0 and self._connection is not None:
                self._connection.execute("SELECT pg_advisory_unlock_all()")

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None
            self._depth = 0

    def _take(self, wait_s: float) -> None:
        if self._connection is None:
            self._connection = Connection(self.url, "desktop-rag lock")
        deadline = time.monotonic() + wait_s
        while not self._connection.execute(f"SELECT pg_try_advisory_lock_shared({_KEY})").fetchone()[0]:
            if time.monotonic() >= deadline:
                raise LibraryBusyError.coded("server_busy", server=self.url.display)
            time.sleep(0.1)
