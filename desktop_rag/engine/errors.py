"""Errors whose messages a person can read and act on."""

from __future__ import annotations


class DesktopRagError(Exception):
    """Base class: the message is meant for the user.

    Raise it with a message code to have it shown in the user's language: `UsageError.coded("unknown_collection",
    name=name)` takes the texts of "error.unknown_collection" in `messages.TEXTS` (English and Chinese; the error
    texts live in `error_texts/`); str(exc) is the English text, `error_text(exc, language)` the one a front end
    shows. A value may be a `messages.Phrase` (a text of its own, shown in the same language).
    """

    code: str | None = None
    values: dict[str, object] = {}

    @classmethod
    def coded(cls, code: str, /, *args: object, **values: object) -> "DesktopRagError":
        """This error with the text of message "error.<code>" filled with `values` (KeyError for an unknown code);
        `args` go before the text to the constructor (`DownloadError.coded("bad_revision", "invalid", ...)`)."""
        from desktop_rag.engine.messages import message

        exc = cls(*args, message(f"error.{code}", "en", **values))
        exc.code, exc.values = code, dict(values)
        return exc


class LoadError(DesktopRagError):
    """A file could not be read; the message says why (stored on the file)."""


class ModelMismatchError(DesktopRagError):
    """The index was built with other embedding/chunking settings than those in use."""


class UsageError(DesktopRagError):
    """Bad input from the user (a path that does not exist, a bad option)."""


class ConfirmationNeeded(UsageError):  # noqa: N818 - says what it is: the person's yes is needed first
    """What was asked needs the person's yes first (a summary over the request limit): nothing was done."""


class LibraryBusyError(DesktopRagError):
    """Another process (a second window, a CLI run) is writing to the same library right now."""


class DiskFullError(DesktopRagError):
    """The disk holding the library filled up during a write; what was committed before is intact."""


class LibraryUnavailableError(DesktopRagError):
    """The library cannot be reached or written right now (its server went away, refuses this role, is starting):
    no file's fault, so an index run stops rather than fail every file after it; what was committed is intact."""


def error_text(failure: BaseException | object, language: str = "en", front: str = "cli") -> str:
    """What the front end `front` ("cli", "window": `messages.CLI`, `messages.WINDOW`) shows for a failure in
    `language` ("en" or "zh"): a coded error's text, or a stored reason's (`reasons.Reason`, a `messages.Phrase`), in
    that language and worded for it; any other error's words, or a string, as they are. Nothing is read back from
    English prose (issue 49): whatever must show in Chinese carries its code."""
    from desktop_rag.engine.messages import Localised, message

    if isinstance(failure, Localised):
        return failure.text(language, front)
    code = getattr(failure, "code", None)
    if isinstance(failure, DesktopRagError) and code:
        return message(f"error.{code}", language, front, **failure.values)
    return failure if isinstance(failure, str) else str(failure)


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
            raise DiskFullError.coded("disk_full", where=self.where) from exc
        return False


# What ends a program or closes a generator: these pass through every handler. Anything else that derives from
# BaseException alone is a failure like any other, e.g. pyo3's PanicException, raised when a Rust library such as
# `tokenizers` panics (a crafted tokenizer.json's regex): caught as Exception it would not be, and escape every handler.
PASS_THROUGH = (KeyboardInterrupt, SystemExit, GeneratorExit)


class contain_panics:  # noqa: N801 - used as a context manager, reads like one
    """Turn a native library's panic inside the block (a BaseException that is neither an Exception nor one of
    PASS_THROUGH) into a DesktopRagError: `what` (a name, or a `messages.Phrase`) failed, with the library's
    words."""

    def __init__(self, what: object) -> None:
        self.what = what

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc is not None and not isinstance(exc, (Exception, *PASS_THROUGH)):
            from desktop_rag.engine.system_errors import foreign_reason

            raise DesktopRagError.coded("native_panic", what=self.what, detail=foreign_reason(exc)) from exc
        return False
