"""The sources area: the passages behind the selected answer, with the passage text highlighted."""

from __future__ import annotations

import html
import os

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QWidget,
)

from desktop_rag.engine import location_text
from desktop_rag.gui import i18n
from desktop_rag.gui.models.sources import COL_FILE, COL_HEADING, COL_N, COL_PAGE, COL_SCORE, SourcesModel
from desktop_rag.gui.text import highlight_html, literal_html
from desktop_rag.gui.views.narrow import flow_of
from desktop_rag.gui.views.panel import plain_label, plain_tooltips, titled_layout
from desktop_rag.gui.views.safe_browser import SafeTextBrowser


def _set_tip(widget: QWidget, text: str) -> None:
    """`text` as `widget`'s tooltip, shown literally and wrapped (rich text: Qt wraps it, at about 80 characters)
    instead of one line as wide as the text."""
    widget.setToolTip(literal_html(text))


class SourcesPanel(QWidget):
    """A table of numbered passages and a detail view; double-click opens the passage in the viewer."""

    passage_requested = Signal(int)  # [n] of a double-clicked row: the in-app viewer opens it
    passage_marked = Signal(int)  # [n] marked as the passage that answers the question; 0: none of them
    passage_marked_wrong = Signal(int)  # [n] marked as a passage that does not answer it (never cited for it again)

    def __init__(self, model: SourcesModel, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        self._gradable = False  # the answer shown can be marked (`set_marking_enabled`)
        layout = titled_layout(self, "sources.title")
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.table = QTableView(self.splitter)
        self.table.setModel(model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        plain_tooltips(self.table)  # file paths
        header = self.table.horizontalHeader()
        for column in (COL_N, COL_PAGE, COL_SCORE):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_FILE, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(COL_HEADING, QHeaderView.ResizeMode.Interactive)
        self.table.selectionModel().currentRowChanged.connect(self._show_current)
        self.table.selectionModel().currentRowChanged.connect(self._update_marking)
        self.table.doubleClicked.connect(self._open)
        self.detail = SafeTextBrowser(self.splitter)
        self.detail.setPlaceholderText(i18n.tr("sources.none"))
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self._marking_row())
        self.hint = plain_label(self)
        self.hint.setWordWrap(True)  # a long hint must not set the window's minimum width
        self.hint.setStyleSheet("color: #80868b; padding: 0 4px;")
        i18n.bind(self.hint, QLabel.setText, "sources.hint")
        layout.addWidget(self.hint)
        model.modelReset.connect(self._after_reset)
        i18n.on_change(self._retranslate)

    def _marking_row(self) -> QWidget:
        """"✓ Right passage" and "✗ Wrong passage" (the selected row) and "None of them", also in the table's
        context menu; onto more lines when the panel is narrow (whole, never cut)."""
        self.mark_button = QPushButton(self)
        self.wrong_button = QPushButton(self)
        self.none_button = QPushButton(self)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        for button, key, mark in ((self.mark_button, "sources.mark_right", self._mark_current),
                                  (self.wrong_button, "sources.mark_wrong", self._mark_current_wrong),
                                  (self.none_button, "sources.mark_none", lambda: self.passage_marked.emit(0))):
            i18n.bind(button, QPushButton.setText, key)
            i18n.bind(button, _set_tip, f"{key}_tip")
            button.clicked.connect(mark)
            button.setMinimumWidth(1)  # never widens the window's minimum (the panel may be narrow)
            action = QAction(self.table)
            i18n.bind(action, QAction.setText, key)
            action.triggered.connect(mark)
            self.table.addAction(action)
        row = flow_of([self.mark_button, self.wrong_button, self.none_button], self)
        row.layout().setContentsMargins(4, 0, 4, 0)
        # a row named "(changed)", "(removed)"; a method, not a lambda: Qt drops the connection with the panel (the
        # model may outlive it), where a lambda would reach its deleted table
        self.model.dataChanged.connect(self._update_marking)
        self.set_marking_enabled(False)
        return row

    def set_marking_enabled(self, enabled: bool) -> None:
        """Marking applies to a gradable answer (one the engine logged) that has passages."""
        self._gradable = enabled
        self._update_marking()

    def _update_marking(self) -> None:
        """"None of them" judges the answer; "Right" and "Wrong" the selected passage, so not one the library no
        longer holds ("(changed)", "(removed)": a mark names a passage as it is now), their tooltips say why (its
        file named)."""
        hit = self.model.hit(self.table.currentIndex().row())
        gone = hit is not None and bool(self.model.gone_key(hit))
        right, wrong, none = self.table.actions()
        for widget in (self.mark_button, self.wrong_button, right, wrong):
            widget.setEnabled(self._gradable and not gone)
        for widget in (self.none_button, none):
            widget.setEnabled(self._gradable)
        for button, key in ((self.mark_button, "sources.mark_right"), (self.wrong_button, "sources.mark_wrong")):
            _set_tip(button, i18n.tr("sources.mark_gone_tip", name=os.path.basename(hit.path)) if gone
                     else i18n.tr(f"{key}_tip"))

    def _mark_current(self) -> None:
        number = self.current_number()
        if number:
            self.passage_marked.emit(number)

    def _mark_current_wrong(self) -> None:
        number = self.current_number()
        if number:
            self.passage_marked_wrong.emit(number)

    def select_number(self, number: int) -> bool:
        """Select the passage cited as [number]; False when the answer has no such passage."""
        row = self.model.row_of_number(number)
        if row < 0:
            return False
        index = self.model.index(row, COL_N)
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(index)
        return True

    def current_number(self) -> int:
        index = self.table.currentIndex()
        return self.model.number(index.row()) if index.isValid() else 0

    def _after_reset(self) -> None:
        if self.model.rowCount():
            self.select_number(self.model.number(0))
        else:
            self.detail.clear()

    def _retranslate(self) -> None:
        self.detail.setPlaceholderText(i18n.tr("sources.none"))
        self._show_current(self.table.currentIndex())
        self._update_marking()  # the tooltips bound to the language are the enabled buttons'

    def _show_current(self, current: QModelIndex, _previous: QModelIndex | None = None) -> None:
        hit = self.model.hit(current.row()) if current.isValid() else None
        if hit is None:
            self.detail.clear()
            return
        number = self.model.number(current.row())
        where = [html.escape(os.path.basename(hit.path))]
        if hit.page:
            where.append(html.escape(location_text(hit.path, hit.page, i18n.language())))
        if hit.heading:
            where.append(html.escape(hit.heading))
        if hit.ocr:  # recognised from a scan: say so, recognition errors are possible
            where.append(f"<span title='{html.escape(i18n.tr('sources.ocr_tip'), quote=True)}' "
                         f"style='color:#8a6d00'>{html.escape(i18n.tr('sources.ocr'))}</span>")
        self.detail.setHtml(
            f"<p><b>[{number}]</b> {' · '.join(where)}"
            f" <span style='color:#80868b'>({hit.score:.3f})</span></p>"
            f"<p style='color:#80868b; font-size:small'>{html.escape(hit.path)}</p>"
            f"<p>{highlight_html(hit.text, self.model.query)}</p>"
        )

    def _open(self, index: QModelIndex) -> None:
        if self.model.hit(index.row()) is not None:
            self.passage_requested.emit(self.model.number(index.row()))
