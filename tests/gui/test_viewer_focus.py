"""The viewer lights the sentence an extractive answer quoted strongly and the rest of its passage lightly,
and scrolls to that sentence: text documents and PDFs."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextCursor

from tests.data.make_fixtures import build_pdf
from tests.gui.conftest import add_and_wait
from tests.support.chat_window import ask

QUOTED = "The heron raises two broods each summer near the northern lakes."
OTHER = "Tall grey birds with long legs wade in the reeds."


def _open_first_citation(qtbot, window):
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    with qtbot.waitSignal(window.viewer.located, timeout=30_000) as blocker:
        bubble.browser.anchorClicked.emit(QUrl("cite:1"))
    return blocker.args[0]


def test_a_text_document_highlights_the_quoted_sentence_and_scrolls_to_it(make_window, qtbot, tmp_path):
    filler = "\n\n".join(f"Paragraph {i}: general remarks about gardening tools and soil." for i in range(150))
    doc = tmp_path / "docs" / "birds.md"
    doc.parent.mkdir()
    doc.write_text(f"# Notes\n\n{filler}\n\n## Herons\n\n{OTHER} They wade in shallow water. They eat fish.\n"
                   f"{QUOTED}\n\n{filler}\n", encoding="utf-8")
    window = make_window()
    add_and_wait(qtbot, window, [str(doc)])
    message = ask(qtbot, window, "How many broods does the heron raise each summer?")
    assert message.mode == "extractive" and QUOTED in message.text
    hit = dict(message.sources)[1]
    assert hit.focus and QUOTED in [hit.text[a:b] for a, b in hit.focus]

    location = _open_first_citation(qtbot, window)
    pane = window.viewer.view.text_pane
    assert location.found and location.text[slice(*location.focus[0])] == QUOTED
    assert pane.focused_text() == [QUOTED]  # strongly
    assert pane.highlighted_text() == hit.text  # the whole passage, lightly
    selections = pane.extraSelections()
    light, strong = selections[0].format.background().color(), selections[1].format.background().color()
    assert light != strong and light.lightness() > strong.lightness()
    qtbot.waitUntil(lambda: pane.verticalScrollBar().value() > 0)
    cursor = QTextCursor(pane.document())
    cursor.setPosition(pane.focus[0][0])
    assert pane.viewport().rect().intersects(pane.cursorRect(cursor))  # the quoted sentence is in view


def _intersects(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_pdf_page_highlights_the_quoted_sentence_within_the_passage(make_window, qtbot, tmp_path):
    pdf_path = tmp_path / "docs" / "herons.pdf"
    pdf_path.parent.mkdir()
    pages = [["Chapter 1: robins", "The robin sings at dawn in the garden hedges."],
             ["Chapter 2: wading birds", OTHER, "They wade in shallow water and eat fish.", QUOTED]]
    pdf_path.write_bytes(build_pdf(pages))
    window = make_window()
    add_and_wait(qtbot, window, [str(pdf_path)])
    message = ask(qtbot, window, "How many broods does the heron raise each summer?")
    assert message.mode == "extractive" and QUOTED in message.text

    location = _open_first_citation(qtbot, window)
    view = window.viewer.view.page_view
    assert location.page == 2 and location.found
    assert view.focus and view.highlight and set(view.focus) != set(view.highlight)
    # the strong rectangles lie over the quoted line only, inside the passage's (light) rectangles
    assert all(any(_intersects(f, h) for h in view.highlight) for f in view.focus)
    top = min(f[1] for f in view.focus)
    other_lines = [h for h in view.highlight if h[3] <= top]
    assert other_lines  # the passage's other lines are highlighted, lightly, above the quoted one


def test_a_compressed_answer_highlights_the_sentences_sent_to_the_model(make_window, qtbot, tmp_path, llm_server,
                                                                         monkeypatch):
    from tests.gui.conftest import llm_settings

    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["Two ", "broods ", "[1]", "."]
    filler = " ".join(f"Remark {i} concerns gardening tools, soil and compost bins." for i in range(12))
    doc = tmp_path / "docs" / "birds.md"
    doc.parent.mkdir()
    doc.write_text(f"{filler} {OTHER} {QUOTED} {filler}\n", encoding="utf-8")
    window = make_window(llm_settings(llm_server, translate_queries=False, context_compression="always"))
    add_and_wait(qtbot, window, [str(doc)])
    message = ask(qtbot, window, "How many broods does the heron raise each summer?")
    assert message.mode == "llm"
    hit = dict(message.sources)[1]
    sent = [hit.text[a:b] for a, b in hit.focus]
    assert QUOTED in sent and hit.text not in sent  # part of the passage, the answering sentence among it
    prompt = "\n".join(m["content"] for m in llm_server.chat_requests()[-1].body["messages"])
    assert all(s in prompt for s in sent) and "Remark 11 concerns" not in prompt

    location = _open_first_citation(qtbot, window)
    pane = window.viewer.view.text_pane
    assert location.found and pane.focused_text() == sent  # the viewer lights exactly what was sent
