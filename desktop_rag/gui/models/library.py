"""The library as a flat table (library_table.LibraryTable: each source's row, then, while it is expanded, its
files) filled from the store's listing and kept current with live state.

Built for 100k files: the listing's records are kept as they are (no per-file object is made on load), a file is
found by path in a dict, per-source totals are kept up to date instead of summed, repaints are batched, file events
are applied in time slices, and a name filter runs in slices. A flat table instead of a tree: QTreeView lays out
every row it holds on each insert or remove (a Python call per row), a QTableView asks only for the visible rows,
so an expanded source shows all its files at a true scrollbar and a live insert costs the same at any size.
"""

from __future__ import annotations

import bisect

from PySide6.QtCore import QModelIndex, QTimer, Signal

from desktop_rag.engine import FileEvent, FileRecord, Reason
from desktop_rag.gui import gc_guard
from desktop_rag.gui.models.library_cells import file_detail  # noqa: F401 - re-exported for the views
from desktop_rag.gui.models.library_filter import NameFilter
from desktop_rag.gui.models.library_inbox import EventInbox
from desktop_rag.gui.models.library_rows import (  # noqa: F401 - re-exported for the views and tests
    COL_CHUNKS,
    COL_NAME,
    COL_STATE,
    ErrorRole,
    ExpandedRole,
    FileRow,
    KindRole,
    LinkedRole,
    Listing,
    PathRole,
    SourceRow,
    StateRole,
    counts,
    row_of,
    source_row,
)
from desktop_rag.gui.models.library_table import LibraryTable

REPAINT_MS = 50  # live state changes are repainted in batches
MERGE_MAX = 64  # a refresh that adds/drops at most this many files of a source moves only those rows


class LibraryModel(LibraryTable):
    """The library table filled from a listing, its files' live state applied, filtered by name."""

    filter_done = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._where: dict[str, SourceRow] = {}  # file path -> its source
        self._unmapped: list[SourceRow] = []  # sources of a new listing whose paths are not in _where yet
        self._map_timer = QTimer(self, interval=0)  # maps them a source per event-loop turn
        self._map_timer.timeout.connect(self._map_step)
        self._dirty: dict[int, tuple[int, int]] = {}  # source position -> (first, last) changed file positions
        self._repaint = QTimer(self, singleShot=True, interval=REPAINT_MS)
        self._repaint.timeout.connect(self._flush_repaint)
        self._filter = NameFilter(self._reshow, self)
        self._filter.done.connect(self.filter_done)
        self._inbox = EventInbox(self.apply, lambda: not self._unmapped, self)

    # ---- loading ----

    def load(self, listing: Listing) -> None:
        """Take a fresh listing from the store: in place when the sources are the same (a source whose files
        changed gets only those rows moved when they are few, keeping expansion, selection and scroll), a reset
        when the sources changed (expansion kept for the sources still there; new ones expanded)."""
        self.drain()  # events from before this listing: it supersedes them
        fresh = [source_row(s, files) for s, files in listing]
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
                self._filter.apply_now(source)
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
                self._filter.apply_now(old)
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
        first = self._starts[s_pos] + 1
        with self._moving(False, first, self._shown(old)):
            old.records, old.paths, old.shown, old.shown_paths = [], [], None, None
        self._filter.apply_now(new)
        with self._moving(True, first, self._shown(new) if old.path in self._expanded else 0):
            old.records, old.paths, old.shown, old.shown_paths = new.records, new.paths, new.shown, new.shown_paths
        self._where.update(dict.fromkeys(old.paths, old))

    def _drop_file(self, s_pos: int, source: SourceRow, path: str) -> None:
        """Take one file out of a source (and its row out of the table when it has one)."""
        at = bisect.bisect_left(source.paths, path)
        shown_at = self._shown_position(source, path)
        row = self._file_row(s_pos, shown_at) if shown_at is not None and source.path in self._expanded else -1
        with self._moving(False, row, int(row >= 0)):
            del source.records[at], source.paths[at]
            if source.shown is not None and shown_at is not None:
                del source.shown[shown_at], source.shown_paths[shown_at]  # type: ignore[union-attr]
        if self._where.get(path) is source:
            del self._where[path]

    def _add_file(self, s_pos: int, source: SourceRow, record: FileRecord) -> int | None:
        """Put one file into a source in path order; its position among the shown files, None if filtered out."""
        path = record.path
        at = bisect.bisect_left(source.paths, path)
        if source.shown is None:
            shown_at: int | None = at
        else:
            shown_at = bisect.bisect_left(source.shown_paths or [], path) if self._filter.matches(path) else None
        row = self._file_row(s_pos, shown_at) if shown_at is not None and source.path in self._expanded else -1
        with self._moving(True, row, int(row >= 0)):
            source.records.insert(at, record)
            source.paths.insert(at, path)
            if source.shown is not None and shown_at is not None:
                source.shown.insert(shown_at, record)
                source.shown_paths.insert(shown_at, path)  # type: ignore[union-attr]
        self._where[path] = source
        return shown_at

    def add_sources(self, rows: list[tuple[str, str]]) -> None:
        """Show new (path, kind) sources at once (expanded), so live file events have a home before the next
        refresh."""
        for path, kind in rows:
            if self._source_row_for(path) is not None:
                continue
            s_pos = sum(1 for s in self._sources if s.path < path)
            row = self._starts[s_pos] if s_pos < len(self._sources) else self._total
            with self._moving(True, row, 1):
                self._sources.insert(s_pos, SourceRow(path, kind))
                self._expanded.add(path)
                self._index_rows()

    def files_of(self, source_path: str) -> list[str]:
        self.drain()
        return [p for s in self._sources if s.path == source_path for p in s.paths]

    # ---- live updates ----

    def post(self, event: FileEvent) -> None:
        """Queue a FileEvent from any thread (connect the worker's signal directly); applied on the GUI thread in
        time slices (library_inbox.SLICE_S), in order, before any read of the model."""
        self._inbox.post(event)

    def drain(self) -> None:
        """Apply every event waiting in the inbox now."""
        self._inbox.drain()

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
        files, chunks, failed = counts(row)
        keeps_error = event.state in ("failed", "indexed", "unchanged")  # a failure's reason, or the reader's note
        row = FileRow(row.path, event.state, event.error if keeps_error else Reason(), row.chunks, row.attachment)
        if event.state in ("indexed", "unchanged", "failed", "removed"):
            row.chunks = event.chunks
        self._live[event.path] = row
        new_files, new_chunks, new_failed = counts(row)
        source.files += new_files - files
        source.chunks += new_chunks - chunks
        source.failed += new_failed - failed
        self._mark(source, self._shown_position(source, event.path))

    def _insert(self, event: FileEvent) -> None:
        s_pos = self._source_row_for(event.path)
        if s_pos is None:
            return
        source = self._sources[s_pos]
        row = FileRow(event.path, event.state, event.error, event.chunks, bool(event.carrier))
        self._live[event.path] = row
        files, chunks, failed = counts(row)
        source.files, source.chunks, source.failed = (source.files + files, source.chunks + chunks,
                                                      source.failed + failed)
        stand_in = FileRecord(0, 0, event.path, 0, 0, "", "pending", Reason(), 0)
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
        return row_of(source.records[bisect.bisect_left(source.paths, path)])

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

    # ---- filter ----

    def set_filter(self, text: str) -> None:
        """Show only files whose name contains `text` (any case); '' shows every file. Works in slices: the
        matches replace a source's rows as soon as that source is done; filter_done when all are."""
        self._filter.start(text, list(self._sources))

    def filter_pending(self) -> bool:
        return self._filter.pending()

    def _reshow(self, source: SourceRow, shown: list[FileRecord] | None) -> None:
        """Show these matches (None: every file) as the source's file rows."""
        s_pos = self._rows.get(id(source))
        if s_pos is None:
            return  # replaced by a newer listing (filtered as it was loaded)
        first = self._starts[s_pos] + 1
        with self._moving(False, first, self._shown(source)):
            source.shown, source.shown_paths = [], []
        count = (len(source.records) if shown is None else len(shown)) if source.path in self._expanded else 0
        with self._moving(True, first, count):
            source.shown, source.shown_paths = shown, None if shown is None else [r.path for r in shown]
        self._source_changed(s_pos)

