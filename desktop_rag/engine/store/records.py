"""The library's rows as the stages see them, whichever backend holds them (store/library.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.types import ChunkDraft

DEFAULT_COLLECTION = "Default"


@dataclass(frozen=True)
class FileRecord:
    """A file row as the reconciler and the library panel see it."""

    id: int
    source_id: int
    path: str
    size: int
    mtime_ns: int
    sha256: str
    status: str
    error: Reason  # why it failed, or its reader's note on an indexed file
    chunk_count: int
    parent_id: int | None = None  # an e-mail's attachment: the file row of the message that carries it


@dataclass(frozen=True)
class AttachmentRows:
    """One attachment of a file, as replace_file_chunks stores it: a file row below its carrier's path."""

    path: str
    size: int
    sha256: str
    chunks: Sequence[ChunkDraft]
    note: Reason = Reason()


@dataclass(frozen=True)
class SourceRecord:
    id: int
    path: str
    kind: str
    collection_id: int = 1
    detached: bool = False  # not linked to this computer: imported without its documents, or another computer's
