"""The library as a flat table: each source's row, then (while it is expanded) its files, with live state.

Built for 100k files: the listing's records are kept as they are (no per-file object is made on load), a file is
found by path in a dict, per-source totals are kept up to date instead of summed, repaints are batched, file events
are applied in time slices, and a name filter runs in slices. A flat table instead of a tree: QTreeView lays out
every row it holds on each insert or remove (a Python call per row), a QTableView asks only for the visible rows,
so an expanded source shows all its files at a true scrollbar and a live insert costs the same at any size.
Row -> (source, file position) goes through per-source start rows and a bisect; expansion is kept here.
"""

from __future__ import annotations

import bisect
import collections
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import attrgetter

from PySide6.QtCore import (
    QAbstractTableModel, QModelIndex, QModelRoleDataSpan, QPersistentModelIndex, Qt, QTimer, Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QApplication, QStyle

from desktop_rag.engine.paths import is_inside
from desktop_rag.engine.store import FileRecord, SourceRecord
from desktop_rag.engine.types import FileEvent
from desktop_rag.gui import gc_guard, i18n

COL_NAME, COL_STATE, COL_CHUNKS = range(3)
_HEADERS = ("library.col.name", "library.col.state", "library.col.chunks")
_STATE_COLOURS = {"failed": "#c62828", "indexing": "#1565c0", "queued": "#6d6d6d", "pending": "#6d6d6d",
                  "removed": "#9e9e9e"}
PathRole = Qt.ItemDataRole.UserRole + 1
StateRole = Qt.ItemDataRole.UserRole + 2
ErrorRole = Qt.ItemDataRole.UserRole + 3
KindRole = Qt.ItemDataRole.UserRole + 4  # 'folder'/'file' on a source's row, 'file-row' on a file's
ExpandedRole = Qt.ItemDataRole.UserRole + 5  # a source's row: True/False; None when it has no files to show

Listing = tuple[tuple[SourceRecord, tuple[FileRecord, ...]], ...]
REPAINT_MS = 50  # live state changes are repainted in batches
SLICE_S = 0.008  # a filter, or the file events waiting in the inbox, take at most this long per event-loop turn
MERGE_MAX = 64  # a refresh that adds/drops at most this many files of a source moves only those rows
_PATH, _STATUS, _CHUNKS = attrgetter("path"), attrgetter("status"), attrgetter("chunk_count")


@dataclass(slots=True)
class FileRow:
    """GUI-thread state of one file row."""

    path: str
    state: str
    error: str = ""
    chunks: int = 0


def _row_of(record: FileRecord) -> FileRow:
    state = "queued" if record.status == "pending" else record.status
    return FileRow(record.path, state, record.error, record.chunk_count)


def _counts(row: FileRow) -> tuple[int, int, int]:
    """(files, chunks, failed) this row adds to its source's totals."""
    if row.state == "removed":
        return 0, 0, 0
    return 1, row.chunks, int(row.state == "failed")


@dataclass(eq=False)
class SourceRow:
    path: str
    kind: str
    records: list[FileRecord] = field(default_factory=list)  # every file, by path (new files as stand-ins)
    paths: list[str] = field(default_factory=list)  # records' paths, for bisect
    shown: list[FileRecord] | None = None  # the filter's matches (None: every record)
    shown_paths: list[str] | None = None
    files: int = 0
    chunks: int = 0
    failed: int = 0

    def visible(self) -> tuple[list[FileRecord], list[str]]:
        return (self.records, self.paths) if self.shown is None else (self.shown, self.shown_paths or [])


class LibraryModel(QAbstractTableModel):
    """Rows: a source, then its shown files while it is expanded. Columns: name, state, chunks."""

    filter_done = Signal()
    _wake = Signal()  # from `post` on the index worker's thread: events are waiting in the inbox

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._sources: list[SourceRow] = []
        self._where: dict[str, SourceRow] = {}  # file path -> its source
        self._unmapped: list[SourceRow] = []  # sources of a new listing whose paths are not in _where yet
        self._map_timer = QTimer(self, interval=0)  # maps them a source per event-loop turn
        self._map_timer.timeout.connect(self._map_step)
        self._rows: dict[int, int] = {}  # id(source) -> its position in _sources
        self._expanded: set[str] = set()  # source paths whose files are rows
        self._starts: list[int] = []  # the row of each source
        self._total = 0  # rows
        self._live: dict[str, FileRow] = {}  # files whose state changed since the listing
        self._dirty: dict[int, tuple[int, int]] = {}  # source position -> (first, last) changed file positions
        self._repaint = QTimer(self, singleShot=True, interval=REPAINT_MS)
        self._repaint.timeout.connect(self._flush_repaint)
        self._needle = ""
        self._filter_job: Iterator[None] | None = None
        self._filter_timer = QTimer(self, interval=0)
        self._filter_timer.timeout.connect(self._filter_step)
        # File events from the index worker: a start-up reconcile sends one per file (100k), which as queued
        # signals would be delivered in one uninterrupted batch; the inbox takes them in time slices instead.
        self._inbox: collections.deque[FileEvent] = collections.deque()
        self._inbox_lock = threading.Lock()
        self._woken = False
        self._drain_timer = QTimer(self, interval=0)
        self._drain_timer.timeout.connect(self._drain_slice)
        self._wake.connect(self._drain_timer.start)
        self._bold: QFont | None = None
        i18n.on_change(self._retranslate)

    # ---- rows ----

    def _layout(self) -> None:
        """Recompute each source's row (call between begin*Rows and end*Rows)."""
        starts, row, expanded = [], 0, self._expanded
        for source in self._sources:
            starts.append(row)
            row += 1 + (len(source.visible()[0]) if source.path in expanded else 0)
        self._starts, self._total = starts, row

    def _locate(self, row: int) -> tuple[int, int]:
        """(source position, file position) of a row; file position -1 is the source's own row."""
        s_pos = bisect.bisect_right(self._starts, row) - 1
        return s_pos, row - self._starts[s_pos] - 1

    def _file_row(self, s_pos: int, position: int) -> int:
        return self._starts[s_pos] + 1 + position

    def _shown(self, source: SourceRow) -> int:
        """How many file rows a source has in the table now."""
        return len(source.visible()[0]) if source.path in self._expanded else 0

    # ---- expansion ----

    def is_expanded(self, path: str) -> bool:
        return path in self._expanded

    def expand(self, path: str) -> None:
        """Show a source's (filtered) files under its row."""
        s_pos = self._position_of_source(path)
        if s_pos is None or path in self._expanded:
            return
        count = len(self._sources[s_pos].visible()[0])
        first = self._starts[s_pos] + 1
        if count:
            self.beginInsertRows(QModelIndex(), first, first + count - 1)
        self._expanded.add(path)
        self._layout()
        if count:
            self.endInsertRows()
        self._source_changed(s_pos)

    def collapse(self, path: str) -> None:
        """Hide a source's files (their state and the totals stay up to date)."""
        s_pos = self._position_of_source(path)
        if s_pos is None or path not in self._expanded:
            return
        count = self._shown(self._sources[s_pos])
        first = self._starts[s_pos] + 1
        if count:
            self.beginRemoveRows(QModelIndex(), first, first + count - 1)
        self._expanded.discard(path)
        self._layout()
        if count:
            self.endRemoveRows()
        self._source_changed(s_pos)

    def toggle(self, path: str) -> None:
        (self.collapse if path in self._expanded else self.expand)(path)

    def _position_of_source(self, path: str) -> int | None:
        for s_pos, source in enumerate(self._sources):
            if source.path == path:
                return s_pos
        return None

    def _source_changed(self, s_pos: int) -> None:
        row = self._starts[s_pos]
        self.dataChanged.emit(self.createIndex(row, COL_NAME), self.createIndex(row, COL_CHUNKS))

    # ---- loading ----

    def load(self, listing: Listing) -> None:
        """Take a fresh listing from the store: in place when the sources are the same (a source whose files
        changed gets only those rows moved when they are few, keeping expansion, selection and scroll), a reset
        when the sources changed (expansion kept for the sources still there; new ones expanded)."""
        self.drain()  # events from before this listing: it supersedes them
        fresh = [self._source_row(s, files) for s, files in listing]
        self._live.clear()
        self._dirty.clear()
        if sum(len(s.paths) for s in fresh) >= gc_guard.BIG_LISTING:
            gc_guard.keep_out_of_collections()  # the records live as long as the listing is shown
        if [(s.path, s.kind) for s in fresh] != [(s.path, s.kind) for s in self._sources]:
            self.beginResetModel()
            known = {s.path for s in self._sources}
            self._expanded = {s.path for s in fresh if s.path in self._expanded or s.path not in known}
            self._sources = fresh
            self._index_rows()
            self._where, self._unmapped = {}, list(fresh)  # 100k paths: mapped over the next turns
            self._map_timer.start()
            for source in fresh:
                self._apply_filter_now(source)
            self._layout()
            self.endResetModel()
            return
        self._map_all()
        for s_pos, (old, new) in enumerate(zip(self._sources, fresh)):
            if old.paths != new.paths:
                self._merge(s_pos, old, new)
            old.records, old.paths, old.files, old.chunks, old.failed = (
                new.records, new.paths, new.files, new.chunks, new.failed)
            if old.shown is not None:  # the same paths as shown: new records, same rows
                self._apply_filter_now(old)
        if self._total:
            self.dataChanged.emit(self.index(0, 0), self.index(self._total - 1, COL_CHUNKS))

    def _map_step(self) -> None:
        if self._unmapped:
            source = self._unmapped.pop()
            self._where.update(dict.fromkeys(source.paths, source))
        if not self._unmapped:
            self._map_timer.stop()

    def _map_all(self) -> None:
        """Finish mapping a new listing's paths (before any lookup by path)."""
        while self._unmapped:
            self._map_step()

    @staticmethod
    def _source_row(record: SourceRecord, files: tuple[FileRecord, ...]) -> SourceRow:
        records = list(files)
        statuses = list(map(_STATUS, records))
        return SourceRow(record.path, record.kind, records, list(map(_PATH, records)), files=len(records),
                         chunks=sum(map(_CHUNKS, records)), failed=statuses.count("failed"))

    def _index_rows(self) -> None:
        self._rows = {id(s): s_pos for s_pos, s in enumerate(self._sources)}

    def _merge(self, s_pos: int, old: SourceRow, new: SourceRow) -> None:
        """Make `old`'s files those of `new`: row by row when few changed, else all of its rows at once."""
        old_set, new_set = set(old.paths), set(new.paths)
        gone, come = old_set - new_set, new_set - old_set
        if len(gone) + len(come) > MERGE_MAX:
            self._replace_files(s_pos, old, new)
            return
        for path in sorted(gone, reverse=True):
            self._drop_file(s_pos, old, path)
        for path in sorted(come):
            self._add_file(s_pos, old, new.records[bisect.bisect_left(new.paths, path)])

    def _replace_files(self, s_pos: int, old: SourceRow, new: SourceRow) -> None:
        for path in old.paths:
            if self._where.get(path) is old:
                del self._where[path]
        first, count = self._starts[s_pos] + 1, self._shown(old)
        if count:
            self.beginRemoveRows(QModelIndex(), first, first + count - 1)
        old.records, old.paths, old.shown, old.shown_paths = [], [], None, None
        self._layout()
        if count:
            self.endRemoveRows()
        self._apply_filter_now(new)
        count = self._shown(new) if old.path in self._expanded else 0
        if count:
            self.beginInsertRows(QModelIndex(), first, first + count - 1)
        old.records, old.paths, old.shown, old.shown_paths = new.records, new.paths, new.shown, new.shown_paths
        self._layout()
        if count:
            self.endInsertRows()
        self._where.update(dict.fromkeys(old.paths, old))

    def _drop_file(self, s_pos: int, source: SourceRow, path: str) -> None:
        """Take one file out of a source (and its row out of the table when it has one)."""
        at = bisect.bisect_left(source.paths, path)
        shown_at = self._shown_position(source, path)
        row = self._file_row(s_pos, shown_at) if shown_at is not None and source.path in self._expanded else -1
        if row >= 0:
            self.beginRemoveRows(QModelIndex(), row, row)
        del source.records[at], source.paths[at]
        if source.shown is not None and shown_at is not None:
            del source.shown[shown_at], source.shown_paths[shown_at]  # type: ignore[union-attr]
        self._layout()
        if row >= 0:
            self.endRemoveRows()
        if self._where.get(path) is source:
            del self._where[path]

    def _add_file(self, s_pos: int, source: SourceRow, record: FileRecord) -> int | None:
        """Put one file into a source in path order; its position among the shown files, None if filtered out."""
        path = record.path
        at = bisect.bisect_left(source.paths, path)
        if source.shown is None:
            shown_at: int | None = at
        else:
            shown_at = bisect.bisect_left(source.shown_paths or [], path) if self._matches(path) else None
        row = self._file_row(s_pos, shown_at) if shown_at is not None and source.path in self._expanded else -1
        if row >= 0:
            self.beginInsertRows(QModelIndex(), row, row)
        source.records.insert(at, record)
        source.paths.insert(at, path)
        if source.shown is not None and shown_at is not None:
            source.shown.insert(shown_at, record)
            source.shown_paths.insert(shown_at, path)  # type: ignore[union-attr]
        self._layout()
        if row >= 0:
            self.endInsertRows()
        self._where[path] = source
        return shown_at

    @staticmethod
    def _shown_position(source: SourceRow, path: str) -> int | None:
        _shown, shown_paths = source.visible()
        at = bisect.bisect_left(shown_paths, path)
        return at if at < len(shown_paths) and shown_paths[at] == path else None

    def add_sources(self, rows: list[tuple[str, str]]) -> None:
        """Show new (path, kind) sources at once (expanded), so live file events have a home before the next
        refresh."""
        for path, kind in rows:
            if self._source_row_for(path) is not None:
                continue
            s_pos = sum(1 for s in self._sources if s.path < path)
            row = self._starts[s_pos] if s_pos < len(self._sources) else self._total
            self.beginInsertRows(QModelIndex(), row, row)
            self._sources.insert(s_pos, SourceRow(path, kind))
            self._expanded.add(path)
            self._index_rows()
            self._layout()
            self.endInsertRows()

    def files_of(self, source_path: str) -> list[str]:
        self.drain()
        return [p for s in self._sources if s.path == source_path for p in s.paths]

    # ---- live updates ----

    def post(self, event: FileEvent) -> None:
        """Queue a FileEvent from any thread (connect the worker's signal directly); applied on the GUI thread in
        slices of at most SLICE_S, in order, before any read of the model."""
        with self._inbox_lock:
            self._inbox.append(event)
            if self._woken:
                return
            self._woken = True
        self._wake.emit()

    def drain(self) -> None:
        """Apply every event waiting in the inbox now."""
        while self._inbox:
            self.apply(self._inbox.popleft())

    def _drain_slice(self) -> None:
        deadline = time.perf_counter() + SLICE_S
        inbox = self._inbox
        while inbox and time.perf_counter() < deadline:
            for _ in range(min(200, len(inbox))):
                self.apply(inbox.popleft())
        with self._inbox_lock:
            if not inbox:
                self._woken = False
                self._drain_timer.stop()

    def apply(self, event: FileEvent) -> None:
        """Update one file from an index FileEvent (inserting it under its source when new)."""
        if event.state == "skipped":
            return
        source = self._where.get(event.path)
        if source is None and self._unmapped:
            self._map_all()
            source = self._where.get(event.path)
        if source is None:
            if event.state != "removed":
                self._insert(event)
            return
        row = self._current(source, event.path)
        files, chunks, failed = _counts(row)
        row = FileRow(row.path, event.state, event.error if event.state == "failed" else "", row.chunks)
        if event.state in ("indexed", "unchanged", "failed", "removed"):
            row.chunks = event.chunks
        self._live[event.path] = row
        new_files, new_chunks, new_failed = _counts(row)
        source.files += new_files - files
        source.chunks += new_chunks - chunks
        source.failed += new_failed - failed
        self._mark(source, self._shown_position(source, event.path))

    def _insert(self, event: FileEvent) -> None:
        s_pos = self._source_row_for(event.path)
        if s_pos is None:
            return
        source = self._sources[s_pos]
        row = FileRow(event.path, event.state, event.error, event.chunks)
        self._live[event.path] = row
        files, chunks, failed = _counts(row)
        source.files, source.chunks, source.failed = (source.files + files, source.chunks + chunks,
                                                      source.failed + failed)
        stand_in = FileRecord(0, 0, event.path, 0, 0, "", "pending", "", 0)
        self._mark(source, self._add_file(s_pos, source, stand_in))

    def _mark(self, source: SourceRow, position: int | None) -> None:
        """Repaint soon: the source's row (its totals) and, when it is shown, the file at `position`."""
        key = id(source)
        if position is None or source.path not in self._expanded:
            if key not in self._dirty:
                self._dirty[key] = (-1, -1)
        else:
            first, last = self._dirty.get(key, (position, position))
            if first < 0:
                first = last = position
            self._dirty[key] = (min(first, position), max(last, position))
        if not self._repaint.isActive():
            self._repaint.start()

    def _current(self, source: SourceRow, path: str) -> FileRow:
        live = self._live.get(path)
        if live is not None:
            return live
        return _row_of(source.records[bisect.bisect_left(source.paths, path)])

    def _flush_repaint(self) -> None:
        dirty, self._dirty = self._dirty, {}
        for key, (first, last) in dirty.items():
            s_pos = self._rows.get(key)
            if s_pos is None:
                continue  # replaced by a newer listing
            start = self._starts[s_pos]
            if first >= 0:
                last = min(last, self._shown(self._sources[s_pos]) - 1)
                if first <= last:
                    self.dataChanged.emit(self.createIndex(start + 1 + first, COL_NAME),
                                          self.createIndex(start + 1 + last, COL_CHUNKS))
            self._source_changed(s_pos)

    # ---- lookups ----

    def _find(self, path: str) -> tuple[int, int] | None:
        """(source position, position among its shown files) of a file; None when unknown or filtered out."""
        self.drain()
        self._map_all()
        source = self._where.get(path)
        if source is None:
            return None
        position = self._shown_position(source, path)
        return None if position is None else (self._rows[id(source)], position)

    def _source_row_for(self, path: str) -> int | None:
        best, best_len = None, -1
        for s_pos, source in enumerate(self._sources):
            inside = is_inside(path, source.path)
            if inside and len(source.path) > best_len:
                best, best_len = s_pos, len(source.path)
        return best

    def index_of(self, path: str, expand: bool = False) -> QModelIndex:
        """The index of a file (preferred) or source by path; invalid when unknown, filtered out, or under a
        collapsed source (unless `expand`, which expands it)."""
        found = self._find(path)
        if found is not None:
            s_pos, position = found
            source_path = self._sources[s_pos].path
            if source_path not in self._expanded:
                if not expand:
                    return QModelIndex()
                self.expand(source_path)
            return self.createIndex(self._file_row(s_pos, position), COL_NAME)
        s_pos = self._position_of_source(path)
        return QModelIndex() if s_pos is None else self.createIndex(self._starts[s_pos], COL_NAME)

    def tree_state(self, row: int) -> tuple[bool, bool | None]:
        """(a file's row?, the source's expansion: None on a file's row or a source without files to show); a
        plain Python call for the view's painting (data() through Qt costs a GIL hand-off each)."""
        if not 0 <= row < self._total:
            return False, None
        s_pos, position = self._locate(row)
        if position >= 0:
            return True, None
        source = self._sources[s_pos]
        return False, (source.path in self._expanded if source.visible()[0] else None)

    def source_index(self, index: QModelIndex | QPersistentModelIndex) -> QModelIndex:
        """The row of the source a row belongs to (a source's own row for a source)."""
        if not index.isValid() or index.row() >= self._total:
            return QModelIndex()
        s_pos, _position = self._locate(index.row())
        return self.createIndex(self._starts[s_pos], COL_NAME)

    def totals(self) -> dict[str, int]:
        """Files, chunks and failures as of the events applied so far (events still in the inbox follow)."""
        return {
            "sources": len(self._sources),
            "files": sum(s.files for s in self._sources),
            "chunks": sum(s.chunks for s in self._sources),
            "failed": sum(s.failed for s in self._sources),
        }

    def source_paths(self) -> list[tuple[str, str]]:
        return [(s.path, s.kind) for s in self._sources]

    def _retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, COL_CHUNKS)
        if self._total:
            self.dataChanged.emit(self.index(0, COL_STATE), self.index(self._total - 1, COL_STATE))

    # ---- filter ----

    def set_filter(self, text: str) -> None:
        """Show only files whose name contains `text` (any case); '' shows every file. Works in slices: the
        matches replace a source's rows as soon as that source is done; filter_done when all are."""
        needle = text.strip().casefold()
        if needle == self._needle and self._filter_job is None:
            self.filter_done.emit()
            return
        self._needle = needle
        self._filter_job = self._filter_all(needle)
        self._filter_timer.start()

    def filter_pending(self) -> bool:
        return self._filter_job is not None

    def _matches(self, path: str) -> bool:
        return not self._needle or self._needle in os.path.basename(path).casefold()

    def _apply_filter_now(self, source: SourceRow) -> None:
        if not self._needle:
            source.shown = source.shown_paths = None
            return
        needle = self._needle
        source.shown = [r for r in source.records if needle in os.path.basename(r.path).casefold()]
        source.shown_paths = [r.path for r in source.shown]

    def _filter_all(self, needle: str) -> Iterator[None]:
        for source in list(self._sources):
            shown: list[FileRecord] | None = None
            if needle:
                shown, start = [], 0
                while start < len(source.records):
                    part = source.records[start:start + 5000]
                    shown += [r for r in part if needle in os.path.basename(r.path).casefold()]
                    start += len(part)
                    yield
            s_pos = self._rows.get(id(source))
            if s_pos is None or (shown is None and source.shown is None):
                continue  # replaced by a newer listing (filtered as it was loaded) or nothing to undo
            self._reshow(s_pos, shown)
            yield

    def _reshow(self, s_pos: int, shown: list[FileRecord] | None) -> None:
        """Show these matches (None: every file) as the source's file rows."""
        source = self._sources[s_pos]
        first, count = self._starts[s_pos] + 1, self._shown(source)
        if count:
            self.beginRemoveRows(QModelIndex(), first, first + count - 1)
        source.shown, source.shown_paths = [], []
        self._layout()
        if count:
            self.endRemoveRows()
        count = (len(source.records) if shown is None else len(shown)) if source.path in self._expanded else 0
        if count:
            self.beginInsertRows(QModelIndex(), first, first + count - 1)
        source.shown, source.shown_paths = shown, None if shown is None else [r.path for r in shown]
        self._layout()
        if count:
            self.endInsertRows()
        self._source_changed(s_pos)

    def _filter_step(self) -> None:
        job = self._filter_job
        deadline = time.perf_counter() + SLICE_S
        try:
            while job is not None and time.perf_counter() < deadline:
                next(job)
        except StopIteration:
            self._filter_job = None
            self._filter_timer.stop()
            self.filter_done.emit()

    # ---- QAbstractTableModel ----

    def index(self, row: int, column: int, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:
        # bounds checked here, not through hasIndex (two more Python calls)
        if row < 0 or row >= self._total or not 0 <= column < 3 or parent.isValid():
            return QModelIndex()
        return self.createIndex(row, column)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt override
        return 0 if parent.isValid() else self._total

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else 3

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return i18n.tr(_HEADERS[section])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        row = index.row()
        if not index.isValid() or row >= self._total:
            return None
        s_pos, position = self._locate(row)
        source = self._sources[s_pos]
        if position < 0:
            return self._source_data(source, index.column(), role)
        records = source.visible()[0]
        if position >= len(records):
            return None
        record = records[position]
        return self._file_data(self._live.get(record.path) or _row_of(record), index.column(), role)

    def multiData(  # noqa: N802 - Qt override
            self, index: QModelIndex | QPersistentModelIndex, roleDataSpan: QModelRoleDataSpan) -> None:  # noqa: N803
        """Every role a delegate asks of a cell in one Python call (Qt's default calls data() once per role: ~8
        calls a cell, and each may wait for the GIL while the index worker runs)."""
        row = index.row()
        found = None
        if index.isValid() and row < self._total:
            s_pos, position = self._locate(row)
            source = self._sources[s_pos]
            if position < 0:
                found = (self._source_data, source)
            elif position < len(records := source.visible()[0]):
                record = records[position]
                found = (self._file_data, self._live.get(record.path) or _row_of(record))
        column = index.column()
        for item in roleDataSpan:
            value = None if found is None else found[0](found[1], column, item.role())  # type: ignore[operator]
            if value is None:
                item.clearData()
            else:
                item.setData(value)

    def _source_data(self, source: SourceRow, column: int, role: int):
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_NAME:
                return os.path.basename(source.path.rstrip("/\\")) or source.path
            if column == COL_STATE:
                text = i18n.tr(f"state.{source.kind}")
                return f"{text} · {source.failed} ✗" if source.failed else text
            if column == COL_CHUNKS:
                return source.chunks
        if role == Qt.ItemDataRole.ToolTipRole:
            return source.path
        if column == COL_NAME:
            if role == Qt.ItemDataRole.DecorationRole:
                pixmap = QStyle.StandardPixmap.SP_DirIcon if source.kind == "folder" else \
                    QStyle.StandardPixmap.SP_FileIcon
                return QApplication.style().standardIcon(pixmap)
            if role == Qt.ItemDataRole.FontRole:
                if self._bold is None:
                    self._bold = QFont()
                    self._bold.setBold(True)
                return self._bold
        if role == ExpandedRole:
            return source.path in self._expanded if source.visible()[0] else None
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
