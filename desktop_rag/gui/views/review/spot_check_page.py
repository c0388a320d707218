"""Review view, "Spot check": recent ungraded questions one by one (question, answer, sources), graded by keyboard.

Keys (while the page has the focus): 1-4 grade (fully right, partly right, wrong, refused) and move on,
→ / N next, ← / P previous; every action is also a button reachable with Tab and Enter; Esc closes the view."""

from __future__ import annotations

import os
from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from desktop_rag.gui import i18n
from desktop_rag.gui.views.grade_bar import GRADES, GradeBar
from desktop_rag.gui.views.panel import plain_label
from desktop_rag.gui.views.safe_browser import SafeTextBrowser

SNIPPET_CHARS = 160


def _heading(parent: QWidget, key: str) -> QLabel:
    label = plain_label(parent)
    label.setStyleSheet("font-weight: 600; color: #5f6368;")
    i18n.bind(label, QLabel.setText, key)
    return label


class SpotCheckPage(QWidget):
    """Shows LoggedAnswers (.id, .question, .answer, .sources, .grade) one by one; emits graded(answer id, grade)."""

    graded = Signal(int, str)
    sample_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.items: list = []
        self.position = 0
        layout = QVBoxLayout(self)
        self.intro = plain_label(self)
        self.intro.setWordWrap(True)
        self.intro.setStyleSheet("color: #5f6368;")
        i18n.bind(self.intro, QLabel.setText, "review.spot_intro")
        layout.addWidget(self.intro)
        self.position_label = plain_label(self)
        self.position_label.setStyleSheet("font-weight: 600;")
        layout.addWidget(self.position_label)
        layout.addWidget(_heading(self, "review.spot_question"))
        self.question = plain_label(self)
        self.question.setWordWrap(True)
        self.question.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.question)
        layout.addWidget(_heading(self, "review.spot_answer"))
        self.answer = SafeTextBrowser(self)
        self.answer.setFrameShape(QFrame.Shape.StyledPanel)
        self.answer.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys belong to the page
        layout.addWidget(self.answer, 3)
        layout.addWidget(_heading(self, "review.spot_sources"))
        self.sources = QListWidget(self)
        self.sources.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.sources.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.sources.setTextElideMode(Qt.TextElideMode.ElideRight)
        layout.addWidget(self.sources, 2)
        self.grade_bar = GradeBar(self)
        self.grade_bar.graded.connect(self.grade)
        layout.addWidget(self.grade_bar)
        layout.addLayout(self._navigation())
        for keys, slot in ((("Right", "N"), self.next), (("Left", "P"), self.previous)):
            for key in keys:
                self._shortcut(key, slot)
        for number, grade in enumerate(GRADES, 1):
            self._shortcut(str(number), lambda g=grade: self.grade(g))
        i18n.on_change(self._show)
        self._show()

    def _navigation(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.previous_button = QPushButton(self)
        self.next_button = QPushButton(self)
        self.sample_button = QPushButton(self)
        for button, key, slot in ((self.previous_button, "review.previous", self.previous),
                                  (self.next_button, "review.next", self.next),
                                  (self.sample_button, "review.new_sample", self.sample_requested.emit)):
            i18n.bind(button, QPushButton.setText, key)
            button.clicked.connect(slot)
            row.addWidget(button)
            if button is self.next_button:
                row.addStretch(1)
        return row

    def _shortcut(self, key: str, slot) -> None:
        shortcut = QShortcut(QKeySequence(key), self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(slot)

    def set_items(self, items: Sequence) -> None:
        self.items, self.position = list(items), 0
        self._show()
        (self.grade_bar.buttons[GRADES[0]] if self.items else self.sample_button).setFocus()

    @property
    def current(self):
        return self.items[self.position] if 0 <= self.position < len(self.items) else None

    def grade(self, grade: str) -> None:
        """Grade the question shown, then show the next one (the grade stays changeable: ← goes back)."""
        item = self.current
        if item is None:
            return
        self.items[self.position] = _with_grade(item, grade)
        self.graded.emit(item.id, grade)
        if self.position < len(self.items) - 1:
            self.position += 1
        self._show()

    def next(self) -> None:
        self._move(1)

    def previous(self) -> None:
        self._move(-1)

    def _move(self, step: int) -> None:
        position = self.position + step
        if 0 <= position < len(self.items):
            self.position = position
            self._show()

    def _show(self) -> None:
        item = self.current
        has = item is not None
        for widget in (self.answer, self.sources, self.grade_bar, self.previous_button, self.next_button):
            widget.setEnabled(has)
        self.sources.clear()
        if not has:
            self.position_label.setText(i18n.tr("review.spot_empty"))
            self.question.clear()
            self.answer.clear()
            self.grade_bar.set_grade("")
            return
        self.position_label.setText(i18n.tr("review.spot_position", n=self.position + 1, total=len(self.items)))
        self.question.setText(item.question)
        self.answer.set_answer_markdown(item.answer, len(item.sources))
        for number, hit in enumerate(item.sources, 1):
            snippet = " ".join(hit.text.split())[:SNIPPET_CHARS]
            self.sources.addItem(f"[{number}] {os.path.basename(hit.path)} — {snippet}")
        self.grade_bar.set_grade(item.grade or "")
        self.previous_button.setEnabled(self.position > 0)
        self.next_button.setEnabled(self.position < len(self.items) - 1)


def _with_grade(item, grade: str):
    """The item with its new grade (items are frozen dataclasses)."""
    import dataclasses

    return dataclasses.replace(item, grade=grade)
