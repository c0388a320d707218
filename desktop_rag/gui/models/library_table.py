"""The library's flat table as Qt sees it: each source's row, then (while it is expanded) its files' rows.

Its shape only: row -> (source, file position) through per-source start rows and a bisect, which sources are
expanded, the rows inserted or removed around a change (`_moving`), the lookups the views make and each cell's
data. What fills it (a listing, its merge, live file events, the name filter) is `library.LibraryModel`'s.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QModelRoleDataSpan, QPersistentModelIndex, Qt

from desktop_rag.engine import is_inside
from desktop_rag.gui import i18n
from desktop_rag.gui.models.library_cells import HEADERS, file_data, source_data
from desktop_rag.gui.models.library_rows import COL_CHUNKS, COL_NAME, COL_STATE, FileRow, SourceRow, row_of


class LibraryTable(QAbstractTableModel):
    """Rows: a source, then its shown files while it is expanded. Columns: name, state, chunks."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._sources: list[SourceRow] = []
        self._rows: dict[int, int] = {}  # id(source) -> its position in _sources
        self._expanded: set[str] = set()  # source paths whose files are rows
        self._starts: list[int] = []  # the row of each source
        self._total = 0  # rows
        self._live: dict[str, FileRow] = {}  # files whose state changed since the listing
        i18n.on_change(self._retranslate)

    # ---- rows ----

    @contextmanager
    def _moving(self, insert: bool, first: int, count: int) -> Iterator[None]:
        """Around a change that inserts (or removes) `count` rows at `first`: begin*Rows, the change, the new
        layout, end*Rows (only the layout when `count` is 0)."""
        if count:
            (self.beginInsertRows if insert else self.beginRemoveRows)(QModelIndex(), first, first + count - 1)
        yield
        self._layout()
        if count:
            (self.endInsertRows if insert else self.endRemoveRows)()

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

    def _index_rows(self) -> None:
        self._rows = {id(s): s_pos for s_pos, s in enumerate(self._sources)}

    @staticmethod
    def _shown_position(source: SourceRow, path: str) -> int | None:
        _shown, shown_paths = source.visible()
        at = bisect.bisect_left(shown_paths, path)
        return at if at < len(shown_paths) and shown_paths[at] == path else None

    # ---- expansion ----

    def is_expanded(self, path: str) -> bool:
        return path in self._expanded

    def expand(self, path: str) -> None:
        """Show a source's (filtered) files under its row."""
        s_pos = self._position_of_source(path)
        if s_pos is None or path in self._expanded:
            return
        with self._moving(True, self._starts[s_pos] + 1, len(self._sources[s_pos].visible()[0])):
            self._expanded.add(path)
        self._source_changed(s_pos)

    def collapse(self, path: str) -> None:
        """Hide a source's files (their state and the totals stay up to date)."""
        s_pos = self._position_of_source(path)
        if s_pos is None or path not in self._expanded:
            return
        with self._moving(False, self._starts[s_pos] + 1, self._shown(self._sources[s_pos])):
            self._expanded.discard(path)
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

    # ---- lookups ----

    def _source_row_for(self, path: str) -> int | None:
        best, best_len = None, -1
        for s_pos, source in enumerate(self._sources):
            inside = is_inside(path, source.path)
            if inside and len(source.path) > best_len:
                best, best_len = s_pos, len(source.path)
        return best

    def tree_state(self, row: int) -> tuple[bool, bool | None]:
        """(a file's row?, the source's expansion: None on a file's row or a source without files to show); a
        plain Python call for the view's painting (data() through Qt costs a GIL hand-off each)."""
        if not 0 <= row < self._total:
            return False, None
        s_pos, position = self._locate(row)
        if position >= 0:
            return True, None
        return False, self._expansion(self._sources[s_pos])

    def _expansion(self, source: SourceRow) -> bool | None:
        """Whether a source's files are rows; None when it has none to show."""
        return source.path in self._expanded if source.visible()[0] else None

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
            return i18n.tr(HEADERS[section])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        cell = self._cell(index)
        return None if cell is None else cell(index.column(), role)

    def multiData(  # noqa: N802 - Qt override
            self, index: QModelIndex | QPersistentModelIndex, roleDataSpan: QModelRoleDataSpan) -> None:  # noqa: N803
        """Every role a delegate asks of a cell in one Python call (Qt's default calls data() once per role: ~8
        calls a cell, and each may wait for the GIL while the index worker runs)."""
        cell = self._cell(index)
        column = index.column()
        for item in roleDataSpan:
            value = None if cell is None else cell(column, item.role())
            if value is None:
                item.clearData()
            else:
                item.setData(value)

    def _cell(self, index: QModelIndex | QPersistentModelIndex) -> Callable[[int, int], object] | None:
        """What the row of `index` shows, as a function of (column, role); None outside the table."""
        row = index.row()
        if not index.isValid() or row >= self._total:
            return None
        s_pos, position = self._locate(row)
        source = self._sources[s_pos]
        if position < 0:
            return partial(source_data, source, self._expansion(source))
        records = source.visible()[0]
        if position >= len(records):
            return None
        record = records[position]
        return partial(file_data, self._live.get(record.path) or row_of(record))

