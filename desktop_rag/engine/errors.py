"""Errors whose messages a person can read and act on."""

from __future__ import annotations


class DesktopRagError(Exception):
    """Base class: the message is meant for the user."""


class LoadError(DesktopRagError):
    """A file could not be read; the message says why (stored on the file)."""


class ModelMismatchError(DesktopRagError):
    """The index was built with other embedding/chunking settings than those in use."""


class UsageError(DesktopRagError):
    """Bad input from the user (a path that does not exist, a bad option)."""


class LibraryBusyError(DesktopRagError):
    """Another process (a second window, a CLI run) is writing to the same library right now."""


class DiskFullError(DesktopRagError):
    """The disk holding the library filled up during a write; what was committed before is intact."""


def disk_full_message(where: object) -> str:
    """What happened, that nothing is lost, and what to do, for a full disk under `where`."""
    return (f"The disk holding your library ({where}) is full, so indexing stopped. Nothing is lost: every "
            "file indexed before this point is saved and intact. Free some disk space, then run the index "
            "again; it continues where it stopped.")


def is_disk_full(exc: BaseException) -> bool:
    """True for SQLite's "database or disk is full" and for an OS write that found no space (ENOSPC/EDQUOT)."""
    import errno
    import sqlite3

    if isinstance(exc, sqlite3.OperationalError):
        return getattr(exc, "sqlite_errorcode", None) == 13 or "disk is full" in str(exc)  # 13 = SQLITE_FULL
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))
    return False


class disk_full_guard:  # noqa: N801 - used as a context manager, reads like one
    """Turn a full-disk failure inside the block into a DiskFullError with a message a person can act on."""

    def __init__(self, where: object) -> None:
        self.where = where

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc is not None and not isinstance(exc, DiskFullError) and is_disk_full(exc):
            raise DiskFullError(disk_full_message(self.where)) from exc
        return False


# What ends a program or closes a generator: these pass through every handler. Anything else that derives from
# BaseException alone is a failure like any other, e.g. pyo3's PanicException, raised when a Rust library such as
# `tokenizers` panics (a crafted tokenizer.json's regex): caught as Exception it would not be, and escape every handler.
PASS_THROUGH = (KeyboardInterrupt, SystemExit, GeneratorExit)


class contain_panics:  # noqa: N801 - used as a context manager, reads like one
    """Turn a native library's panic inside the block (a BaseException that is neither an Exception nor one of
    PASS_THROUGH) into a DesktopRagError: `what` failed, with the library's words."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc is not None and not isinstance(exc, (Exception, *PASS_THROUGH)):
            raise DesktopRagError(f"{self.what} failed inside a native library ({str(exc)[:300]}).") from exc
        return False
