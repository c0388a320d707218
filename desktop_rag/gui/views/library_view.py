"""The library's list: a flat table of sources and their files that looks and behaves like a tree."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOption,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from desktop_rag.gui.models.library import COL_NAME, ExpandedRole, KindRole, LibraryModel, PathRole

ARROW_PX = 18  # the expand arrow's column at the left of a source's name
INDENT_PX = 22  # file names sit this far right of their source's


class _TreeLookDelegate(QStyledItemDelegate):
    """The name column: a source gets the style's branch arrow, a file is indented under it."""

    def __init__(self, model: LibraryModel, parent: QWidget) -> None:
        super().__init__(parent)
        self.library = model

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        # one initStyleOption per cell (one multiData() call) and the tree state by a plain Python call: each call
        # from Qt into Python may wait for the GIL while the index worker runs, so a repaint makes as few as it can
        widget = option.widget
        style = widget.style() if widget is not None else QApplication.style()
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        full = item.rect
        # selection and hover over the whole cell, arrow and indent included
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, item, painter, widget)
        is_file, expanded = self.library.tree_state(index.row())
        if is_file:
            item.rect = full.adjusted(INDENT_PX, 0, 0, 0)
        else:
            if expanded is not None:
                branch = QStyleOption()
                branch.rect = QRect(full.left(), full.top(), ARROW_PX, full.height())
                branch.palette = option.palette
                branch.state = QStyle.StateFlag.State_Children | QStyle.StateFlag.State_Enabled
                if expanded:
                    branch.state |= QStyle.StateFlag.State_Open
                style.drawPrimitive(QStyle.PrimitiveElement.PE_IndicatorBranch, branch, painter, widget)
            item.rect = full.adjusted(ARROW_PX, 0, 0, 0)
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, widget)


class LibraryView(QTableView):
    """Sources and their files as rows; a source opens and closes like a tree node (arrow click, double-click,
    Right/Left/Enter). Rows inserted or removed above the first visible row keep what the user is looking at
    in place."""

    def __init__(self, model: LibraryModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.library = model
        self.setModel(model)
        self.setItemDelegateForColumn(COL_NAME, _TreeLookDelegate(model, self))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setShowGrid(False)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerItem)
        rows = self.verticalHeader()
        rows.hide()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # uniform height: never measured per row
        rows.setDefaultSectionSize(self.fontMetrics().height() + 8)
        self._above = 0  # rows about to be removed above the first visible row
        model.rowsAboutToBeRemoved.connect(self._before_remove)
        model.rowsRemoved.connect(self._after_remove)

    def toggle(self, index: QModelIndex) -> bool:
        """Open or close the source of this source row (the current row moves to it when it was one of its
        files); False for a file row or a source without files."""
        if not index.isValid() or index.siblingAtColumn(COL_NAME).data(ExpandedRole) is None:
            return False
        path = index.siblingAtColumn(COL_NAME).data(PathRole)
        current = self.currentIndex()
        if current.isValid() and self.library.source_index(current).row() == index.row():
            self.setCurrentIndex(index.siblingAtColumn(COL_NAME))
        self.library.toggle(path)
        return True

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        index = self.indexAt(event.position().toPoint())
        if index.isValid() and index.column() == COL_NAME and event.button() == Qt.MouseButton.LeftButton \
                and event.position().x() - self.visualRect(index).left() < ARROW_PX and self.toggle(index):
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if not self.toggle(self.indexAt(event.position().toPoint())):
            super().mouseDoubleClickEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        current, key = self.currentIndex(), event.key()
        if current.isValid() and event.modifiers() in (Qt.KeyboardModifier.NoModifier,
                                                       Qt.KeyboardModifier.KeypadModifier):
            expanded = current.siblingAtColumn(COL_NAME).data(ExpandedRole)
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.toggle(current):
                return
            if key == Qt.Key.Key_Right and expanded is False and self.toggle(current):
                return
            if key == Qt.Key.Key_Left:
                if expanded is True and self.toggle(current):
                    return
                if current.siblingAtColumn(COL_NAME).data(KindRole) == "file-row":  # to its source, as a tree
                    self.setCurrentIndex(self.library.source_index(current))
                    return
        super().keyPressEvent(event)

    # Rows come and go above the viewport (a source opening, live files, a filter): the rows the user is looking
    # at stay where they are. Scrolling is per row, so the scrollbar's value is the first visible row.
    def rowsInserted(self, parent: QModelIndex | QPersistentModelIndex, first: int, last: int) -> None:  # noqa: N802
        super().rowsInserted(parent, first, last)
        bar = self.verticalScrollBar()
        top = bar.value()
        if 0 < top and first <= top:
            count = last - first + 1
            bar.setMaximum(bar.maximum() + count)  # the view updates its range later
            bar.setValue(top + count)

    def _before_remove(self, _parent: QModelIndex, first: int, last: int) -> None:
        top = self.verticalScrollBar().value()
        self._above = min(last + 1, top) - first if first < top else 0

    def _after_remove(self, *_args) -> None:
        if self._above:
            bar = self.verticalScrollBar()
            bar.setValue(max(0, bar.value() - self._above))
            self._above = 0
