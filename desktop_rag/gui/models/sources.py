"""The sources table model: the numbered passages behind the selected answer."""

from __future__ import annotations

import os

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from desktop_rag.engine import Hit, location_text, reader_for
from desktop_rag.gui import i18n

COL_N, COL_FILE, COL_PAGE, COL_HEADING, COL_SCORE = range(5)
_HEADERS = ("sources.col.n", "sources.col.file", "sources.col.page", "sources.col.heading", "sources.col.score")
HitRole = Qt.ItemDataRole.UserRole + 1
NumberRole = Qt.ItemDataRole.UserRole + 2


class SourcesModel(QAbstractTableModel):
    """Rows are (n, hit) pairs, n being the [n] the answer cites."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: tuple[tuple[int, Hit], ...] = ()
        self.query = ""
        self.gone: frozenset[str] = frozenset()  # paths of the rows' files no longer in the library (`set_gone`)
        self.gone_passages: frozenset[int] = frozenset()  # chunk ids of the rows' passages no longer in their file
        i18n.on_change(self._retranslate)

    def set_sources(self, rows: tuple[tuple[int, Hit], ...], query: str = "") -> None:
        self.beginResetModel()
        self._rows = tuple(rows)
        self.query = query
        self.gone = self.gone_passages = frozenset()
        self.endResetModel()

    def rows(self) -> tuple[tuple[int, Hit], ...]:
        """The (n, hit) rows shown (the same object until `set_sources` is called again)."""
        return self._rows

    def set_gone(self, paths: frozenset[str], passages: frozenset[int] = frozenset()) -> None:
        """Mark the rows whose file is no longer in the library (removed after the answer): named "(removed)"; and
        those whose passage (`passages`: chunk ids) is no longer in its file (edited and indexed again since): named
        "(changed)"."""
        if (paths, passages) != (self.gone, self.gone_passages):
            self.gone, self.gone_passages = paths, passages
            if self._rows:
                self.dataChanged.emit(self.index(0, COL_FILE), self.index(len(self._rows) - 1, COL_FILE))

    def row_of_number(self, number: int) -> int:
        for row, (n, _) in enumerate(self._rows):
            if n == number:
                return row
        return -1

    def hit(self, row: int) -> Hit | None:
        return self._rows[row][1] if 0 <= row < len(self._rows) else None

    def number(self, row: int) -> int:
        return self._rows[row][0] if 0 <= row < len(self._rows) else 0

    def _retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, COL_SCORE)
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, COL_SCORE))

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(_HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return i18n.tr(_HEADERS[section])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        number, hit = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_N:
                return f"[{number}]"
            if column == COL_FILE:
                name = os.path.basename(hit.path)
                key = self.gone_key(hit)
                return i18n.tr(f"sources.{key}", name=name) if key else name
            if column == COL_PAGE:
                page = _unit(hit)
                return f"{page} · {i18n.tr('sources.ocr')}".strip(" ·") if hit.ocr else page
            if column == COL_HEADING:
                return hit.heading
            if column == COL_SCORE:
                return f"{hit.score:.3f}"
        if role == Qt.ItemDataRole.ToolTipRole and self.gone_key(hit):
            return i18n.tr(f"sources.{self.gone_key(hit)}_tip", path=hit.path)
        if role == Qt.ItemDataRole.ForegroundRole and self.gone_key(hit):
            return QColor("#888888")
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{hit.path}\n{i18n.tr('sources.ocr_tip')}" if hit.ocr else hit.path
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (COL_N, COL_PAGE, COL_SCORE):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == HitRole:
            return hit
        if role == NumberRole:
            return number
        return None


    def gone_key(self, hit: Hit) -> str:
        """"removed" (its file left the library), "changed" (its passage left its file) or ""."""
        return "removed" if hit.path in self.gone else "changed" if hit.chunk_id in self.gone_passages else ""


def _unit(hit: Hit) -> str:
    """The page column: a PDF's page number, another unit with its word ("slide 3", "第 3 张幻灯片"), or ""."""
    reader = reader_for(hit.path)
    if hit.page is None or reader is None or reader.location == "page":
        return "" if hit.page is None else str(hit.page)
    return location_text(hit.path, hit.page, i18n.language())
