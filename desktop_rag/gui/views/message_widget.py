"""One chat bubble: role, rendered answer (Markdown, clickable citations), notice, copy and regenerate buttons,
and under a finished answer the grade bar (views/grade_bar.py)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout

from desktop_rag.engine import Reason
from desktop_rag.gui import i18n
from desktop_rag.gui.models.chat import Message
from desktop_rag.gui.views.grade_bar import GradeBar
from desktop_rag.gui.views.narrow import WrapLabel, flow_of
from desktop_rag.gui.views.safe_browser import SafeTextBrowser

_STYLE = {
    "user": "QFrame#bubble { background: #e8f0fe; border: 1px solid #d2e3fc; border-radius: 8px; }",
    "assistant": "QFrame#bubble { background: #ffffff; border: 1px solid #e0e0e0; border-radius: 8px; }",
    "selected": "QFrame#bubble { background: #ffffff; border: 2px solid #4c8bf5; border-radius: 8px; }",
}
RENDER_MS = 40
# failures whose text already says what became of the answer ("The answer was cut off: …", "回答被中断：…"): shown as
# they are, not inside the chat's "The answer failed: …" (which read then "The answer failed: The answer was cut off")
SELF_FRAMED = frozenset({"llm_cut", "llm_cut_deadline"})


def keyword_only_notice(message: Message) -> str:
    """Why this answer may miss passages: the search index was still loading, so only keywords matched."""
    if message.loading_passages > 0:
        return i18n.tr("chat.keyword_only", count=f"{message.loading_passages:,}")
    return i18n.tr("chat.keyword_only_plain")


def failure_notice(error: Reason | str) -> str:
    """Why an answer failed, said once: in the chat's frame, unless its own text opens with what became of it."""
    said = i18n.error(error)
    if isinstance(error, Reason) and error.code in SELF_FRAMED:
        return said
    return i18n.tr("chat.error", message=said)


class MessageWidget(QFrame):
    """Shows a Message; emits clicked() and citation_clicked(n)."""

    clicked = Signal()
    citation_clicked = Signal(int)
    regenerate_requested = Signal()  # a cached answer: ask the model afresh
    sent_requested = Signal()  # "What was sent": show the messages the model received
    grade_requested = Signal(str)  # a grade button was clicked (GradeBar.GRADES)

    def __init__(self, message: Message, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("bubble")
        self.message = message
        self._selected = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.setSpacing(4)
        header = QHBoxLayout()
        self.role_label = QLabel(self)
        self.role_label.setTextFormat(Qt.TextFormat.PlainText)
        self.role_label.setStyleSheet("color: #5f6368; font-weight: 600;")
        header.addWidget(self.role_label, 0, Qt.AlignmentFlag.AlignTop)
        self.copy_button = self._action_button("chat.copy", self.copy_text)
        self.regenerate_button = self._action_button("chat.regenerate", self.regenerate_requested)
        self.sent_button = self._action_button("sent.button", self.sent_requested)
        # the buttons wrap onto another line in a narrow bubble (never wider than the view)
        header.addWidget(flow_of([self.copy_button, self.regenerate_button, self.sent_button], self, align_right=True), 1)
        layout.addLayout(header)
        self.browser = SafeTextBrowser(self)
        self.browser.setFrameShape(QFrame.Shape.NoFrame)
        self.browser.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.browser.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.browser.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        # the browser only: a rule without a selector reaches its children too, and the link confirmation it opens
        # would be a transparent window (black, its text unreadable)
        self.browser.setStyleSheet("QTextBrowser { background: transparent; }")
        self.browser.citation_clicked.connect(self._on_citation)
        self.browser.viewport().installEventFilter(self)
        self.browser.installEventFilter(self)  # refit when its width changes
        layout.addWidget(self.browser)
        self.translation_label = WrapLabel(self)  # a question's translation, as searched (small, plain text)
        self.translation_label.setStyleSheet("color: #5f6368; font-size: 11px;")
        layout.addWidget(self.translation_label)
        self.notice_label = WrapLabel(self)  # an error may hold a long URL: wrapped inside it, never wider
        layout.addWidget(self.notice_label)
        self.grade_bar = GradeBar(self)  # under a finished answer that the engine logged
        self.grade_bar.graded.connect(self.grade_requested)
        layout.addWidget(self.grade_bar)
        self._render_timer = QTimer(self, singleShot=True, interval=RENDER_MS)
        self._render_timer.timeout.connect(self._render)
        i18n.on_change(self._render)
        self.set_message(message)

    def _action_button(self, text_key: str, slot) -> QPushButton:
        button = QPushButton(self)
        button.setFlat(True)
        button.setCursor(Qt.CursorShape.PointingHandCursor)
        button.clicked.connect(slot)
        i18n.bind(button, QPushButton.setText, text_key)
        return button

    # ---- content ----

    def set_message(self, message: Message) -> None:
        """Show `message`; while streaming, renders are coalesced (at most one per RENDER_MS)."""
        self.message = message
        if message.streaming:
            if not self._render_timer.isActive():
                self._render_timer.start()
        else:
            self._render_timer.stop()
            self._render()

    def _render(self) -> None:
        message = self.message
        self.role_label.setText(i18n.tr("chat.you" if message.role == "user" else "chat.assistant"))
        self.copy_button.setVisible(message.role == "assistant" and not message.streaming and bool(message.text))
        self.regenerate_button.setVisible(message.cached and not message.streaming)
        self.sent_button.setVisible(message.role == "assistant" and message.prompt is not None)
        if message.role == "user":
            self.browser.setPlainText(message.text)
        elif not message.text and message.streaming and message.held:  # written, held until known not thinking
            self.browser.setPlainText(i18n.tr("chat.writing", count=f"{message.held:,}"))
        elif not message.text and message.streaming and message.thought:  # thinking in a <think> block
            self.browser.setPlainText(i18n.tr("chat.model_thinking", count=f"{message.thought:,}"))
        elif not message.text and message.streaming and message.prompt is not None:  # the passages went to a model
            self.browser.setPlainText(i18n.tr("chat.waiting_model", model=message.prompt.model))
        elif not message.text and message.streaming:
            self.browser.setPlainText(i18n.tr("chat.thinking"))
        else:
            self.browser.set_answer_markdown(message.text, len(message.sources))
        # an answer that ended without text (failed, stopped at once) is only its notice: no empty line above it
        self.browser.setVisible(bool(message.text) or message.streaming or message.role == "user")
        self._render_translation(message)
        self._render_notice(message)
        gradable = message.role == "assistant" and not message.streaming and message.answer_id is not None
        if gradable:
            self.grade_bar.set_grade(message.grade, message.passage)
        self.grade_bar.setVisible(gradable)
        self._apply_style()
        self._fit()

    def _render_translation(self, message: Message) -> None:
        lines = [i18n.tr("chat.translation", language=i18n.tr(f"language.{lang}"), text=text)
                 for lang, text in message.translations]
        self.translation_label.setText("\n".join(lines))
        self.translation_label.setVisible(bool(lines))

    def _render_notice(self, message: Message) -> None:
        """The answer's one notice: keyword-only (vectors still loading), then the error or the engine's notice."""
        lines = [keyword_only_notice(message)] if message.keyword_only else []
        if message.cached:
            lines.append(i18n.tr("chat.cached"))
        if message.error:
            lines.append(failure_notice(message.error))
        elif message.notice:  # an extractive answer's notice already says how to set a model
            lines.append(i18n.engine_text(message.notice))
        self.notice_label.setText("\n".join(lines))
        style = "color: #c62828;" if message.error else "color: #8a6d00;"
        if self.notice_label.styleSheet() != style:  # (a re-style per streamed render would cost a polish)
            self.notice_label.setStyleSheet(style)
        self.notice_label.setVisible(bool(lines))

    def set_selected(self, selected: bool) -> None:
        self._selected = selected
        self._apply_style()

    def _apply_style(self) -> None:
        key = "user" if self.message.role == "user" else ("selected" if self._selected else "assistant")
        self.setStyleSheet(_STYLE[key])

    def copy_text(self) -> None:
        QGuiApplication.clipboard().setText(self.message.text)

    # ---- sizing and clicks ----

    def _fit(self) -> None:
        doc = self.browser.document()
        margins = self.browser.contentsMargins()
        width = self.browser.width() - margins.left() - margins.right() - 2 * self.browser.frameWidth()
        doc.setTextWidth(max(width, 50))
        height = int(doc.size().height()) + margins.top() + margins.bottom() + 2 * self.browser.frameWidth() + 2
        self.browser.setFixedHeight(max(height, 24))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.MouseButtonPress:
            self.clicked.emit()
        elif event.type() == QEvent.Type.Resize and watched is self.browser:
            if event.size().width() != event.oldSize().width():
                self._fit()
        return False

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.clicked.emit()
        super().mousePressEvent(event)

    def _on_citation(self, number: int) -> None:
        self.clicked.emit()
        self.citation_clicked.emit(number)
