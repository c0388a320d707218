"""The library table's row state: its columns and roles, a source's files and totals, a file's live state."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter

from PySide6.QtCore import Qt

from desktop_rag.engine import FileRecord, Reason, SourceRecord

COL_NAME, COL_STATE, COL_CHUNKS = range(3)
PathRole = Qt.ItemDataRole.UserRole + 1
StateRole = Qt.ItemDataRole.UserRole + 2
ErrorRole = Qt.ItemDataRole.UserRole + 3
KindRole = Qt.ItemDataRole.UserRole + 4  # 'folder'/'file' on a source's row, 'file-row' on a file's
ExpandedRole = Qt.ItemDataRole.UserRole + 5  # a source's row: True/False; None when it has no files to show
LinkedRole = Qt.ItemDataRole.UserRole + 6  # a source's row: False when imported without documents (not linked)

Listing = tuple[tuple[SourceRecord, tuple[FileRecord, ...]], ...]
_PATH, _STATUS, _CHUNKS = attrgetter("path"), attrgetter("status"), attrgetter("chunk_count")


@dataclass(slots=True)
class FileRow:
    """GUI-thread state of one file row."""

    path: str
    state: str
    error: Reason = Reason()  # why it failed, or its reader's note (shown in the interface's language)
    chunks: int = 0
    attachment: bool = False  # an e-mail's attachment, listed under its message


def row_of(record: FileRecord) -> FileRow:
    """A file's row as the listing has it (a pending file shows as queued)."""
    state = "queued" if record.status == "pending" else record.status
    return FileRow(record.path, state, record.error, record.chunk_count, record.parent_id is not None)


def counts(row: FileRow) -> tuple[int, int, int]:
    """(files, chunks, failed) this row adds to its source's totals."""
    if row.state == "removed":
        return 0, 0, 0
    return 1, row.chunks, int(row.state == "failed")


@dataclass(eq=False)
class SourceRow:
    """A source's files in path order, the filter's matches among them, and its totals."""

    path: str
    kind: str
    records: list[FileRecord] = field(default_factory=list)  # every file, by path (new files as stand-ins)
    paths: list[str] = field(default_factory=list)  # records' paths, for bisect
    shown: list[FileRecord] | None = None  # the filter's matches (None: every record)
    shown_paths: list[str] | None = None
    files: int = 0
    chunks: int = 0
    failed: int = 0
    linked: bool = True  # False: imported without its documents, never scanned until the user links it

    def visible(self) -> tuple[list[FileRecord], list[str]]:
        return (self.records, self.paths) if self.shown is None else (self.shown, self.shown_paths or [])


def source_row(record: SourceRecord, files: tuple[FileRecord, ...]) -> SourceRow:
    """A source's row from the listing, its totals summed once."""
    records = list(files)
    statuses = list(map(_STATUS, records))
    return SourceRow(record.path, record.kind, records, list(map(_PATH, records)), files=len(records),
                     chunks=sum(map(_CHUNKS, records)), failed=statuses.count("failed"), linked=not record.detached)
