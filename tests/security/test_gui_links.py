"""Attack: a link in an answer opens on one click, its visible text lies about its target, bare URLs become links.

A link from an answer opens only after the user saw its real target in a confirmation and agreed; only
http, https and mailto may be opened at all. What reaches the system is recorded through Qt's own hook
for URL handlers (QDesktopServices.setUrlHandler), the boundary where Qt would hand the URL to the OS.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any Qt import

import pytest  # noqa: E402
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt, QTimer, QUrl, Slot  # noqa: E402
from PySide6.QtGui import QDesktopServices, QMouseEvent, QTextCursor  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from desktop_rag.engine import Hit  # noqa: E402
from desktop_rag.gui.models.chat import Message  # noqa: E402
from desktop_rag.gui.views.message_widget import MessageWidget  # noqa: E402

SCHEMES = ("http", "https", "mailto", "file", "smb", "javascript")


class Opened(QObject):
    """Receives every URL Qt would have handed to the browser, mail app or file manager."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url.toString())


@pytest.fixture
def opened(qapp):
    receiver = Opened()
    for scheme in SCHEMES:
        QDesktopServices.setUrlHandler(scheme, receiver, "open")
    yield receiver
    for scheme in SCHEMES:
        QDesktopServices.unsetUrlHandler(scheme)
    try:
        from desktop_rag.gui.views.safe_browser import forget_trusted_sites
    except ImportError:  # the code before links were confirmed
        return
    forget_trusted_sites()


@pytest.fixture
def answer(qtbot):
    def show(text: str) -> MessageWidget:
        source = Hit(chunk_id=1, score=1.0, path="/docs/report.txt", page=None, heading="", text="The report.")
        widget = MessageWidget(Message("assistant", text, sources=((1, source),)))  # [1] cites a passage given
        qtbot.addWidget(widget)
        widget.resize(700, 300)
        widget.show()
        qtbot.waitExposed(widget)
        return widget

    return show


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


def test_a_link_opens_only_after_the_user_saw_its_real_target(qtbot, answer, opened) -> None:
    target = "https://evil.example/steal?who=you"
    widget = answer(f"Sign in at [https://bank.example/login]({target}) to continue [1].")
    assert target in anchors(widget)

    point = QPointF(link_point(widget, target))
    move = QMouseEvent(QEvent.Type.MouseMove, point, widget.browser.viewport().mapToGlobal(point),
                       Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget.browser.viewport(), move)
    qtbot.waitUntil(lambda: "evil.example/steal" in widget.browser.toolTip(), timeout=5_000)  # hover shows it

    shown = click_link(qtbot, widget, target, reply="cancel")
    assert shown is not None, "the link opened (or nothing happened) without asking"
    assert target in shown and "evil.example" in shown and "bank.example" not in shown
    assert opened.urls == []  # declined: nothing opened

    click_link(qtbot, widget, target, reply="open")
    assert opened.urls == [target]  # accepted: exactly the real target


@pytest.mark.parametrize("target", ["file:///etc/passwd", "/etc/passwd", "smb://host/share/x.pdf",
                                    "javascript:alert(1)", "http:/etc/passwd"])
def test_links_other_than_web_and_mail_are_refused_with_a_message(qtbot, answer, opened, target: str) -> None:
    widget = answer(f"Open [the report]({target}) now.")
    (href,) = anchors(widget)
    shown = click_link(qtbot, widget, href, reply="ok")
    assert shown is not None, "no message told the user the link was refused"
    assert "not opened" in shown and href in shown
    assert opened.urls == []


def test_bare_addresses_do_not_become_links(answer) -> None:
    widget = answer("Visit https://evil.example/x or www.evil.example, or write to someone@evil.example [1].")
    assert set(anchors(widget)) == {"cite:1"}


def test_remembering_a_site_lasts_for_that_site_only(qtbot, answer, opened) -> None:
    widget = answer("See [the first page](https://docs.example/a), [the second page](https://docs.example/b) "
                    "and [another site](https://other.example/c).")
    assert click_link(qtbot, widget, "https://docs.example/a", reply="open", remember=True) is not None
    assert click_link(qtbot, widget, "https://docs.example/b", reply=None) is None  # remembered: no question
    assert click_link(qtbot, widget, "https://other.example/c", reply="cancel") is not None
    assert opened.urls == ["https://docs.example/a", "https://docs.example/b"]


def test_look_alike_hosts_are_shown_as_they_really_are(qtbot, answer, opened) -> None:
    widget = answer("Pay at [аpple.com](https://аpple.com/pay) [1].")  # the first letter is Cyrillic
    (href,) = [h for h in anchors(widget) if not h.startswith("cite:")]
    shown = click_link(qtbot, widget, href, reply="cancel")
    assert shown is not None and "xn--pple-43d.com" in shown  # the real (punycode) host, not a look-alike
    assert opened.urls == []
