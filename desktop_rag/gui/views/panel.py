"""Shared view pieces: the titled head of the side panels, plain-text labels, tooltips and questions.

Names, paths, errors and model text are hostile: Qt guesses "rich text" for labels, tooltips and message
boxes, and rich text loads images named in it, so everything here shows text literally.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QAbstractItemView, QLabel, QMessageBox, QSizePolicy, QToolTip, QVBoxLayout, QWidget

from desktop_rag.gui import i18n
from desktop_rag.gui.text import literal_html


def plain_label(parent: QWidget, text: str = "") -> QLabel:
    """A QLabel that always shows its text literally (never as HTML)."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    return label


class ElidedLabel(QLabel):
    """One line of plain text that never widens its panel: cut with "…" to the width it is given (`set_full_text`)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.full_text = ""

    def set_full_text(self, text: str) -> None:
        self.full_text = text
        self._elide()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = self.contentsRect().width()
        self.setText(self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideRight, max(width, 1)))


def titled_layout(panel: QWidget, title_key: str) -> QVBoxLayout:
    """Give `panel` a margin-less vertical layout whose first row is its title."""
    layout = QVBoxLayout(panel)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(6)
    title = plain_label(panel)
    title.setStyleSheet("font-weight: 600; font-size: 11pt; padding: 2px 4px;")
    i18n.bind(title, QLabel.setText, title_key)
    layout.addWidget(title)
    return layout


def show_plain(parent: QWidget, icon: QMessageBox.Icon, title: str, text: str) -> QMessageBox:
    """A message box whose text (an error may hold a path or a server's words) is shown literally; opened with
    `open()`, never `exec()`: the GUI thread does not wait in a nested event loop."""
    box = QMessageBox(icon, title, text, parent=parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.open()
    return box


def ask_plain(parent: QWidget, title: str, text: str) -> bool:
    """A Yes/No question whose text (it may hold a file name or a title) is shown literally."""
    answer = QMessageBox.question(parent, title, literal_html(text))
    return answer == QMessageBox.StandardButton.Yes


class _PlainToolTips(QObject):
    """Shows an item view's ToolTipRole data literally instead of letting Qt guess rich text."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self.view = view

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() != QEvent.Type.ToolTip or not isinstance(event, QHelpEvent):
            return False
        index = self.view.indexAt(event.pos())
        text = index.data(Qt.ItemDataRole.ToolTipRole) if index.isValid() else None
        if text is None or text == "":
            QToolTip.hideText()
            event.ignore()
        else:
            QToolTip.showText(event.globalPos(), literal_html(str(text)), self.view.viewport(),
                              self.view.visualRect(index))
        return True


def plain_tooltips(view: QAbstractItemView) -> None:
    """Make `view` show its items' tooltips (paths, errors, titles) as plain text."""
    view.viewport().installEventFilter(_PlainToolTips(view))
