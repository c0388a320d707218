"""A link in an answer, clicked as a person does: the answer rendered by the real widget, its links and where they
are drawn, a click and the confirmation it brings up, and what would have reached the system (recorded through
Qt's own hook for URL handlers, QDesktopServices.setUrlHandler, where Qt would hand the URL to the OS)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QObject, QPoint, Qt, QTimer, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QTextCursor
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_rag.engine import Hit
from desktop_rag.gui.models.chat import Message
from desktop_rag.gui.views.message_widget import MessageWidget
from desktop_rag.gui.views.safe_browser import forget_trusted_sites

SCHEMES = ("http", "https", "mailto", "file", "smb", "javascript")


class Opened(QObject):
    """Receives every URL Qt would have handed to the browser, mail app or file manager."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url.toString())


@contextmanager
def urls_opened() -> Iterator[Opened]:
    """An `Opened` receiving every URL of SCHEMES while the block runs; the sites trusted meanwhile forgotten."""
    receiver = Opened()
    for scheme in SCHEMES:
        QDesktopServices.setUrlHandler(scheme, receiver, "open")
    try:
        yield receiver
    finally:
        for scheme in SCHEMES:
            QDesktopServices.unsetUrlHandler(scheme)
        forget_trusted_sites()


def shown_answer(qtbot, text: str) -> MessageWidget:
    """An answer of `text` whose [1] cites a passage, rendered by the real widget and shown."""
    source = Hit(chunk_id=1, score=1.0, path="/docs/report.txt", page=None, heading="", text="The report.")
    widget = MessageWidget(Message("assistant", text, sources=((1, source),)))
    qtbot.addWidget(widget)
    widget.resize(700, 300)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def anchors(widget: MessageWidget) -> dict[str, tuple[int, int]]:
    """Every link in the rendered answer: target -> (document position, length) of its text."""
    found: dict[str, tuple[int, int]] = {}
    block = widget.browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().isAnchor():
                found.setdefault(fragment.charFormat().anchorHref(), (fragment.position(), fragment.length()))
            it += 1
        block = block.next()
    return found


def link_point(widget: MessageWidget, target: str) -> QPoint:
    """The middle of the link's visible text, in viewport coordinates."""
    start, length = anchors(widget)[target]
    cursor = QTextCursor(widget.browser.document())
    cursor.setPosition(start)
    left = widget.browser.cursorRect(cursor)
    cursor.setPosition(start + length)
    right = widget.browser.cursorRect(cursor)
    return QPoint((left.left() + right.left()) // 2, left.center().y())


def _asked_by(box: QMessageBox, widget: MessageWidget) -> bool:
    """Whether the box belongs to this answer (the link confirmation is parented to it)."""
    parent = box.parent()
    while parent is not None and parent is not widget:
        parent = parent.parent()
    return parent is widget


def click_link(qtbot, widget: MessageWidget, target: str, reply: str | None, remember: bool = False) -> str | None:
    """Click the link to `target`; if a dialog appears, return its text and answer it with `reply`."""
    seen: list[str] = []
    tries = [0]

    def handle() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or not _asked_by(box, widget):  # not some other test's leftover box
            tries[0] += 1
            if tries[0] < 100:
                QTimer.singleShot(20, handle)
            return
        seen.append(box.text() if box.textFormat() == Qt.TextFormat.PlainText else "<rich>" + box.text())
        if remember and box.checkBox() is not None:
            box.checkBox().setChecked(True)
        if reply == "open":
            next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole).click()
        else:
            box.reject()

    QTimer.singleShot(0, handle)
    qtbot.mouseClick(widget.browser.viewport(), Qt.MouseButton.LeftButton, pos=link_point(widget, target))
    qtbot.waitUntil(lambda: bool(seen) or tries[0] >= 100, timeout=10_000)
    return seen[0] if seen else None
