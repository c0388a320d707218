"""The app survives a hostile PDF page shown in the viewer: PDFium drew it in the app's own process, where a page
of forms drawing forms twice, 30 deep, took the app past 24 GB and got it killed. Drawn in the viewer's PDFium
child (document/pdf_child.py), the page says why it cannot be shown (English and Chinese), the passage's text
is shown beside it, and the next document's page is drawn by a fresh child."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait
from tests.security.test_pdf_view_hostile import _form_fanout_pdf
from tests.support import pdf_build as build

SAYS = {"en": "could not be drawn or read", "zh": "无法绘制或读取此 PDF 页面"}


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _shown(qtbot, viewer, hit, page: int) -> None:
    with qtbot.waitSignal(viewer.page_shown, timeout=60_000, check_params_cb=lambda i: i == page):
        viewer.open_passages(((1, hit),), 0)


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
    hostile.write_bytes(_form_fanout_pdf(30))  # replaced since: its page 2 takes gigabytes to load
    _shown(qtbot, viewer, hit, 0)
    before = _rss_mb()
    with qtbot.waitSignal(viewer.renderer.render_failed, timeout=120_000):
        viewer.go_to_page(1)
    view = viewer.view
    assert SAYS[language] in view.page_view.placeholder and SAYS[language] in view.banner_label.text()
    assert "lighthouse keeper" in view.side_text.toPlainText() and not view.side.isHidden()
    assert _rss_mb() - before < 500  # the app's own process: in it, 24 GB and killed
    viewer.find("storm", 1)  # searched from the page shown: the page of forms again
    qtbot.waitUntil(lambda: SAYS[language] in view.find_label.text(), timeout=120_000)
    _shown(qtbot, viewer, other, 0)
    assert viewer.view.page_view.image is not None
