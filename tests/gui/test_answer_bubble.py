"""An answer's bubble: `[n]` is a link only for a passage the answer was given (while it streams too), an answer
that ended without text shows only its notice, the "Stopped." notice is the engine's coded text in the interface's
language."""

from __future__ import annotations


import pytest
from PySide6.QtGui import QTextDocument

from desktop_rag.engine import STOPPED, Hit, Reason, SentPrompt
from desktop_rag.gui import i18n
from desktop_rag.gui.models.chat import Message
from desktop_rag.gui.views.message_widget import RENDER_MS, MessageWidget


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


def test_an_answer_ended_without_text_shows_only_its_notice(qtbot):
    error = Reason.coded("llm_rate_limit", host="x", detail="slow down")
    failed = _bubble(qtbot, Message("assistant", "", _passages(2), error=error))
    assert failed.notice_label.isVisible() and "x is rate-limiting" in failed.notice_label.text()
    assert not failed.browser.isVisible()  # was an empty line above the red error
    stopped = _bubble(qtbot, Message("assistant", "", _passages(2), notice=STOPPED))
    assert stopped.notice_label.text() == "Stopped." and not stopped.browser.isVisible()
    partial = _bubble(qtbot, Message("assistant", "Half an answer", _passages(2), error="cut"))
    assert partial.browser.isVisible() and partial.browser.toPlainText() == "Half an answer"
    thinking = _bubble(qtbot, Message("assistant", "", _passages(2), streaming=True))
    qtbot.waitUntil(lambda: thinking.browser.toPlainText() == "Searching your library…" and thinking.browser.isVisible())


def test_the_stopped_notice_follows_the_interface_language(qtbot):
    i18n.set_language("zh")
    widget = _bubble(qtbot, Message("assistant", "Half", _passages(1), notice=STOPPED))
    assert widget.notice_label.text() == "已停止。"
    i18n.set_language("en")
    assert widget.notice_label.text() == "Stopped."


@pytest.mark.parametrize("lang, cut, failed", [
    ("en", "The answer was cut off: the model at x took longer than 90 s", "The answer failed: x is rate-limiting"),
    ("zh", "回答被中断：x 上的模型用时超过了 90 秒", "回答失败：x 正在限制请求频率")])
def test_a_failed_answer_says_what_became_of_it_once(qtbot, lang, cut, failed):
    """A failure whose own text says what became of the answer (cut off by the reply's deadline) is shown as it is;
    before, the chat's frame doubled it ("The answer failed: The answer was cut off: …", "回答失败：回答被中断：…").
    Any other failure keeps the frame."""
    i18n.set_language(lang)
    deadline = Reason.coded("llm_cut_deadline", host="x", seconds=90)
    late = _bubble(qtbot, Message("assistant", "Half an answer", _passages(1), error=deadline))
    assert late.notice_label.text().startswith(cut), late.notice_label.text()
    limited = _bubble(qtbot, Message("assistant", "", _passages(1), error=Reason.coded(
        "llm_rate_limit", host="x", detail="slow down")))
    assert limited.notice_label.text().startswith(failed), limited.notice_label.text()


@pytest.mark.parametrize("lang, says", [("en", "Waiting for the model (qwen3:8b)…"), ("zh", "正在等待模型（qwen3:8b）回答…")])
def test_once_the_passages_went_to_the_model_the_bubble_says_it_waits_for_the_model(qtbot, lang, says):
    """A slow or silent model (one loading, one reasoning for a minute) left "Searching your library…" on screen
    long after the search had ended and the sources panel showed its passages."""
    i18n.set_language(lang)
    sent = SentPrompt((("user", "q"),), (1,), 10, 10, model="qwen3:8b")
    waiting = _bubble(qtbot, Message("assistant", "", _passages(2), streaming=True, prompt=sent))
    qtbot.waitUntil(lambda: waiting.browser.toPlainText() == says)
