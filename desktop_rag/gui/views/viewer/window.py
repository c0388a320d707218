"""The viewer window: passage navigation, page/zoom controls, changed-file banner, page or text view, find bar."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_rag.gui import i18n
from desktop_rag.gui.views.viewer.page_view import PageScroll
from desktop_rag.gui.views.viewer.strings import tr
from desktop_rag.gui.views.viewer.text_view import TextPane

PAGE, TEXT, MESSAGE = range(3)
BANNER_STYLE = {
    "warn": "QFrame#viewerBanner { background: #fff4e5; border: 1px solid #ffb74d; border-radius: 4px; }",
    "info": "QFrame#viewerBanner { background: #e8f0fe; border: 1px solid #aecbfa; border-radius: 4px; }",
}


def _plain_label(parent: QWidget, wrap: bool = False) -> QLabel:
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)  # file names and reasons are untrusted
    label.setWordWrap(wrap)
    return label


def _button(parent: QWidget, text: str, slot) -> QPushButton:
    button = QPushButton(text, parent)
    button.clicked.connect(slot)
    return button


class ViewerWindow(QWidget):
    """A top-level window; it only shows things and emits what the user asked for (the controller acts)."""

    previous_passage = Signal()
    next_passage = Signal()
    page_step = Signal(int)  # -1 / +1
    zoom_step = Signal(int)  # -1 / +1
    open_default = Signal()
    reindex = Signal()
    find = Signal(str, int)  # query, 1 forward / 0 backward
    find_edited = Signal()  # the query changed
    back_to_passage = Signal()  # Find (or paging) moved the view away: the cited passage shown again
    ask_document = Signal()  # "Ask this document": questions limited to the file shown
    summarise_document = Signal()  # "Summarise": a summary of the file shown, in the chat

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("viewerWindow")
        self.resize(980, 900)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(self._build_toolbar())
        layout.addWidget(self._build_banner())
        self.body = QSplitter(Qt.Orientation.Horizontal, self)
        self.stack = QStackedWidget(self.body)
        self.page_scroll = PageScroll(self.stack)
        self.stack.addWidget(self.page_scroll)
        self.text_pane = TextPane(self.stack)
        self.stack.addWidget(self.text_pane)
        self.message = _plain_label(self.stack, wrap=True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack.addWidget(self.message)
        self._build_side()
        self.body.setStretchFactor(0, 3)
        self.body.setStretchFactor(1, 1)
        layout.addWidget(self.body, 1)
        self.window_note = _plain_label(self, wrap=True)  # a long document: the lines the text pane leaves out
        self.window_note.setStyleSheet("color: palette(placeholder-text);")
        self.window_note.hide()
        layout.addWidget(self.window_note)
        layout.addLayout(self._build_find_bar())
        i18n.on_change(self._retranslate)
        QShortcut(QKeySequence.StandardKey.Find, self, self.focus_find)
        QShortcut(QKeySequence.StandardKey.ZoomIn, self, lambda: self.zoom_step.emit(1))
        QShortcut(QKeySequence.StandardKey.ZoomOut, self, lambda: self.zoom_step.emit(-1))
        QShortcut(QKeySequence(Qt.Key.Key_PageDown), self, lambda: self.page_step.emit(1))
        QShortcut(QKeySequence(Qt.Key.Key_PageUp), self, lambda: self.page_step.emit(-1))
        back = QShortcut(QKeySequence.StandardKey.Back, self, self.back_button.click)  # disabled: no click
        self._back_key = back.key().toString(QKeySequence.SequenceFormat.NativeText)  # Alt+Left, ⌘[ on macOS
        self.back_button.setToolTip(self._back_tip())

    # ---- building ----

    def _build_toolbar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        self.prev_button = _button(self, tr("prev_passage"), self.previous_passage.emit)
        self.passage_label = _plain_label(self)
        self.next_button = _button(self, tr("next_passage"), self.next_passage.emit)
        self.prev_page_button = _button(self, tr("prev_page"), lambda: self.page_step.emit(-1))
        self.page_label = _plain_label(self)
        self.next_page_button = _button(self, tr("next_page"), lambda: self.page_step.emit(1))
        self.zoom_out_button = _button(self, "−", lambda: self.zoom_step.emit(-1))
        self.zoom_out_button.setToolTip(tr("zoom_out"))
        self.zoom_label = _plain_label(self)
        self.zoom_in_button = _button(self, "+", lambda: self.zoom_step.emit(1))
        self.zoom_in_button.setToolTip(tr("zoom_in"))
        self.open_button = _button(self, tr("open_default"), self.open_default.emit)
        self.ask_button = _button(self, i18n.tr("scope.ask_document"), self.ask_document.emit)
        self.summarise_button = _button(self, i18n.tr("summary.action"), self.summarise_document.emit)
        for w in (self.prev_button, self.passage_label, self.next_button):
            bar.addWidget(w)
        bar.addSpacing(16)
        for w in (self.prev_page_button, self.page_label, self.next_page_button):
            bar.addWidget(w)
        bar.addSpacing(16)
        for w in (self.zoom_out_button, self.zoom_label, self.zoom_in_button):
            bar.addWidget(w)
        bar.addStretch(1)
        bar.addWidget(self.ask_button)
        bar.addWidget(self.summarise_button)
        bar.addWidget(self.open_button)
        return bar

    def _build_banner(self) -> QFrame:
        self.banner = QFrame(self)
        self.banner.setObjectName("viewerBanner")
        row = QHBoxLayout(self.banner)
        row.setContentsMargins(8, 6, 8, 6)
        self.banner_label = _plain_label(self.banner, wrap=True)
        row.addWidget(self.banner_label, 1)
        self.reindex_button = _button(self.banner, tr("reindex"), self.reindex.emit)
        row.addWidget(self.reindex_button)
        self.banner.hide()
        return self.banner

    def _build_side(self) -> None:
        """The stored passage text, shown beside the document when its place could not be matched."""
        self.side = QWidget(self.body)
        side_layout = QVBoxLayout(self.side)
        side_layout.setContentsMargins(4, 0, 0, 0)
        self.side_title = _plain_label(self.side)
        self.side_title.setText(tr("passage_heading"))
        self.side_title.setStyleSheet("font-weight: 600;")
        self.side_text = QPlainTextEdit(self.side)
        self.side_text.setReadOnly(True)
        side_layout.addWidget(self.side_title)
        side_layout.addWidget(self.side_text, 1)
        self.side.hide()

    def _build_find_bar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        self.find_edit = QLineEdit(self)
        self.find_edit.setPlaceholderText(tr("find"))
        self.find_edit.returnPressed.connect(lambda: self._find(True))
        self.find_edit.textChanged.connect(lambda _text: self.find_edited.emit())
        self.find_prev_button = _button(self, tr("find_prev"), lambda: self._find(False))
        self.find_next_button = _button(self, tr("find_next"), lambda: self._find(True))
        self.back_button = _button(self, tr("back_to_passage"), self.back_to_passage.emit)
        self.back_button.setEnabled(False)
        self.find_label = _plain_label(self)
        for w in (self.find_edit, self.find_prev_button, self.find_next_button, self.back_button, self.find_label):
            bar.addWidget(w)
        bar.setStretch(0, 1)
        return bar

    def _retranslate(self) -> None:
        """Static texts in the app's current language (the controller sets the passage's own again: its title,
        counters and banner)."""
        for widget, key in ((self.prev_button, "prev_passage"), (self.next_button, "next_passage"),
                            (self.open_button, "open_default"), (self.reindex_button, "reindex"),
                            (self.find_prev_button, "find_prev"), (self.find_next_button, "find_next"),
                            (self.back_button, "back_to_passage")):
            widget.setText(tr(key))
        self.back_button.setToolTip(self._back_tip())
        self.ask_button.setText(i18n.tr("scope.ask_document"))
        self.summarise_button.setText(i18n.tr("summary.action"))
        self.zoom_out_button.setToolTip(tr("zoom_out"))
        self.zoom_in_button.setToolTip(tr("zoom_in"))
        self.side_title.setText(tr("passage_heading"))
        self.find_edit.setPlaceholderText(tr("find"))

    # ---- showing ----

    @property
    def page_view(self):
        return self.page_scroll.page

    def set_title(self, name: str) -> None:
        self.setWindowTitle(tr("title", name=name))

    def set_passage_nav(self, position: int, count: int, number: int) -> None:
        self.passage_label.setText(tr("passage_of", n=number, i=position + 1, count=count))
        self.prev_button.setEnabled(position > 0)
        self.next_button.setEnabled(position + 1 < count)

    def set_page_nav(self, page: int | None, count: int) -> None:
        """page is 0-based; None hides the page controls (text documents)."""
        visible = page is not None
        for w in (self.prev_page_button, self.page_label, self.next_page_button):
            w.setVisible(visible)
        if visible:
            self.page_label.setText(tr("page_of", page=page + 1, count=count))
            self.prev_page_button.setEnabled(page > 0)
            self.next_page_button.setEnabled(page + 1 < count)

    def set_zoom_label(self, zoom: float) -> None:
        self.zoom_label.setText(f"{round(zoom * 100)} %")

    def set_banner(self, text: str, offer_reindex: bool = False, level: str = "warn") -> None:
        self.banner_label.setText(text)
        self.reindex_button.setVisible(offer_reindex)
        self.reindex_button.setEnabled(True)
        self.banner.setStyleSheet(BANNER_STYLE[level])
        self.banner.setVisible(bool(text))

    def set_file_actions(self, in_library: bool, on_disk: bool) -> None:
        """Ask and Summarise only for a file the library holds, Open in default app only for one on this computer."""
        self.ask_button.setEnabled(in_library)
        self.summarise_button.setEnabled(in_library)
        self.open_button.setEnabled(on_disk)

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.side.hide()
        self.set_window_note("")
        self.stack.setCurrentIndex(MESSAGE)

    def show_page_area(self, passage_beside: str = "") -> None:
        """The page view; with `passage_beside`, the stored passage text next to it."""
        self._beside(passage_beside)
        self.set_window_note("")
        self.stack.setCurrentIndex(PAGE)

    def show_text_area(self, passage_beside: str = "", window_note: str = "") -> None:
        """The text pane; `window_note` says what of a long document it leaves out."""
        self._beside(passage_beside)
        self.set_window_note(window_note)
        self.stack.setCurrentIndex(TEXT)

    def set_window_note(self, text: str) -> None:
        self.window_note.setText(text)
        self.window_note.setVisible(bool(text))

    def _beside(self, passage: str) -> None:
        self.side_text.setPlainText(passage)
        self.side.setVisible(bool(passage))

    def set_find_result(self, text: str) -> None:
        self.find_label.setText(text)

    def set_back_enabled(self, away: bool) -> None:
        """Back to passage is offered only while the view has moved away from the cited passage."""
        self.back_button.setEnabled(away)

    def _back_tip(self) -> str:
        return tr("back_tip", shortcut=self._back_key)

    def focus_find(self) -> None:
        self.find_edit.setFocus()
        self.find_edit.selectAll()

    def _find(self, forward: bool) -> None:
        self.find.emit(self.find_edit.text(), 1 if forward else 0)
