"""The library tree model: sources and their files, with live per-file state from index events."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from desktop_rag.engine.store import FileRecord, SourceRecord
from desktop_rag.engine.types import FileEvent
from desktop_rag.gui import i18n

COL_NAME, COL_STATE, COL_CHUNKS = range(3)
_HEADERS = ("library.col.name", "library.col.state", "library.col.chunks")
_STATE_COLOURS = {"failed": "#c62828", "indexing": "#1565c0", "queued": "#6d6d6d", "pending": "#6d6d6d",
                  "removed": "#9e9e9e"}
PathRole = Qt.ItemDataRole.UserRole + 1
StateRole = Qt.ItemDataRole.UserRole + 2
ErrorRole = Qt.ItemDataRole.UserRole + 3
KindRole = Qt.ItemDataRole.UserRole + 4

Listing = tuple[tuple[SourceRecord, tuple[FileRecord, ...]], ...]


@dataclass
class FileRow:
    """GUI-thread state of one file row."""

    path: str
    state: str
    error: str = ""
    chunks: int = 0


@dataclass
class SourceRow:
    path: str
    kind: str
    files: list[FileRow] = field(default_factory=list)


def _state_of(record: FileRecord) -> str:
    return "queued" if record.status == "pending" else record.status


def _shape(sources: list[SourceRow]) -> list[tuple[str, list[str]]]:
    return [(s.path, [f.path for f in s.files]) for s in sources]


class LibraryModel(QAbstractItemModel):
    """Top level: sources; children: files. Columns: name, state, chunks."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._sources: list[SourceRow] = []
        i18n.on_change(self._retranslate)

    # ---- loading and live updates ----

    def load(self, listing: Listing) -> None:
        """Replace everything with a fresh listing from the store (in place when the rows are the same)."""
        fresh = [
            SourceRow(s.path, s.kind, [FileRow(f.path, _state_of(f), f.error, f.chunk_count) for f in files])
            for s, files in listing
        ]
        if _shape(fresh) == _shape(self._sources):
            self._sources = fresh  # same rows: a cheap repaint instead of a reset (keeps selection and expansion)
            for s_row, source in enumerate(fresh):
                if source.files:
                    parent = self.index(s_row, 0)
                    self.dataChanged.emit(self.index(0, 0, parent), self.index(len(source.files) - 1, COL_CHUNKS, parent))
            if fresh:
                self.dataChanged.emit(self.index(0, 0), self.index(len(fresh) - 1, COL_CHUNKS))
            return
        self.beginResetModel()
        self._sources = fresh
        self.endResetModel()

    def add_sources(self, rows: list[tuple[str, str]]) -> None:
        """Show new (path, kind) sources at once, so live file events have a home before the next refresh."""
        for path, kind in rows:
            if self._source_row_for(path) is not None:
                continue
            position = sum(1 for s in self._sources if s.path < path)
            self.beginInsertRows(QModelIndex(), position, position)
            self._sources.insert(position, SourceRow(path, kind))
            self.endInsertRows()

    def files_of(self, source_path: str) -> list[str]:
        return [f.path for s in self._sources if s.path == source_path for f in s.files]

    def apply(self, event: FileEvent) -> None:
        """Update one file from an index FileEvent (inserting it under its source when new)."""
        if event.state == "skipped":
            return
        found = self._find(event.path)
        if found is None:
            s_row = self._source_row_for(event.path)
            if s_row is None or event.state == "removed":
                return
            source = self._sources[s_row]
            position = sum(1 for f in source.files if f.path < event.path)
            self.beginInsertRows(self.index(s_row, 0), position, position)
            source.files.insert(position, FileRow(event.path, event.state, event.error, event.chunks))
            self.endInsertRows()
            return
        s_row, f_row = found
        row = self._sources[s_row].files[f_row]
        row.state = event.state
        row.error = event.error if event.state == "failed" else ""
        if event.state in ("indexed", "unchanged", "failed", "removed"):
            row.chunks = event.chunks
        parent = self.index(s_row, 0)
        self.dataChanged.emit(self.index(f_row, 0, parent), self.index(f_row, COL_CHUNKS, parent))
        self.dataChanged.emit(self.index(s_row, COL_CHUNKS), self.index(s_row, COL_CHUNKS))

    def _find(self, path: str) -> tuple[int, int] | None:
        for s_row, source in enumerate(self._sources):
            if source.kind == "folder" and not path.startswith(source.path) and path != source.path:
                continue
            for f_row, f in enumerate(source.files):
                if f.path == path:
                    return s_row, f_row
        return None

    def _source_row_for(self, path: str) -> int | None:
        best, best_len = None, -1
        for s_row, source in enumerate(self._sources):
            inside = path == source.path or path.startswith(source.path.rstrip("/\\") + os.sep)
            if inside and len(source.path) > best_len:
                best, best_len = s_row, len(source.path)
        return best

    def file_row(self, path: str) -> FileRow | None:
        found = self._find(path)
        return self._sources[found[0]].files[found[1]] if found else None

    def index_of(self, path: str) -> QModelIndex:
        """The index of a file (preferred) or source by path (invalid when unknown)."""
        found = self._find(path)
        if found is not None:
            return self.index(found[1], 0, self.index(found[0], 0))
        for s_row, source in enumerate(self._sources):
            if source.path == path:
                return self.index(s_row, 0)
        return QModelIndex()

    def totals(self) -> dict[str, int]:
        files = [f for s in self._sources for f in s.files if f.state != "removed"]
        return {
            "sources": len(self._sources),
            "files": len(files),
            "chunks": sum(f.chunks for f in files),
            "failed": sum(1 for f in files if f.state == "failed"),
        }

    def source_paths(self) -> list[tuple[str, str]]:
        return [(s.path, s.kind) for s in self._sources]

    def _retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, COL_CHUNKS)
        if self._sources:
            self.dataChanged.emit(self.index(0, COL_STATE), self.index(len(self._sources) - 1, COL_STATE))

    # ---- QAbstractItemModel ----

    def index(self, row: int, column: int, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0)  # internalId 0: a source row
        return self.createIndex(row, column, parent.row() + 1)  # files: their source's row + 1

    def parent(self, child: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not child.isValid():
            return QModelIndex()
        tag = child.internalId()
        if tag == 0:
            return QModelIndex()
        return self.createIndex(tag - 1, 0, 0)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        if not parent.isValid():
            return len(self._sources)
        if self._is_source(parent) and parent.column() == 0:
            return len(self._sources[parent.row()].files)
        return 0

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 3

    def _is_source(self, index: QModelIndex | QPersistentModelIndex) -> bool:
        return index.internalId() == 0

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return i18n.tr(_HEADERS[section])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if self._is_source(index):
            source = self._sources[index.row()]
            return self._source_data(source, index.column(), role)
        source = self._sources[index.internalId() - 1]
        if index.row() >= len(source.files):
            return None
        return self._file_data(source.files[index.row()], index.column(), role)

    def _source_data(self, source: SourceRow, column: int, role: int):
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_NAME:
                return os.path.basename(source.path.rstrip("/\\")) or source.path
            if column == COL_STATE:
                failed = sum(1 for f in source.files if f.state == "failed")
                text = i18n.tr(f"state.{source.kind}")
                return f"{text} · {failed} ✗" if failed else text
            if column == COL_CHUNKS:
                return sum(f.chunks for f in source.files if f.state != "removed")
        if role == Qt.ItemDataRole.ToolTipRole:
            return source.path
        if role == PathRole:
            return source.path
        if role == KindRole:
            return source.kind
        return None

    def _file_data(self, row: FileRow, column: int, role: int):
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_NAME:
                return os.path.basename(row.path)
            if column == COL_STATE:
                return i18n.tr(f"state.{row.state}") if row.state else ""
            if column == COL_CHUNKS:
                return row.chunks if row.state in ("indexed", "unchanged") else ""
        if role == Qt.ItemDataRole.ToolTipRole:
            return i18n.tr("library.failed_reason", reason=row.error) if row.error else row.path
        if role == Qt.ItemDataRole.ForegroundRole and column == COL_STATE and row.state in _STATE_COLOURS:
            return QBrush(QColor(_STATE_COLOURS[row.state]))
        if role == Qt.ItemDataRole.TextAlignmentRole and column == COL_CHUNKS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == PathRole:
            return row.path
        if role == StateRole:
            return row.state
        if role == ErrorRole:
            return row.error
        if role == KindRole:
            return "file-row"
        return None
