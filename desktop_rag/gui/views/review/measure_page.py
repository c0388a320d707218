"""Review view, "Measure my library": runs the user's labelled questions with each retrieval mode (in the
background, with progress and cancel) and shows recall@5, precision@5 and nDCG@10 side by side, and the stale ones."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_rag.engine import Reason
from desktop_rag.gui import i18n
from desktop_rag.gui.views.panel import plain_label

_HEADERS = ("review.col.mode", "recall@5", "precision@5", "nDCG@10", "review.col.queries")


def mode_name(mode: str) -> str:
    """A retrieval mode's name in the interface language (an unknown one as the engine names it)."""
    key = f"review.mode.{mode.replace(' ', '_')}"
    text = i18n.tr(key)
    return mode if text == key else text


class MeasurePage(QWidget):
    """Run/Cancel, a progress bar, the results table (one row per mode) and the stale questions."""

    run_requested = Signal()
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.intro = plain_label(self)
        self.intro.setWordWrap(True)
        self.intro.setStyleSheet("color: #5f6368;")
        i18n.bind(self.intro, QLabel.setText, "review.measure_intro")
        layout.addWidget(self.intro)
        row = QHBoxLayout()
        self.run_button = QPushButton(self)
        i18n.bind(self.run_button, QPushButton.setText, "review.run")
        self.run_button.clicked.connect(self.run_requested)
        self.cancel_button = QPushButton(self)
        i18n.bind(self.cancel_button, QPushButton.setText, "review.cancel")
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar(self)
        self.progress.setTextVisible(False)
        self.progress.hide()
        row.addWidget(self.run_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.progress, 1)
        row.addStretch(1)  # the buttons keep their size (the progress bar takes half the rest while running)
        layout.addLayout(row)
        self.scope = plain_label(self)  # which collection the last run measured
        self.scope.setWordWrap(True)
        layout.addWidget(self.scope)
        self.status = plain_label(self)
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.table = QTableWidget(0, len(_HEADERS), self)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.table, 2)
        self.stale_label = plain_label(self)
        self.stale_label.setWordWrap(True)
        self.stale_label.setStyleSheet("color: #8a6d00;")
        layout.addWidget(self.stale_label)
        self.stale = QListWidget(self)
        layout.addWidget(self.stale, 1)
        self._report = None
        self._status_key: tuple[str, dict] = ("", {})
        self._scope: tuple[str | None, tuple[str, ...]] | None = None  # (stored name or None: all, every name)
        self._retranslate()
        i18n.on_change(self._retranslate)

    def _retranslate(self) -> None:
        self.table.setHorizontalHeaderLabels([i18n.tr(key) if key.startswith("review.") else key for key in _HEADERS])
        key, values = self._status_key
        self.status.setText(i18n.tr(key, **values) if key else "")
        self._show_scope()
        if self._report is not None:
            self.show_report(self._report)

    def _set_status(self, key: str, **values) -> None:
        self._status_key = (key, values)
        self.status.setStyleSheet("color: #c62828;" if key == "review.failed" else "")
        self.status.setText(i18n.tr(key, **values) if key else "")

    def show_scope(self, name: str | None, names: tuple[str, ...] = ()) -> None:
        """What is measured: the questions of the collection stored as `name`, searched within it (None: all)."""
        self._scope = (name, names)
        self._show_scope()

    def _show_scope(self) -> None:
        if self._scope is None:
            self.scope.setText("")
            return
        name, names = self._scope
        self.scope.setText(i18n.tr("review.scope", name=i18n.collection_name(name, names)) if name is not None
                           else i18n.tr("review.scope_all"))

    def set_running(self, running: bool) -> None:
        """While running, Cancel takes the focus from Run (a disabled button would drop it), and back after."""
        had_focus = self.run_button.hasFocus() or self.cancel_button.hasFocus()
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.progress.setVisible(running)
        if running:
            self.progress.setRange(0, 0)  # busy until the first progress report
            self._set_status("")
        if had_focus:
            (self.cancel_button if running else self.run_button).setFocus()

    def show_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self._set_status("review.running", done=done, total=total)

    def show_cancelled(self) -> None:
        self._set_status("review.cancelled")

    def show_failed(self, reason: Reason) -> None:
        """Why the measurement failed, said again after a language switch."""
        self._set_status("review.failed", reason=reason)

    def show_report(self, report) -> None:
        """`report`: the engine's EvalReport (modes of EvalScores, the first the app's own search; stale labels)."""
        self._report = report
        main = report.main
        if report.cancelled:
            self._set_status("review.cancelled")
        elif main is None or (not main.queries and not report.stale):
            self._set_status("review.no_labels")
        else:
            self._set_status("review.measured", queries=main.queries)
        self.table.setRowCount(len(report.modes))
        for r, scores in enumerate(report.modes):
            values = [mode_name(scores.mode), f"{scores.recall_at_5:.3f}", f"{scores.precision_at_5:.3f}",
                      f"{scores.ndcg_at_10:.3f}", str(scores.queries)]
            for c, value in enumerate(values):
                item = QTableWidgetItem(value)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        self.stale_label.setText(i18n.tr("review.stale", count=len(report.stale)) if report.stale else "")
        self.stale_label.setVisible(bool(report.stale))
        self.stale.clear()
        self.stale.addItems([label.question for label in report.stale])
        self.stale.setVisible(bool(report.stale))
