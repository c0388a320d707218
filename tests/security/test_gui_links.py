"""Attack: a link in an answer opens on one click, its visible text lies about its target, bare URLs become links.

A link from an answer opens only after the user saw its real target in a confirmation and agreed; only
http, https and mailto may be opened at all. What reaches the system is recorded through Qt's own hook
for URL handlers (QDesktopServices.setUrlHandler), the boundary where Qt would hand the URL to the OS.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any Qt import

import pytest  # noqa: E402
from PySide6.QtCore import QEvent, QPointF, Qt  # noqa: E402
from PySide6.QtGui import QMouseEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from tests.support.answer_links import anchors, click_link, link_point  # noqa: E402


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
