"""The confirmation a link in an answer opens is a readable window: the answer's transparent background stays in the
answer (a style rule without a selector reached the dialog too: a transparent window, black on the screen, its target
and buttons unreadable)."""

from __future__ import annotations

from PySide6.QtCore import QTimer, QUrl
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_rag.gui.models.chat import Message
from desktop_rag.gui.views import safe_browser
from desktop_rag.gui.views.message_widget import MessageWidget


def _painted_background(qtbot, widget: MessageWidget, url: str) -> tuple[int, int, int, int] | None:
    """Open the link's confirmation (or refusal) and return the colour its window paints at its top edge."""
    seen: list[tuple[int, int, int, int]] = []

    def look() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, look)
            return
        seen.append(box.grab().toImage().pixelColor(box.width() // 2, 4).getRgb())
        box.reject()

    QTimer.singleShot(0, look)
    safe_browser.open_link(widget.browser, QUrl(url))
    qtbot.waitUntil(lambda: bool(seen), timeout=5_000)
    return seen[0]


def test_the_link_confirmation_and_refusal_paint_their_background(qtbot, qapp):
    widget = MessageWidget(Message("assistant", "See [the page](https://example.org/a) [1]."))
    qtbot.addWidget(widget)
    widget.resize(700, 300)
    widget.show()
    qtbot.waitExposed(widget)
    window = qapp.palette().window().color().getRgb()
    try:
        assert _painted_background(qtbot, widget, "https://example.org/a") == window
        assert _painted_background(qtbot, widget, "file:///etc/passwd") == window
    finally:
        safe_browser.forget_trusted_sites()

    question = MessageWidget(Message("user", "Where is the page?"))  # a tinted bubble still shows through its text
    qtbot.addWidget(question)
    question.resize(700, 120)
    question.show()
    qtbot.waitExposed(question)
    image, inside = question.grab().toImage(), question.browser.geometry()
    text_area = image.pixelColor(inside.right() - 4, inside.center().y()).getRgb()
    assert text_area == image.pixelColor(inside.right() + 4, 4).getRgb() != window
