"""An answer's bubble: the "Stopped." notice is the engine's coded text in the interface's language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from desktop_rag.engine import STOPPED, Hit
from desktop_rag.gui import i18n
from desktop_rag.gui.models.chat import Message
from desktop_rag.gui.views.message_widget import MessageWidget


@pytest.fixture
def language() -> Iterator:
    yield i18n.set_language
    i18n.set_language("en")


def _passages(count: int) -> tuple[tuple[int, Hit], ...]:
    return tuple((n, Hit(n, 1.0, f"/docs/{n}.txt", None, "", f"passage {n}")) for n in range(1, count + 1))


def _bubble(qtbot, message: Message) -> MessageWidget:
    widget = MessageWidget(message)
    qtbot.addWidget(widget)
    widget.resize(600, 300)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_the_stopped_notice_follows_the_interface_language(qtbot, language):
    language("zh")
    widget = _bubble(qtbot, Message("assistant", "Half", _passages(1), notice=STOPPED))
    assert widget.notice_label.text() == "已停止。"
    language("en")
    assert widget.notice_label.text() == "Stopped."
