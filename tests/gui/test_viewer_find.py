"""Find in a PDF the viewer shows (`controllers/viewer_find.py`): the PDFium child searches the pages from the match
found last, the match's page is drawn with it highlighted, the next search goes on from it; a word not there says
so and leaves the page; another passage shown forgets the match. Real window, real PDF, offscreen."""

from __future__ import annotations

from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait
from tests.support import pdf_build as build
from tests.support.viewer_window import shown_at_page


def _find(qtbot, viewer, word: str, forward: int = 1) -> str:
    label = viewer.view.find_label
    label.setText("")
    viewer.find(word, forward)
    qtbot.waitUntil(lambda: label.text() != "", timeout=60_000)
    return label.text()


def _harbour(make_window, qtbot, tmp_path):
    """A three-page PDF indexed, its first page's passage shown in the viewer: (the viewer, the passage)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    pdf = docs / "harbour.pdf"
    pdf.write_bytes(build.standard_pdf([["The harbour master keeps the tide tables."],
                                        ["A lighthouse stands on the northern cape."],
                                        ["By the Straße another lighthouse guards the southern reef."]]))
    window = make_window()
    assert not add_and_wait(qtbot, window, [str(docs)]).failed
    viewer = window.viewer
    hit = next(h for h in window.backend.engine.search("harbour master tide tables", k=5) if h.page == 1)
    shown_at_page(qtbot, viewer, hit, 0)
    return viewer, hit


def test_find_in_a_pdf_goes_from_match_to_match(make_window, qtbot, tmp_path):
    viewer, hit = _harbour(make_window, qtbot, tmp_path)

    assert _find(qtbot, viewer, "lighthouse") == "Found on page 2"
    assert viewer.page == 1 and viewer.finder.rects_on(1) and not viewer.finder.rects_on(0)
    assert _find(qtbot, viewer, "lighthouse") == "Found on page 3"  # on from the match found
    assert viewer.page == 2 and viewer.finder.rects_on(2)
    assert _find(qtbot, viewer, "lighthouse", forward=0) == "Found on page 2"
    i18n.set_language("zh")
    assert _find(qtbot, viewer, "volcano") == "未找到" and viewer.page == 1  # the page stays
    assert viewer.finder.found is None

    assert _find(qtbot, viewer, "cape") == "在第 2 页找到"
    shown_at_page(qtbot, viewer, hit, 0)  # the passage shown again: the match is forgotten
    assert viewer.finder.found is None and viewer.view.find_label.text() == ""


def test_back_to_the_passage_from_another_page(make_window, qtbot, tmp_path):
    """Find (caseless: "STRASSE" is "Straße") or paging leaves the passage's page: Back to passage draws it again,
    its passage highlighted, the match forgotten; on the passage's page with no match outside it, it is off."""
    viewer, _hit = _harbour(make_window, qtbot, tmp_path)
    back = viewer.view.back_button
    assert not back.isEnabled() and viewer.highlight_on(0)
    assert _find(qtbot, viewer, "TIDE tables") == "Found on page 1" and not back.isEnabled()  # in the passage
    assert _find(qtbot, viewer, "STRASSE") == "Found on page 3"
    found = viewer.finder.found
    assert viewer.page == 2 and viewer.pdf.page_text(2)[found.start:found.end] == "Straße" and back.isEnabled()
    back.click()
    assert viewer.page == 0 and viewer.finder.found is None and not back.isEnabled()
    assert viewer.view.find_label.text() == "" and viewer.highlight_on(0)
    assert _find(qtbot, viewer, "lighthouse", forward=0) == "Found on page 3"  # from the passage, not "Straße"
    back.click()
    viewer.view.next_page_button.click()
    assert viewer.page == 1 and back.isEnabled()  # paged away
    back.click()
    assert viewer.page == 0 and not back.isEnabled()
