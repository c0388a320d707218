"""Review view, first page: the grade counts and the two online signal rates per week, export of graded questions."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_rag.gui import i18n
from desktop_rag.gui.views.grade_bar import GRADES
from desktop_rag.gui.views.panel import plain_label

_COLUMNS = ("review.col.period", "review.col.answers", *(f"grade.{g}" for g in GRADES), "review.col.ungraded",
            "review.col.opened", "review.col.reasked")


def percent(part: int, whole: int) -> str:
    """"42%" with a bar of up to ten blocks, or "–" when there is nothing to divide."""
    if whole <= 0:
        return "–"
    share = part / whole
    return f"{round(100 * share)}%  " + "▮" * round(10 * share)


class OverviewPage(QWidget):
    """Shows the engine's ReviewStats: all-time totals, then one row per week (newest first)."""

    refresh_requested = Signal()
    export_requested = Signal(str)  # the JSONL file the user chose

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.totals = plain_label(self)
        self.totals.setWordWrap(True)
        self.totals.setStyleSheet("font-weight: 600;")
        layout.addWidget(self.totals)
        self.table = QTableWidget(0, len(_COLUMNS), self)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table, 1)
        self.note = plain_label(self)
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #5f6368;")
        layout.addWidget(self.note)
        self.result = plain_label(self)  # the export's outcome
        self.result.setWordWrap(True)
        layout.addWidget(self.result)
        buttons = QHBoxLayout()
        self.refresh_button = QPushButton(self)
        self.refresh_button.clicked.connect(self.refresh_requested)
        self.export_button = QPushButton(self)
        self.export_button.clicked.connect(self.choose_export)
        buttons.addWidget(self.refresh_button)
        buttons.addStretch(1)
        buttons.addWidget(self.export_button)
        layout.addLayout(buttons)
        self._stats = None
        self._result: tuple[str, bool, dict] | None = None  # (text key, ok, values): said again in a new language
        self._retranslate()
        i18n.on_change(self._retranslate)

    def _retranslate(self) -> None:
        self.table.setHorizontalHeaderLabels([i18n.tr(key) for key in _COLUMNS])
        self.note.setText(i18n.tr("review.signals_note"))
        self.refresh_button.setText(i18n.tr("review.refresh"))
        self.export_button.setText(i18n.tr("review.export"))
        if self._stats is not None:
            self.show_stats(self._stats)
        if self._result is not None:
            self.show_result(*self._result[:2], **self._result[2])

    def show_stats(self, stats) -> None:
        """`stats`: ReviewStats (answers, grades, ungraded, weeks of ReviewWeek)."""
        self._stats = stats
        weeks = list(reversed(stats.weeks))
        self.table.setRowCount(len(weeks))
        for r, week in enumerate(weeks):
            grades = dict(week.grades)
            values = [week.week, str(week.answers), *(str(grades.get(g, 0)) for g in GRADES),
                      str(week.answers - sum(grades.values())), percent(week.opened, week.answers),
                      percent(week.reasked, week.answers)]
            for c, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setTextAlignment(Qt.AlignmentFlag.AlignVCenter | (
                    Qt.AlignmentFlag.AlignLeft if c == 0 or c >= len(values) - 2 else Qt.AlignmentFlag.AlignRight))
                self.table.setItem(r, c, item)
        if not stats.answers:
            self.totals.setText(i18n.tr("review.empty"))
            return
        self.totals.setText(i18n.tr("review.totals", answers=stats.answers, ungraded=stats.ungraded,
                                    **dict(stats.grades)))

    def choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, i18n.tr("review.export_title"), "graded-questions.jsonl",
                                              f"{i18n.tr('review.export_filter')} (*.jsonl)")
        if path:
            self.export_requested.emit(path)

    def show_result(self, key: str, ok: bool = True, **values: object) -> None:
        """The text `key` with `values` (a failure's Reason among them), said again after a language switch."""
        self._result = (key, ok, values)
        self.result.setStyleSheet("" if ok else "color: #c62828;")
        self.result.setText(i18n.tr(key, **values))
