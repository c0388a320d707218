"""Chat bubbles follow the view's width: in a narrow chat panel the header buttons ("What was sent") and the grade
buttons wrap onto more lines, and a long URL or Chinese run in the answer, the translation or the notice wraps
inside itself, so no bubble is wider than the view (its right edge was cut off); in a wide panel bubbles fill it."""

from __future__ import annotations


import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QWidget

from desktop_rag.engine import Hit, SentPrompt
from desktop_rag.gui import i18n
from desktop_rag.gui.models.chat import ChatModel, Message
from desktop_rag.gui.views.chat_panel import MessageListView

URL = "https://example.com/" + "very-long-path-" * 12 + "end"
CHINESE = "绿茶适合用八十度左右的水冲泡不要用沸水否则会苦" * 8


def _conversation() -> ChatModel:
    prompt = SentPrompt((("user", "q"),), (3,), 1, 1, "fake-model")
    hit = Hit(1, 1.0, "/docs/tea.txt", None, "", "passage")
    model = ChatModel()
    model.append(Message("user", f"{URL} {CHINESE}", translations=(("zh", CHINESE),)))
    model.append(Message("assistant", f"See {URL} [1] {CHINESE}", ((1, hit),), prompt=prompt, answer_id=7,
                         cached=True, grade="partly", passage=0, error=f"could not reach {URL}"))
    return model


def _outside(view: MessageListView) -> list[str]:
    """The visible pieces of the bubbles that reach past the view's right edge."""
    right = view.viewport().width()
    pieces: list[QWidget] = [view.widget_at(row) for row in range(view.model.rowCount())]
    pieces += [child for bubble in list(pieces) for child in bubble.findChildren(QWidget) if child.isVisible()]
    return [f"{type(p).__name__} {p.objectName() or p.property('text') or ''}" for p in pieces
            if p.mapTo(view.viewport(), QPoint(p.width(), 0)).x() > right]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bubbles_never_reach_past_a_narrow_view_and_fill_a_wide_one(qtbot, lang):
    i18n.set_language(lang)
    view = MessageListView(_conversation())
    qtbot.addWidget(view)
    view.show()
    for width in (260, 900):
        view.resize(width, 600)
        bubble = view.widget_at(1)
        qtbot.wait(100)  # the layouts settle
        assert _outside(view) == []
        assert view.widget().width() == view.viewport().width()
        assert view.horizontalScrollBar().maximum() == 0
        assert bubble.width() == view.viewport().width() - 20  # the list's margins, 10 each side
        answer = bubble.browser.document()
        assert answer.idealWidth() <= answer.textWidth()  # the URL wrapped inside the answer, not cut
        notice = bubble.notice_label
        assert notice.height() >= notice.heightForWidth(notice.width())  # the whole error, on as many lines
