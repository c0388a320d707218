"""The in-app viewer: a citation opens the right PDF page with the passage highlighted; text documents scroll to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QTextCursor

from tests.data.make_fixtures import build_pdf
from tests.support.viewer_window import (
    BIRDS,
    MD_TARGET,
    TARGET_PAGE,
    bird_pages,
    click_citation,
    long_markdown,
    number_of,
    window_with_answer,
)


def _passage_char_boxes(pdf_path: Path, page_index: int, lines: list[str]) -> list[tuple[float, float, float, float]]:
    """Independently of the viewer: PDFium's boxes of the passage's characters, top-left origin, in points. PDFium is
    not thread-safe and the viewer renders pages on its worker threads meanwhile: this holds the lock they hold (a
    call without it crashed the test process once)."""
    import pypdfium2 as pdfium

    from desktop_rag.engine.ingest.loaders.pdf_pages import PDFIUM_LOCK

    with PDFIUM_LOCK:
        doc = pdfium.PdfDocument(str(pdf_path))
        try:
            page = doc[page_index]
            height = page.get_height()
            textpage = page.get_textpage()
            boxes = []
            for line in lines:
                searcher = textpage.search(line, match_case=True)
                start, count = searcher.get_next()
                for i in range(start, start + count):
                    left, bottom, right, top = textpage.get_charbox(i)
                    if right > left:
                        boxes.append((left, height - top, right, height - bottom))
            return boxes
        finally:
            doc.close()


def _intersects(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_citation_opens_pdf_at_the_cited_page_with_the_passage_highlighted(
        make_window, qtbot, tmp_path, llm_server, monkeypatch):
    pdf_path = tmp_path / "docs" / "birds.pdf"
    pdf_path.parent.mkdir()
    pages = bird_pages()
    pdf_path.write_bytes(build_pdf(pages))
    window, message = window_with_answer(make_window, qtbot, llm_server, monkeypatch, [pdf_path],
                                          "Where does the heron nest?")
    number = number_of(message, lambda h: h.page == TARGET_PAGE)

    location = click_citation(qtbot, window, number)
    viewer = window.viewer
    assert viewer.view.isVisible()
    assert location.page == TARGET_PAGE and location.file_state == "unchanged" and location.found
    assert viewer.page == TARGET_PAGE - 1
    qtbot.waitUntil(lambda: viewer.view.page_view.image is not None, timeout=15_000)  # rendered off-thread
    assert viewer.view.page_label.text() == f"Page {TARGET_PAGE} of {len(BIRDS)}"

    highlight = viewer.view.page_view.highlight
    body = pages[TARGET_PAGE - 1]
    boxes = _passage_char_boxes(pdf_path, TARGET_PAGE - 1, body)
    assert highlight and len(boxes) >= sum(len(line.replace(" ", "")) for line in body)
    # Every highlight rectangle lies over passage text, and every character of the passage is under one.
    assert all(any(_intersects(r, b) for b in boxes) for r in highlight)
    assert all(any(_intersects(r, b) for r in highlight) for b in boxes)
    # The header and footer lines (not part of the passage) are not highlighted.
    others = _passage_char_boxes(pdf_path, TARGET_PAGE - 1, ["ACME Field Guide - Internal", "Page 4 of 6"])
    assert others and not any(_intersects(r, b) for r in highlight for b in others)
    assert viewer.view.page_view.highlight_pixels()  # drawn, scaled to the zoom

    # Next/previous passage of the same answer; a page turn keeps the highlight on its own page only.
    viewer.view.page_step.emit(1)
    assert viewer.page == TARGET_PAGE and viewer.view.page_view.highlight == ()
    if len(message.sources) > 1:
        position = viewer.position
        with qtbot.waitSignal(viewer.located, timeout=30_000) as blocker:
            viewer.view.next_button.click() if position + 1 < len(message.sources) else viewer.view.prev_button.click()
        other = dict(message.sources)[viewer.passages[viewer.position][0]]
        assert blocker.args[0].page == other.page and viewer.page == other.page - 1


def test_sources_row_double_click_opens_the_viewer(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    pdf_path = tmp_path / "docs" / "birds.pdf"
    pdf_path.parent.mkdir()
    pdf_path.write_bytes(build_pdf(bird_pages()))
    window, message = window_with_answer(make_window, qtbot, llm_server, monkeypatch, [pdf_path],
                                          "Where does the falcon nest?")
    number = number_of(message, lambda h: h.page == 5)
    row = window.sources_model.row_of_number(number)
    with qtbot.waitSignal(window.viewer.located, timeout=30_000) as blocker:
        window.sources_panel.table.doubleClicked.emit(window.sources_model.index(row, 0))
    assert blocker.args[0].page == 5 and window.viewer.page == 4


def _long_docx(path: Path, target: str) -> None:
    import docx

    document = docx.Document()
    document.add_heading("茶叶手册", level=0)
    for i in range(80):
        document.add_paragraph(f"第{i + 1}段：这是一段关于日常饮茶习惯的说明文字，内容与问题无关，只用来把文档拉长。" * 2)
    document.add_paragraph(target)
    for i in range(20):
        document.add_paragraph(f"附录{i + 1}：其他说明。" * 3)
    document.save(str(path))


DOCX_TARGET = "龙井绿茶应该用八十度左右的水冲泡，每一百五十毫升水放三克茶叶。"


@pytest.mark.parametrize("kind, question, target", [
    ("docx", "龙井绿茶用多少度的水冲泡？", DOCX_TARGET),
    ("md", "When should climbing roses be pruned?", MD_TARGET),
])
def test_text_documents_scroll_to_and_highlight_the_passage(
        make_window, qtbot, tmp_path, llm_server, monkeypatch, kind, question, target):
    path = tmp_path / "docs" / f"notes.{kind}"
    path.parent.mkdir()
    (_long_docx if kind == "docx" else long_markdown)(path, target)
    window, message = window_with_answer(make_window, qtbot, llm_server, monkeypatch, [path], question)
    number = number_of(message, lambda h: target in h.text)
    hit = dict(message.sources)[number]

    location = click_citation(qtbot, window, number)
    pane = window.viewer.view.text_pane
    assert location.kind == "text" and location.found and location.file_state == "unchanged"
    assert window.viewer.view.stack.currentWidget() is pane
    assert pane.highlighted_text() == hit.text  # the stored passage, exactly, is what is highlighted
    qtbot.waitUntil(lambda: pane.verticalScrollBar().value() > 0)  # the passage is far down: scrolled
    cursor = QTextCursor(pane.document())
    cursor.setPosition(pane.passage[0])
    assert pane.viewport().rect().intersects(pane.cursorRect(cursor))  # and its first line is in view
    assert not window.viewer.view.banner.isVisible()

    # Find in document (plain text): the next occurrence after the passage, highlighted too.
    word = "roses" if kind == "md" else "绿茶"
    window.viewer.view.find_edit.setText(word)
    window.viewer.view.find_next_button.click()
    qtbot.waitUntil(lambda: pane.found is not None)  # searched off the GUI thread
    assert pane.document().toPlainText()[pane.found[0]:pane.found[1]].lower() == word


def test_a_changed_file_says_so_and_offers_to_reindex(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    path = tmp_path / "docs" / "notes.md"
    path.parent.mkdir()
    long_markdown(path, MD_TARGET)
    window, message = window_with_answer(make_window, qtbot, llm_server, monkeypatch, [path],
                                          "When should climbing roses be pruned?")
    number = number_of(message, lambda h: MD_TARGET in h.text)
    window.backend.watcher.stop()  # the edit below must not be re-indexed behind the test's back
    path.write_text("# Garden notes\n\nEverything about roses was removed from this file.\n", encoding="utf-8")

    location = click_citation(qtbot, window, number)
    view = window.viewer.view
    assert location.file_state == "changed" and not location.found
    assert view.banner.isVisible() and "changed since it was indexed" in view.banner_label.text()
    assert view.reindex_button.isVisible()
    assert view.text_pane.highlighted_text() == ""  # nothing highlighted in the wrong place
    assert MD_TARGET in view.side_text.toPlainText() and view.side.isVisible()  # the passage as indexed, beside

    with qtbot.waitSignal(window.viewer.located, timeout=60_000) as blocker:
        view.reindex_button.click()
    assert blocker.args[0].file_state == "unchanged"  # re-indexed: the store matches the file again
