"""Reading a file by its type: each suffix's loader from the reader registry (`file_types.READERS`), size checks."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.file_types import reader_for
from desktop_rag.engine.ingest.documents import ParsedDocument

PageCallback = Callable[[int, int], None]  # (page being recognised, pages to recognise)



def _no_progress(_done: int, _total: int) -> None:
    return None


@dataclass(frozen=True)
class LoadContext:
    """What a loader may need besides the path: a PDF password, whether OCR is on, where page progress goes."""

    password: str = ""  # tried when a PDF does not open with the empty password
    ocr: bool = True
    page: PageCallback = _no_progress
    table_chars: int = 500  # the chunk size: a table is cut into row groups of at most this (ingest.tables)


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
    """Raise LoadError when the file is missing, not a file, or over the size limit; return its size."""
    try:
        st = path.stat()
    except FileNotFoundError as exc:
        raise LoadError.coded("file_vanished") from exc
    except OSError as exc:
        raise LoadError.coded("file_unreadable", reason=exc.strerror or exc) from exc
    if not path.is_file():
        raise LoadError.coded("not_regular_file")
    if max_bytes and st.st_size > max_bytes:
        raise LoadError.coded("file_too_large", name=path.name, mb=format_mb(st.st_size), limit=format_mb(max_bytes))
    return st.st_size


def load(path: Path, *, max_bytes: int, context: LoadContext | None = None) -> ParsedDocument:
    """Parse one file in this process; every failure is a LoadError a person can read."""
    path = Path(path)
    suffix = path.suffix.lower()
    loader = loader_for(suffix)
    if loader is None:
        raise LoadError.coded("type_not_supported", suffix=path.suffix or "(none)")
    check_file(path, max_bytes)
    try:
        return loader(path, context or LoadContext())
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
        raise LoadError.coded("file_unreadable", reason=exc.strerror or exc) from exc
    except Exception as exc:  # a loader bug must not stop the batch
        raise LoadError.coded("reader_failed", error=f"{type(exc).__name__}: {exc}") from exc
