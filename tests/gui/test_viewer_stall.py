"""Measured: the GUI thread keeps ticking while the viewer pages through a 300-page PDF (rendered off-thread)."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QTimer

from tests.data.make_fixtures import build_pdf
from tests.gui.conftest import add_and_wait
from tests.support.gui_stall import STALL_LIMIT_MS, GapMeter

PAGES = 300
LINES = 46  # a full page of text: rendering each one is real work
FLIP_MS = 30  # holding Page Down: about the keyboard's auto-repeat rate


def write_big_pdf(path: Path, pages: int = PAGES) -> Path:
    words = "the viewer renders each page on demand while the reader keeps turning pages quickly".split()
    body = [[f"Page {p + 1} line {i}: " + " ".join(words[(p + i + k) % len(words)] for k in range(12))
             for i in range(LINES)] for p in range(pages)]
    body[149][3] = "The quartz lantern passage sits in the middle of this long document."
    path.write_bytes(build_pdf(body))
    return path


def _page_through(qtbot, viewer, step: int, timeout_ms: int) -> None:
    """Step through every page, one step every FLIP_MS (with step = 0: the next one as soon as it is drawn)."""
    last = viewer.pdf.page_count - 1
    if step:
        timer = QTimer(interval=FLIP_MS)
        timer.timeout.connect(lambda: viewer.go_to_page(viewer.page + 1))
        timer.start()
        qtbot.waitUntil(lambda: viewer.page >= last, timeout=timeout_ms)
        timer.stop()
    else:
        def next_page(index: int) -> None:
            if index == viewer.page and index < last:
                QTimer.singleShot(0, lambda: viewer.go_to_page(index + 1))
        viewer.page_shown.connect(next_page)
        viewer.go_to_page(0)
        qtbot.waitUntil(lambda: viewer.page >= last, timeout=timeout_ms)
        viewer.page_shown.disconnect(next_page)
    with qtbot.waitSignal(viewer.page_shown, timeout=timeout_ms, check_params_cb=lambda i: i == last,
                          raising=False):
        viewer.go_to_page(last)


def test_paging_through_a_300_page_pdf_does_not_stall_the_gui(make_window, qtbot, tmp_path):
    (tmp_path / "docs").mkdir()
    pdf = write_big_pdf(tmp_path / "docs" / "big.pdf")
    window = make_window()
    add_and_wait(qtbot, window, [str(pdf)], timeout=300_000)
    hits = window.backend.engine.search("quartz lantern passage")
    hit = next(h for h in hits if h.page == 150)

    viewer = window.viewer
    with GapMeter() as opening:
        with qtbot.waitSignal(viewer.located, timeout=60_000):
            viewer.open_passages(((1, hit),), 0)
        qtbot.waitUntil(lambda: viewer.view.page_view.image is not None, timeout=30_000)
    assert viewer.page == 149 and viewer.view.page_view.highlight

    viewer._step_zoom(2)  # 200 %: bigger pages, more work per render
    start = time.perf_counter()
    with GapMeter() as flipping:
        _page_through(qtbot, viewer, step=1, timeout_ms=120_000)
    flip_s = time.perf_counter() - start
    start = time.perf_counter()
    with GapMeter() as reading:
        _page_through(qtbot, viewer, step=0, timeout_ms=300_000)
    read_s = time.perf_counter() - start
    cache = viewer.renderer.cache
    print(f"\nGUI stall while opening a 300-page PDF at page 150: longest gap {opening.longest:.1f} ms "
          f"over {opening.ticks} ticks")
    print(f"GUI stall while flipping 300 pages every {FLIP_MS} ms: longest gap {flipping.longest:.1f} ms "
          f"over {flipping.ticks} ticks ({flip_s:.1f} s)")
    print(f"GUI stall while rendering 300 pages one after another: longest gap {reading.longest:.1f} ms "
          f"over {reading.ticks} ticks ({read_s:.1f} s, {1000 * read_s / PAGES:.0f} ms per page)")
    print(f"Viewer page cache: {len(cache)} pages, {cache.nbytes / 2**20:.1f} MB (bound "
          f"{cache.max_bytes / 2**20:.0f} MB)")
    assert cache.nbytes <= cache.max_bytes
    assert max(opening.longest, flipping.longest, reading.longest) < STALL_LIMIT_MS
    # The 5 ms timer keeps firing while pages render (~70/s on a loaded 2-core machine); rendering on the GUI
    # thread instead lets it fire only between pages (~7/s).
    assert reading.ticks / read_s >= 20
