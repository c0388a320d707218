"""Loader registry: dispatch a file to the PDF, Word or text loader by its suffix."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.types import ParsedDocument

Loader = Callable[[Path], ParsedDocument]

SUPPORTED_SUFFIXES: frozenset[str] = frozenset({".pdf", ".docx", ".txt", ".md", ".markdown"})
TEXT_SUFFIXES: frozenset[str] = frozenset({".txt", ".md", ".markdown"})

VANISHED = "The file was moved or deleted while it was being read"


def _load_pdf(path: Path) -> ParsedDocument:
    from desktop_rag.engine.loaders.pdf import load_pdf

    return load_pdf(path)


def _load_docx(path: Path) -> ParsedDocument:
    from desktop_rag.engine.loaders.docx import load_docx

    return load_docx(path)


def _load_text(path: Path) -> ParsedDocument:
    from desktop_rag.engine.loaders.text import load_text

    return load_text(path)


_LOADERS: dict[str, Loader] = {
    ".pdf": _load_pdf,
    ".docx": _load_docx,
    ".txt": _load_text,
    ".md": _load_text,
    ".markdown": _load_text,
}


def register(suffix: str, loader: Loader) -> None:
    """Add or replace the loader for a suffix (extensions and tests)."""
    _LOADERS[suffix.lower()] = loader


def is_supported(path: Path) -> bool:
    """True when a loader exists for the file's suffix."""
    return Path(path).suffix.lower() in _LOADERS


def format_mb(n_bytes: int | float) -> str:
    """Bytes as a short MB figure: 100, 2.5, 0.1."""
    mb = n_bytes / (1024 * 1024)
    return f"{mb:.0f}" if mb >= 10 or mb == int(mb) else f"{mb:.1f}"


def check_file(path: Path, max_bytes: int) -> int:
    """Raise LoadError when the file is missing, not a file, or over the size limit; return its size."""
    try:
        st = path.stat()
    except FileNotFoundError as exc:
        raise LoadError(VANISHED) from exc
    except OSError as exc:
        raise LoadError(f"The file could not be read ({exc.strerror or exc})") from exc
    if not path.is_file():
        raise LoadError("This is not a regular file")
    if max_bytes and st.st_size > max_bytes:
        raise LoadError(
            f"{path.name} is {format_mb(st.st_size)} MB, larger than the limit of "
            f"{format_mb(max_bytes)} MB (Settings)"
        )
    return st.st_size


def load(path: Path, *, max_bytes: int) -> ParsedDocument:
    """Parse one file in this process; every failure is a LoadError a person can read."""
    path = Path(path)
    loader = _LOADERS.get(path.suffix.lower())
    if loader is None:
        raise LoadError(f"Files of type '{path.suffix or '(none)'}' are not supported")
    check_file(path, max_bytes)
    try:
        return loader(path)
    except LoadError:
        raise
    except FileNotFoundError as exc:
        raise LoadError(VANISHED) from exc
    except PermissionError as exc:
        raise LoadError("Permission denied: this file cannot be opened for reading") from exc
    except MemoryError as exc:
        raise LoadError("Not enough memory to read this file") from exc
    except RecursionError as exc:
        raise LoadError("This file is too deeply nested to be read") from exc
    except OSError as exc:
        raise LoadError(f"The file could not be read ({exc.strerror or exc})") from exc
    except Exception as exc:  # a loader bug must not stop the batch
        raise LoadError(f"The reader failed on this file ({type(exc).__name__}: {exc})") from exc
