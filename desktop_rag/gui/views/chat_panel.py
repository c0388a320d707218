"""The chat area: a message view over ChatModel, the question box, Send/Stop."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop_rag.gui import i18n
from desktop_rag.gui.models.chat import ChatModel
from desktop_rag.gui.text import literal_html, short_title
from desktop_rag.gui.views.message_widget import MessageWidget
from desktop_rag.gui.views.panel import ElidedLabel, plain_label


class QuestionEdit(QPlainTextEdit):
    """Enter submits, Shift+Enter inserts a new line."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class MessageListView(QScrollArea):
    """A vertical list of MessageWidgets kept in sync with a ChatModel."""

    message_selected = Signal(int)  # row
    citation_clicked = Signal(int, int)  # row, number
    regenerate_requested = Signal(int)  # row of a cached answer
    sent_requested = Signal(int)  # row of an answer whose "What was sent" was clicked
    grade_requested = Signal(int, str)  # row of an answer, the grade clicked under it

    def __init__(self, model: ChatModel, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._host = QWidget(self)
        self._host.setObjectName("chatHost")
        self._layout = QVBoxLayout(self._host)
        self._layout.setContentsMargins(10, 10, 10, 10)
        self._layout.setSpacing(10)
        self._empty = plain_label(self._host)
        self._empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._empty.setWordWrap(True)
        self._empty.setStyleSheet("color: #80868b; padding: 40px;")
        self._has_documents = False
        self._show_welcome()
        i18n.on_change(self._show_welcome)
        self._layout.addWidget(self._empty)
        self._layout.addStretch(1)
        self.setWidget(self._host)
        self._widgets: list[MessageWidget] = []
        self._selected = -1
        self._stick = True
        model.modelReset.connect(self._rebuild)
        model.rowsInserted.connect(self._inserted)
        model.dataChanged.connect(self._changed)
        self.verticalScrollBar().rangeChanged.connect(self._on_range)
        self.verticalScrollBar().valueChanged.connect(self._on_scroll)
        self._rebuild()

    def set_has_documents(self, has_documents: bool) -> None:
        """The empty chat's hint: add documents (an empty library), or a question to ask (once it holds some)."""
        self._has_documents = has_documents
        self._show_welcome()

    def _show_welcome(self) -> None:
        self._empty.setText(i18n.tr("chat.welcome_ready" if self._has_documents else "chat.welcome"))

    def widget_at(self, row: int) -> MessageWidget | None:
        return self._widgets[row] if 0 <= row < len(self._widgets) else None

    def _make(self, row: int) -> MessageWidget:
        widget = MessageWidget(self.model.message(row), self._host)
        widget.clicked.connect(lambda w=widget: self._on_clicked(w))
        widget.citation_clicked.connect(lambda n, w=widget: self._on_citation(w, n))
        widget.regenerate_requested.connect(
            lambda w=widget: w in self._widgets and self.regenerate_requested.emit(self._widgets.index(w)))
        widget.sent_requested.connect(
            lambda w=widget: w in self._widgets and self.sent_requested.emit(self._widgets.index(w)))
        widget.grade_requested.connect(
            lambda grade, w=widget: w in self._widgets and self.grade_requested.emit(self._widgets.index(w), grade))
        return widget

    def _rebuild(self) -> None:
        for widget in self._widgets:
            widget.setParent(None)
            widget.deleteLater()
        self._widgets = []
        self._selected = -1
        for row in range(self.model.rowCount()):
            self._widgets.append(self._make(row))
            self._layout.insertWidget(row + 1, self._widgets[-1])
        self._empty.setVisible(not self._widgets)
        self._stick = True

    def _inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        for row in range(first, last + 1):
            widget = self._make(row)
            self._widgets.insert(row, widget)
            self._layout.insertWidget(row + 1, widget)
        self._empty.setVisible(False)
        self._stick = True

    def _changed(self, top: QModelIndex, bottom: QModelIndex, roles=()) -> None:
        for row in range(top.row(), bottom.row() + 1):
            if 0 <= row < len(self._widgets):
                self._widgets[row].set_message(self.model.message(row))

    def select(self, row: int) -> None:
        """Mark one assistant message as the one whose sources are shown."""
        if self._selected == row:
            return
        if 0 <= self._selected < len(self._widgets):
            self._widgets[self._selected].set_selected(False)
        self._selected = row
        if 0 <= row < len(self._widgets):
            self._widgets[row].set_selected(True)

    def _on_clicked(self, widget: MessageWidget) -> None:
        row = self._widgets.index(widget) if widget in self._widgets else -1
        if row >= 0 and widget.message.role == "assistant":
            self.message_selected.emit(row)

    def _on_citation(self, widget: MessageWidget, number: int) -> None:
        if widget in self._widgets:
            self.citation_clicked.emit(self._widgets.index(widget), number)

    def _on_scroll(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._stick = value >= bar.maximum() - 4

    def _on_range(self, _min: int, maximum: int) -> None:
        if self._stick:
            QTimer.singleShot(0, lambda: self.verticalScrollBar().setValue(self.verticalScrollBar().maximum()))


class ChatPanel(QWidget):
    """Messages on top, the question box and Send/Stop below."""

    ask = Signal(str)
    stop = Signal()

    def __init__(self, model: ChatModel, parent=None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.title = ElidedLabel(self)  # a conversation title: the user's (or a pasted) question
        self.title.setObjectName("chatTitle")  # (a rule without a selector would reach its tooltip too)
        self.title.setStyleSheet("#chatTitle { font-weight: 600; font-size: 11pt; padding: 2px 4px; }")
        layout.addWidget(self.title)
        self.messages = MessageListView(model, self)
        layout.addWidget(self.messages, 1)
        row = QHBoxLayout()
        self.input = QuestionEdit(self)
        self.input.setFixedHeight(70)
        i18n.bind(self.input, QPlainTextEdit.setPlaceholderText, "chat.placeholder")
        self.input.submitted.connect(self.submit)
        row.addWidget(self.input, 1)
        buttons = QVBoxLayout()
        self.send_button = QPushButton(self)
        self.send_button.setDefault(True)
        i18n.bind(self.send_button, QPushButton.setText, "chat.send")
        self.send_button.clicked.connect(self.submit)
        self.stop_button = QPushButton(self)
        i18n.bind(self.stop_button, QPushButton.setText, "chat.stop")
        self.stop_button.clicked.connect(self.stop.emit)
        self.stop_button.setEnabled(False)
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        row.addLayout(buttons)
        layout.addLayout(row)

    def set_title(self, title: str) -> None:
        """The open conversation's title, cut to a few words and to the panel's width (whole in the tooltip)."""
        self.title.set_full_text(short_title(title))
        self.title.setToolTip(literal_html(title))

    def submit(self) -> None:
        question = self.input.toPlainText().strip()
        if not question or not self.send_button.isEnabled():
            return
        self.input.clear()
        self.ask.emit(question)

    def set_streaming(self, streaming: bool) -> None:
        self.send_button.setEnabled(not streaming)
        self.stop_button.setEnabled(streaming)
