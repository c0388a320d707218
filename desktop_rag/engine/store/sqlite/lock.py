"""The writer lock of a library on this computer: an advisory lock on a file beside the database, so one process at
a time changes a library's content (any number read)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from desktop_rag.engine.errors import LibraryBusyError
from desktop_rag.engine.messages import message


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
