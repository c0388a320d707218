"""Find in a PDF the viewer shows (`controllers/viewer_find.py`): the PDFium child searches the pages from the match
found last, the match's page is drawn with it highlighted, the next search goes on from it; a word not there says
so and leaves the page; another passage shown forgets the match. Real window, real PDF, offscreen."""

from __future__ import annotations

from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait
from tests.gui.test_viewer_pdf_child import _shown
from tests.support import pdf_build as build


def _find(qtbot, viewer, word: str, forward: int = 1) -> str:
    label = viewer.view.find_label
    label.setText("")
    viewer.find(word, forward)
    qtbot.waitUntil(lambda: label.text() != "", timeout=60_000)
    return label.text()


def test_find_in_a_pdf_goes_from_match_to_match(make_window, qtbot, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    pdf = docs / "harbour.pdf"
    pdf.write_bytes(build.standard_pdf([["The harbour master keeps the tide tables."],
                                        ["A lighthouse stands on the northern cape."],
                                        ["Another lighthouse guards the southern reef."]]))
    window = make_window()
    assert not add_and_wait(qtbot, window, [str(docs)]).failed
    viewer = window.viewer
    hit = next(h for h in window.backend.engine.search("harbour master tide tables", k=5) if h.page == 1)
    _shown(qtbot, viewer, hit, 0)

    assert _find(qtbot, viewer, "lighthouse") == "Found on page 2"
    assert viewer.page == 1 and viewer.finder.rects_on(1) and not viewer.finder.rects_on(0)
    assert _find(qtbot, viewer, "lighthouse") == "Found on page 3"  # on from the match found
    assert viewer.page == 2 and viewer.finder.rects_on(2)
    assert _find(qtbot, viewer, "lighthouse", forward=0) == "Found on page 2"
    i18n.set_language("zh")
    assert _find(qtbot, viewer, "volcano") == "未找到" and viewer.page == 1  # the page stays
    assert viewer.finder.found is None

    assert _find(qtbot, viewer, "cape") == "在第 2 页找到"
    _shown(qtbot, viewer, hit, 0)  # the passage shown again: the match is forgotten
    assert viewer.finder.found is None and viewer.view.find_label.text() == ""
