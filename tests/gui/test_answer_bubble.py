"""An answer's bubble: `[n]` is a link only for a passage the answer was given (while it streams too), the
"Stopped." notice is the engine's coded text in the interface's language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QTextDocument

from desktop_rag.engine import STOPPED, Hit
from desktop_rag.gui import i18n
from desktop_rag.gui.models.chat import Message
from desktop_rag.gui.views.message_widget import RENDER_MS, MessageWidget


@pytest.fixture
def language() -> Iterator:
    yield i18n.set_language
    i18n.set_language("en")


def _passages(count: int) -> tuple[tuple[int, Hit], ...]:
    return tuple((n, Hit(n, 1.0, f"/docs/{n}.txt", None, "", f"passage {n}")) for n in range(1, count + 1))


def _links(document: QTextDocument) -> list[str]:
    """The targets of the document's links, in order."""
    found = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            href = it.fragment().charFormat().anchorHref()
            if href and href not in found:
                found.append(href)
            it += 1
        block = block.next()
    return found


def _bubble(qtbot, message: Message) -> MessageWidget:
    widget = MessageWidget(message)
    qtbot.addWidget(widget)
    widget.resize(600, 300)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


@pytest.mark.parametrize("streaming", [True, False])
def test_a_citation_of_a_passage_not_given_is_never_a_link(qtbot, streaming):
    widget = _bubble(qtbot, Message("assistant", "Brew at 93 °C [1] and see [7] or [5].", _passages(5),
                                    streaming=streaming))
    qtbot.wait(3 * RENDER_MS)  # a streamed render is coalesced
    assert widget.browser.toPlainText() == "Brew at 93 °C [1] and see [7] or [5]."
    assert _links(widget.browser.document()) == ["cite:1", "cite:5"]


def test_the_stopped_notice_follows_the_interface_language(qtbot, language):
    language("zh")
    widget = _bubble(qtbot, Message("assistant", "Half", _passages(1), notice=STOPPED))
    assert widget.notice_label.text() == "已停止。"
    language("en")
    assert widget.notice_label.text() == "Stopped."
