"""The grade bar under an answer: four one-click grades (the chosen one checked) and the marked right passage."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QButtonGroup, QLabel, QPushButton, QSizePolicy, QWidget

from desktop_rag.gui import i18n
from desktop_rag.gui.views.narrow import FlowLayout

GRADES = ("right", "partly", "wrong", "refused")  # the engine's grade names, in the order shown (keys 1-4)
_STYLE = ("QPushButton { border: 1px solid #dadce0; border-radius: 10px; padding: 1px 8px; color: #3c4043; }"
          "QPushButton:checked { background: #d2e3fc; border-color: #4c8bf5; color: #174ea6; }"
          "QPushButton:focus { border-color: #1a73e8; }")


def passage_text(passage: int | None) -> str:
    """"Right passage: [n]", "…: none of them" (0), or "" when none is marked (None)."""
    if passage is None:
        return ""
    return i18n.tr("grade.passage_none") if passage == 0 else i18n.tr("grade.passage", n=passage)


class GradeBar(QWidget):
    """Emits graded(name) on a click; `set_grade` shows the stored grade (checked) and the marked passage."""

    graded = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = FlowLayout(self)  # onto more lines in a narrow bubble
        layout.setContentsMargins(0, 2, 0, 0)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.prompt = QLabel(self)
        self.prompt.setTextFormat(Qt.TextFormat.PlainText)
        self.prompt.setStyleSheet("color: #80868b; font-size: 11px;")
        i18n.bind(self.prompt, QLabel.setText, "grade.prompt")
        layout.addWidget(self.prompt)
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: dict[str, QPushButton] = {}
        for grade in GRADES:
            button = QPushButton(self)
            button.setCheckable(True)
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.setStyleSheet(_STYLE)
            i18n.bind(button, QPushButton.setText, f"grade.{grade}")
            i18n.bind(button, QPushButton.setToolTip, "grade.tip")
            button.clicked.connect(lambda _checked=False, g=grade: self.graded.emit(g))
            self.group.addButton(button)
            self.buttons[grade] = button
            layout.addWidget(button)
        self.passage_label = QLabel(self)
        self.passage_label.setTextFormat(Qt.TextFormat.PlainText)
        self.passage_label.setStyleSheet("color: #2e7d32; font-size: 11px; padding-left: 6px;")
        layout.addWidget(self.passage_label)
        self._passage: int | None = None
        i18n.on_change(self._show_passage)

    def grade(self) -> str:
        """The grade shown checked ("" when none)."""
        return next((g for g, b in self.buttons.items() if b.isChecked()), "")

    def set_grade(self, grade: str, passage: int | None = None) -> None:
        if grade in self.buttons:
            self.buttons[grade].setChecked(True)
        elif self.grade():
            self.group.setExclusive(False)  # an exclusive group never unchecks its last button
            self.buttons[self.grade()].setChecked(False)
            self.group.setExclusive(True)
        self._passage = passage
        self._show_passage()

    def _show_passage(self) -> None:
        text = passage_text(self._passage)
        self.passage_label.setText(text)
        self.passage_label.setVisible(bool(text))
