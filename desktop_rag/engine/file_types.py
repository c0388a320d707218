"""The supported file types: one table of kinds, suffixes and how messages name them, and the type names
that searches are limited by. Which loader reads each kind lives in `ingest.loaders`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FileType:
    """One kind of document the app reads."""

    kind: str  # "pdf" | "word" | "text" | "markdown" | "image"
    suffixes: tuple[str, ...]  # lower case, with the dot
    label: str  # how messages name the kind ("PDF", "Word .docx", ".md", "images")
    in_process: bool  # read in this process (plain text); the others in the parser's child process


FILE_TYPES: tuple[FileType, ...] = (
    FileType("pdf", (".pdf",), "PDF", False),
    FileType("word", (".docx",), "Word .docx", False),
    FileType("text", (".txt",), ".txt", True),
    FileType("markdown", (".md", ".markdown"), ".md", True),
    FileType("image", (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".bmp"), "images", False),
)
SUPPORTED_SUFFIXES: frozenset[str] = frozenset(s for t in FILE_TYPES for s in t.suffixes)
TEXT_SUFFIXES: frozenset[str] = frozenset(s for t in FILE_TYPES if t.in_process for s in t.suffixes)
MARKDOWN_SUFFIXES: frozenset[str] = frozenset(s for t in FILE_TYPES if t.kind == "markdown" for s in t.suffixes)

# The file types a search can be limited to, as the CLI, the GUI and the MCP tools name them, and the kind of
# each in the table above (which holds their suffixes).
TYPE_NAMES: tuple[str, ...] = ("pdf", "docx", "md", "txt", "image")
_KINDS = {"pdf": "pdf", "docx": "word", "md": "markdown", "txt": "text", "image": "image"}


def supported_types() -> str:
    """The supported kinds for a message: "PDF, Word .docx, .txt, .md, images"."""
    return ", ".join(t.label for t in FILE_TYPES)


def suffix_patterns() -> str:
    """Every supported suffix as a file-name pattern for a file dialog: "*.pdf *.docx *.txt ..."."""
    return " ".join(f"*{s}" for t in FILE_TYPES for s in t.suffixes)


def suffixes_of(name: str) -> tuple[str, ...]:
    """The file suffixes of a type name ("md": .md and .markdown)."""
    return next((t.suffixes for t in FILE_TYPES if t.kind == _KINDS[name]), ())


def is_supported(path: str | Path) -> bool:
    return Path(path).suffix.lower() in SUPPORTED_SUFFIXES
