"""The library tree model: sources and their files, with live per-file state from index events.

Built for 100k files: the listing's records are kept as they are (no per-file object is made on load), a file is
found by path in a dict, per-source totals are kept up to date instead of summed, repaints are batched, and a
source's files reach the view in batches (canFetchMore/fetchMore), so the view never lays out more rows than the
user has scrolled through. A name filter runs in slices between events.
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

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor

from desktop_rag.engine.paths import is_inside
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
FIRST_ROWS = 100  # files of a source shown at once; more arrive as the view scrolls (a tree view lays out every
FETCH_ROWS = 100  # row it has on each insert or expand: ~17 µs a row with a Python model)
REPAINT_MS = 50  # live state changes are repainted in batches
SLICE_S = 0.008  # a filter, or the file events waiting in the inbox, take at most this long per event-loop turn
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
    fetched: int = 0  # rows of `shown` the view has
    files: int = 0
    chunks: int = 0
    failed: int = 0

    def visible(self) -> tuple[list[FileRecord], list[str]]:
        return (self.records, self.paths) if self.shown is None else (self.shown, self.shown_paths or [])


class LibraryModel(QAbstractItemModel):
    """Top level: sources; children: files. Columns: name, state, chunks."""

    filter_done = Signal()
    _wake = Signal()  # from `post` on the index worker's thread: events are waiting in the inbox

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._sources: list[SourceRow] = []
        self._where: dict[str, SourceRow] = {}  # file path -> its source
        self._rows: dict[int, int] = {}  # id(source) -> its row
        self._live: dict[str, FileRow] = {}  # files whose state changed since the listing
        self._dirty: dict[int, tuple[int, int]] = {}  # source row -> (first, last) changed file rows
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
        i18n.on_change(self._retranslate)

    # ---- loading ----

    def load(self, listing: Listing) -> None:
        """Take a fresh listing from the store: sources in place when they are the same (each source's files are
        replaced only where they changed, keeping expansion and scroll), a reset when the sources changed."""
        self.drain()  # events from before this listing: it supersedes them
        fresh = [self._source_row(s, files) for s, files in listing]
        self._live.clear()
        self._dirty.clear()
        if [(s.path, s.kind) for s in fresh] != [(s.path, s.kind) for s in self._sources]:
            self.beginResetModel()
            self._sources = fresh
            self._index_rows()
            self._where = {}
            for source in fresh:
                self._where.update(dict.fromkeys(source.paths, source))
                self._apply_filter_now(source)  # no file rows yet: expanding a source fetches its first ones
            self.endResetModel()
            return
        for s_row, (old, new) in enumerate(zip(self._sources, fresh)):
            if old.paths == new.paths:  # the same files: new states and totals, same rows
                old.records, old.files, old.chunks, old.failed = new.records, new.files, new.chunks, new.failed
                if old.shown is not None:
                    self._apply_filter_now(old)
                if old.fetched:
                    parent = self.index(s_row, 0)
                    self.dataChanged.emit(self.index(0, 0, parent), self.index(old.fetched - 1, COL_CHUNKS, parent))
                continue
            for path in old.paths:
                if self._where.get(path) is old:
                    del self._where[path]
            self._where.update(dict.fromkeys(new.paths, new))
            self._apply_filter_now(new)
            self._replace_children(s_row, new, keep=old.fetched)
        self._index_rows()
        if fresh:
            self.dataChanged.emit(self.index(0, 0), self.index(len(fresh) - 1, COL_CHUNKS))

    @staticmethod
    def _source_row(record: SourceRecord, files: tuple[FileRecord, ...]) -> SourceRow:
        records = list(files)
        statuses = list(map(_STATUS, records))
        return SourceRow(record.path, record.kind, records, list(map(_PATH, records)), files=len(records),
                         chunks=sum(map(_CHUNKS, records)), failed=statuses.count("failed"))

    def _index_rows(self) -> None:
        self._rows = {id(s): row for row, s in enumerate(self._sources)}

    def _replace_children(self, s_row: int, new: SourceRow, keep: int = FIRST_ROWS) -> None:
        """Swap a source's file rows (the view keeps the source's expansion)."""
        parent = self.index(s_row, 0)
        old = self._sources[s_row]
        new.fetched = 0
        if old.fetched:
            self.beginRemoveRows(parent, 0, old.fetched - 1)
            old.fetched = 0
            self._sources[s_row] = new
            self.endRemoveRows()
        self._sources[s_row] = new
        self._rows[id(new)] = s_row
        count = min(max(keep, FIRST_ROWS), len(new.visible()[0]))
        if count:
            self.beginInsertRows(parent, 0, count - 1)
            new.fetched = count
            self.endInsertRows()

    def add_sources(self, rows: list[tuple[str, str]]) -> None:
        """Show new (path, kind) sources at once, so live file events have a home before the next refresh."""
        for path, kind in rows:
            if self._source_row_for(path) is not None:
                continue
            position = sum(1 for s in self._sources if s.path < path)
            self.beginInsertRows(QModelIndex(), position, position)
            self._sources.insert(position, SourceRow(path, kind))
            self._index_rows()
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
        s_row = self._rows[id(source)]
        _shown, shown_paths = source.visible()
        position = bisect.bisect_left(shown_paths, event.path)
        if position < source.fetched and shown_paths[position] == event.path:
            first, last = self._dirty.get(s_row, (position, position))
            self._dirty[s_row] = (min(first, position), max(last, position))
        else:
            self._dirty.setdefault(s_row, (-1, -1))  # the source's totals changed
        if not self._repaint.isActive():
            self._repaint.start()

    def _insert(self, event: FileEvent) -> None:
        s_row = self._source_row_for(event.path)
        if s_row is None:
            return
        source = self._sources[s_row]
        stand_in = FileRecord(0, 0, event.path, 0, 0, "", "pending", "", 0)
        position = bisect.bisect_left(source.paths, event.path)
        source.records.insert(position, stand_in)
        source.paths.insert(position, event.path)
        self._where[event.path] = source
        row = FileRow(event.path, event.state, event.error, event.chunks)
        self._live[event.path] = row
        files, chunks, failed = _counts(row)
        source.files, source.chunks, source.failed = source.files + files, source.chunks + chunks, source.failed + failed
        if source.shown is not None:
            if not self._matches(event.path):
                self._dirty.setdefault(s_row, (-1, -1))
                return
            position = bisect.bisect_left(source.shown_paths, event.path)
            source.shown.insert(position, stand_in)
            source.shown_paths.insert(position, event.path)
        shown_count = len(source.visible()[0])
        parent = self.index(s_row, 0)
        if position < source.fetched or (source.fetched == shown_count - 1 and source.fetched < FIRST_ROWS):
            self.beginInsertRows(parent, position, position)
            source.fetched += 1
            self.endInsertRows()
            if source.fetched > FIRST_ROWS and shown_count > source.fetched - 1:
                # keep the number of rows the view lays out: the last one goes back behind fetchMore
                self.beginRemoveRows(parent, source.fetched - 1, source.fetched - 1)
                source.fetched -= 1
                self.endRemoveRows()
        self._dirty.setdefault(s_row, (-1, -1))
        if not self._repaint.isActive():
            self._repaint.start()

    def _current(self, source: SourceRow, path: str) -> FileRow:
        live = self._live.get(path)
        if live is not None:
            return live
        return _row_of(source.records[bisect.bisect_left(source.paths, path)])

    def _flush_repaint(self) -> None:
        dirty, self._dirty = self._dirty, {}
        for s_row, (first, last) in dirty.items():
            if s_row >= len(self._sources):
                continue
            if first >= 0:
                parent = self.index(s_row, 0)
                last = min(last, self._sources[s_row].fetched - 1)
                if first <= last:
                    self.dataChanged.emit(self.index(first, 0, parent), self.index(last, COL_CHUNKS, parent))
            self.dataChanged.emit(self.index(s_row, COL_STATE), self.index(s_row, COL_CHUNKS))

    # ---- lookups ----

    def _find(self, path: str) -> tuple[int, int] | None:
        """(source row, file row in the view) of a file, fetching rows up to it if the view does not have it yet."""
        self.drain()
        source = self._where.get(path)
        if source is None:
            return None
        s_row = self._rows[id(source)]
        _shown, shown_paths = source.visible()
        position = bisect.bisect_left(shown_paths, path)
        if position >= len(shown_paths) or shown_paths[position] != path:
            return None  # filtered out
        if position >= source.fetched:
            self._fetch(s_row, position + 1 - source.fetched + FETCH_ROWS)
        return s_row, position

    def _source_row_for(self, path: str) -> int | None:
        best, best_len = None, -1
        for s_row, source in enumerate(self._sources):
            inside = is_inside(path, source.path)
            if inside and len(source.path) > best_len:
                best, best_len = s_row, len(source.path)
        return best

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
        if self._sources:
            self.dataChanged.emit(self.index(0, COL_STATE), self.index(len(self._sources) - 1, COL_STATE))

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
            s_row = self._rows.get(id(source))
            if s_row is None or (shown is None and source.shown is None):
                continue  # replaced by a newer listing (filtered as it was loaded) or nothing to undo
            self._reshow(s_row, shown)
            yield

    def _reshow(self, s_row: int, shown: list[FileRecord] | None) -> None:
        """Show these matches (None: every file) as the source's rows; the view keeps the source's expansion."""
        source, parent = self._sources[s_row], self.index(s_row, 0)
        if source.fetched:
            self.beginRemoveRows(parent, 0, source.fetched - 1)
            source.fetched = 0
            self.endRemoveRows()
        source.shown, source.shown_paths = shown, None if shown is None else [r.path for r in shown]
        count = min(FIRST_ROWS, len(source.visible()[0]))
        if count:
            self.beginInsertRows(parent, 0, count - 1)
            source.fetched = count
            self.endInsertRows()

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

    # ---- QAbstractItemModel ----

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802 - Qt override
        if not parent.isValid() or not self._is_source(parent) or parent.row() >= len(self._sources):
            return False
        source = self._sources[parent.row()]
        return source.fetched < len(source.visible()[0])

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> None:  # noqa: N802 - Qt override
        if self.canFetchMore(parent):
            self._fetch(parent.row(), FETCH_ROWS)

    def _fetch(self, s_row: int, count: int) -> None:
        source = self._sources[s_row]
        count = min(count, len(source.visible()[0]) - source.fetched)
        if count > 0:
            self.beginInsertRows(self.index(s_row, 0), source.fetched, source.fetched + count - 1)
            source.fetched += count
            self.endInsertRows()

    def index(self, row: int, column: int, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:
        # the view calls this for every row it lays out: bounds checked here, not through hasIndex (three calls)
        if row < 0 or not 0 <= column < 3:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0) if row < len(self._sources) else QModelIndex()  # a source row
        s_row = parent.row()
        if parent.internalId() != 0 or parent.column() != 0 or s_row >= len(self._sources) \
                or row >= self._sources[s_row].fetched:
            return QModelIndex()
        return self.createIndex(row, column, s_row + 1)  # files: their source's row + 1

    def parent(self, child: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not child.isValid():
            return QModelIndex()
        tag = child.internalId()
        if tag == 0:
            return QModelIndex()
        return self.createIndex(tag - 1, 0, 0)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt override
        if not parent.isValid():
            return len(self._sources)
        if self._is_source(parent) and parent.column() == 0 and parent.row() < len(self._sources):
            return self._sources[parent.row()].fetched
        return 0

    def hasChildren(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:  # noqa: N802
        if not parent.isValid():
            return bool(self._sources)
        if parent.internalId() != 0 or parent.column() != 0 or parent.row() >= len(self._sources):
            return False
        return bool(self._sources[parent.row()].visible()[0])

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
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
            if index.row() >= len(self._sources):
                return None
            return self._source_data(self._sources[index.row()], index.column(), role)
        if index.internalId() - 1 >= len(self._sources):
            return None
        source = self._sources[index.internalId() - 1]
        if index.row() >= source.fetched:
            return None
        record = source.visible()[0][index.row()]
        return self._file_data(self._live.get(record.path) or _row_of(record), index.column(), role)

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
