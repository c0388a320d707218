"""Reading a file by its type: each suffix's loader from the reader registry (`file_types.READERS`), size checks."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.file_types import reader_for
from desktop_rag.engine.ingest.documents import ParsedDocument
from desktop_rag.engine.ingest.valid_text import valid_document, valid_text
from desktop_rag.engine.system_errors import os_reason

PageCallback = Callable[[int, int], None]  # (page being recognised, pages to recognise)
OCR_MAX_PAGES = 300  # the defaults of Settings.ocr_max_pages and .ocr_max_minutes: a long scanned book
OCR_MAX_SECONDS = 30 * 60.0



def _no_progress(_done: int, _total: int) -> None:
    return None


def _no_time(_seconds: float) -> None:
    return None


@dataclass(frozen=True)
class LoadContext:
    """What a loader may need besides the path: a PDF password, whether OCR is on, where page progress goes, the
    OCR limits of one file, and whom to tell that a part with a budget of its own begins (its seconds are added to
    the parser's limit for the file: an e-mail's attachments)."""

    password: str = ""  # tried when a PDF does not open with the empty password
    ocr: bool = True
    page: PageCallback = _no_progress
    table_chars: int = 500  # the chunk size: a table is cut into row groups of at most this (ingest.tables)
    more_time: Callable[[float], None] = _no_time
    ocr_max_pages: int = OCR_MAX_PAGES  # pages of one file sent to text recognition; the rest are left out, noted
    ocr_max_seconds: float = OCR_MAX_SECONDS  # text recognition time of one file; pages after it are left out


Loader = Callable[[Path, LoadContext], ParsedDocument]
# loaders put in place by `register` (tests); every other suffix is read by its reader in the registry
_LOADERS: dict[str, Loader] = {}


def register(suffix: str, loader: Callable[[Path], ParsedDocument]) -> None:
    """Add or replace the loader for a suffix (tests: a loader that hangs or crashes in the parser child)."""
    _LOADERS[suffix.lower()] = lambda path, _context: loader(path)


def loader_for(suffix: str) -> Loader | None:
    """The loader of a suffix: a registered one, else its reader's "module:function", imported now."""
    if suffix in _LOADERS:
        return _LOADERS[suffix]
    reader = reader_for(f"x{suffix}")
    if reader is None:
        return None
    module, _, function = reader.loader.partition(":")
    return getattr(importlib.import_module(module), function)


def format_mb(n_bytes: int | float) -> str:
    """Bytes as a short MB figure: 100, 2.5, 0.1."""
    mb = n_bytes / (1024 * 1024)
    return f"{mb:.0f}" if mb >= 10 or mb == int(mb) else f"{mb:.1f}"


def check_file(path: Path, max_bytes: int) -> int:
    """Raise LoadError when the file is missing, not a file, empty (a copy not begun: not "not a PDF"), or over the
    size limit; return its size."""
    try:
        st = path.stat()
    except FileNotFoundError as exc:
        raise LoadError.coded("file_vanished") from exc
    except OSError as exc:
        raise LoadError.coded("file_unreadable", reason=os_reason(exc)) from exc
    if not path.is_file():
        raise LoadError.coded("not_regular_file")
    if st.st_size == 0:
        raise LoadError.coded("file_empty")
    if max_bytes and st.st_size > max_bytes:
        raise LoadError.coded("file_too_large", name=path.name, mb=format_mb(st.st_size), limit=format_mb(max_bytes))
    return st.st_size


MAX_FAILURE_WORDS = 300  # characters of a library's own words kept in a failure reason


def failure_words(exc: BaseException) -> str:
    """What a library said when it failed, for a reason a person reads: its type and message, valid text
    (`valid_text`: a file's lone surrogate quoted in a KeyError must not stop the reason being stored), bounded."""
    words = valid_text(f"{type(exc).__name__}: {exc}")
    return words if len(words) <= MAX_FAILURE_WORDS else words[:MAX_FAILURE_WORDS - 1] + "…"


def load(path: Path, *, max_bytes: int, context: LoadContext | None = None) -> ParsedDocument:
    """Parse one file in this process; every failure is a LoadError a person can read. The result's text is
    valid text (`valid_text.valid_document`): this is the one way out of every reader."""
    path = Path(path)
    suffix = path.suffix.lower()
    loader = loader_for(suffix)
    if loader is None:
        raise LoadError.coded("type_not_supported", suffix=path.suffix or "(none)")
    check_file(path, max_bytes)
    try:
        return valid_document(loader(path, context or LoadContext()))
    except LoadError:
        raise
    except FileNotFoundError as exc:
        raise LoadError.coded("file_vanished") from exc
    except PermissionError as exc:
        raise LoadError.coded("permission_denied") from exc
    except MemoryError as exc:
        raise LoadError.coded("no_memory") from exc
    except RecursionError as exc:
        raise LoadError.coded("too_deeply_nested") from exc
    except OSError as exc:
        raise LoadError.coded("file_unreadable", reason=os_reason(exc)) from exc
    except Exception as exc:  # a loader bug must not stop the batch
        raise LoadError.coded("reader_failed", error=failure_words(exc)) from exc
