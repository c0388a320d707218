"""The app survives a hostile PDF page shown in the viewer: PDFium drew it in the app's own process, where a page
of forms drawing forms twice, 30 deep, took the app past 24 GB and got it killed. Drawn in the viewer's PDFium
child (document/pdf_child.py), the page says why it cannot be shown (English and Chinese), the passage's text
is shown beside it, and the next document's page is drawn by a fresh child."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.gui import i18n
from desktop_rag.gui.controllers.viewer_banner import banner
from tests.gui.conftest import add_and_wait
from tests.support import pdf_build as build
from tests.support.hostile_pdfs import form_fanout_pdf
from tests.support.viewer_window import shown_at_page

SAYS = {"en": "the viewer's PDF reader crashed", "zh": "查看器的 PDF 读取程序在该页面上崩溃"}
SAYS_THIN = {"en": "too large or too thin", "zh": "太大或太窄"}
PAGE_2 = {"en": "Page 2 cannot be drawn: ", "zh": "第 2 页无法显示："}


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_app_survives_a_page_that_exhausts_memory_and_shows_the_next_pdf(make_window, qtbot, tmp_path, language):
    docs = tmp_path / "docs"
    docs.mkdir()
    hostile, normal = docs / "fanout.pdf", docs / "normal.pdf"
    hostile.write_bytes(build.standard_pdf([["The lighthouse keeper recorded the storm."], ["A second page."]]))
    normal.write_bytes(build.standard_pdf([["The greenhouse tomatoes are watered at six every morning."]]))
    window = make_window()
    assert not add_and_wait(qtbot, window, [str(docs)]).failed
    window.backend.watcher.stop()  # the library keeps the file's text
    i18n.set_language(language)
    engine, viewer = window.backend.engine, window.viewer
    hit = next(h for h in engine.search("lighthouse keeper storm", k=5) if h.path == str(hostile))
    other = next(h for h in engine.search("greenhouse tomatoes watered", k=5) if h.path == str(normal))
    hostile.write_bytes(form_fanout_pdf(30))  # replaced since: its page 2 takes gigabytes to load
    shown_at_page(qtbot, viewer, hit, 0)
    before = _rss_mb()
    with qtbot.waitSignal(viewer.renderer.render_failed, timeout=120_000):
        viewer.go_to_page(1)
    view = viewer.view
    assert SAYS[language] in view.page_view.placeholder and SAYS[language] in view.banner_label.text()
    assert "lighthouse keeper" in view.side_text.toPlainText() and not view.side.isHidden()
    assert _rss_mb() - before < 500  # the app's own process: in it, 24 GB and killed
    viewer.find("storm", 1)  # searched from the page shown: the page of forms again
    qtbot.waitUntil(lambda: SAYS[language] in view.find_label.text(), timeout=120_000)
    shown_at_page(qtbot, viewer, other, 0)
    assert viewer.view.page_view.image is not None


def _thin_second_page(pages: list[list[str]]) -> bytes:
    """A PDF of `pages` whose second page is 0.1 pt wide: under a pixel at any zoom, it cannot be drawn."""
    data = build.standard_pdf(pages)
    box = f"/MediaBox [0 0 {build.PAGE_W} {build.PAGE_H}]".encode()
    first = data.index(box) + len(box)
    second = data.index(box, first)  # the same length: the xref's offsets hold
    return data[:second] + box.replace(str(build.PAGE_W).encode(), b"0.1") + data[second + len(box):]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_page_that_cannot_be_drawn_says_so_in_the_banner_while_it_is_shown(make_window, qtbot, tmp_path, language):
    """The banner's drawing failure belongs to its page, as does the passage's text beside it: the next page drawn
    says what holds there, and the page that failed says it again when shown again (it stayed until the next
    passage, over pages drawn fine; a page that failed drawn ahead of time had no passage beside it)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    pdf = docs / "thin.pdf"
    pdf.write_bytes(_thin_second_page([["The lighthouse keeper recorded the storm."], ["A thin page."],
                                       ["The harbour master counted the boats."]]))
    window = make_window()
    assert not add_and_wait(qtbot, window, [str(docs)]).failed
    i18n.set_language(language)
    viewer = window.viewer
    hit = next(h for h in window.backend.engine.search("lighthouse keeper storm", k=5) if h.path == str(pdf))
    shown_at_page(qtbot, viewer, hit, 0)
    view = viewer.view
    banner_label = view.banner_label
    assert SAYS_THIN[language] not in banner_label.text() and view.side.isHidden()  # found: nothing beside
    viewer.go_to_page(1)  # (it may have failed already, drawn ahead of time)
    qtbot.waitUntil(lambda: SAYS_THIN[language] in banner_label.text(), timeout=60_000)
    assert banner_label.text().startswith(PAGE_2[language]), banner_label.text()  # that page, not the file
    assert view.page_view.placeholder.startswith(PAGE_2[language]), view.page_view.placeholder
    assert SAYS_THIN[language] in view.page_view.placeholder
    assert not view.side.isHidden() and "lighthouse keeper" in view.side_text.toPlainText()
    with qtbot.waitSignal(viewer.page_shown, timeout=60_000, check_params_cb=lambda i: i == 2):
        viewer.go_to_page(2)
    assert banner_label.text() == banner(viewer.location, page=3)[0] and SAYS_THIN[language] not in banner_label.text()
    assert view.side.isHidden()
    viewer.go_to_page(1)  # remembered: not drawn again, said again
    assert SAYS_THIN[language] in banner_label.text() and not view.side.isHidden()
    other = "zh" if language == "en" else "en"
    i18n.set_language(other)  # said in the other language while shown
    assert SAYS_THIN[other] in banner_label.text() and banner_label.text().startswith(PAGE_2[other])
    assert view.page_view.placeholder.startswith(PAGE_2[other]), view.page_view.placeholder
    viewer.go_to_page(0)
    assert SAYS_THIN["en"] not in banner_label.text() and SAYS_THIN["zh"] not in banner_label.text()
    assert view.side.isHidden()


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("size", [(612.0, 792.0), (0.1, 842.0)])
def test_what_a_page_not_drawn_says_is_wrapped_within_the_page(qtbot, language, size):
    """A reason is longer than a page is wide: it is wrapped inside the page with a margin each side (drawn on one
    line it ran past both edges, its start and end cut off); a page too thin to draw has room to say so (it was a
    pixel wide, its words a dotted line)."""
    from PySide6.QtGui import QColor

    from desktop_rag.engine import Reason
    from desktop_rag.gui.views.viewer.page_view import PLACEHOLDER_MARGIN, PageWidget

    i18n.set_language(language)
    said = i18n.tr("viewer.page_error", page=2, reason=i18n.error(Reason.coded("view_page_failed")))
    page = PageWidget()
    qtbot.addWidget(page)
    page.set_page(size, 1.0, None, placeholder=said)
    image = page.grab().toImage()
    inked = {x for x in range(image.width()) for y in range(0, image.height(), 2)
             if image.pixelColor(x, y) != QColor("white")}
    assert inked and min(inked) >= PLACEHOLDER_MARGIN and max(inked) < image.width() - PLACEHOLDER_MARGIN, (
        min(inked), max(inked), image.width())
    assert max(inked) - min(inked) > 200, (min(inked), max(inked))  # whole words on a line


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("code,values", [("view_page_failed", {}), ("page_no_size", {}), ("document_closed", {}),
                                         ("page_bad_size", {"width": "1e-06", "height": "1e+09"})])
def test_a_page_not_drawn_says_so_once(language, code, values):
    """The page's message (banner and page area) says the page cannot be drawn once, then why: its reasons said it
    again ("Page 2 cannot be drawn: This PDF page could not be drawn or read: ...")."""
    from desktop_rag.engine import Reason

    i18n.set_language(language)
    said = i18n.tr("viewer.page_error", page=2, reason=i18n.error(Reason.coded(code, **values)))
    assert said.startswith(PAGE_2[language]), said
    sayings = [("cannot", "could not"), ("draw", "show")] if language == "en" else [("无法", "不能")]
    assert all(sum(said.lower().count(word) for word in saying) == 1 for saying in sayings), said
