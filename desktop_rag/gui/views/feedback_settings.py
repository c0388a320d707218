"""Settings rows for feedback (issue 39): "Learn from my grades" and "Forget all grades…" (asks first)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QMessageBox, QPushButton, QVBoxLayout, QWidget

from desktop_rag.engine import Localised
from desktop_rag.gui import i18n
from desktop_rag.gui.views.panel import plain_label


class FeedbackSettings(QWidget):
    """`forget_requested` once the user confirmed; answered by `show_forgotten`."""

    forget_requested = Signal()

    def __init__(self, enabled: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.learn = QCheckBox(i18n.tr("settings.feedback"), self)
        self.learn.setChecked(enabled)
        layout.addWidget(self.learn)
        row = QHBoxLayout()
        self.forget_button = QPushButton(i18n.tr("settings.forget_grades"), self)
        self.forget_button.setToolTip(i18n.tr("settings.forget_grades_tip"))
        self.forget_button.clicked.connect(self.confirm_forget)
        self.result = plain_label(self)
        self.result.setWordWrap(True)
        row.addWidget(self.forget_button)
        row.addWidget(self.result, 1)
        layout.addLayout(row)
        self.confirm: QMessageBox | None = None  # the open confirmation

    def confirm_forget(self) -> None:
        """Ask (window-modal, never a nested event loop), then `forget_requested`."""
        box = QMessageBox(QMessageBox.Icon.Question, i18n.tr("settings.forget_grades"),
                          i18n.tr("settings.forget_grades_confirm"),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.finished.connect(lambda result: self._confirmed(box, result))
        self.confirm = box
        box.open()

    def _confirmed(self, box: QMessageBox, _result: int) -> None:
        self.confirm = None
        if box.clickedButton() is box.button(QMessageBox.StandardButton.Yes):
            self.forget_button.setEnabled(False)
            self.result.clear()
            self.forget_requested.emit()
        box.deleteLater()

    def show_forgotten(self, removed: int | None, reason: Localised | str = "") -> None:
        """The grades were removed (`removed` of them), or not (None, `reason`)."""
        try:
            self.forget_button.setEnabled(True)
            self.result.setText(i18n.tr("settings.grades_forgotten", count=removed) if removed is not None
                                else i18n.tr("settings.grades_not_forgotten", reason=reason))
        except RuntimeError:  # the dialog closed meanwhile
            pass
