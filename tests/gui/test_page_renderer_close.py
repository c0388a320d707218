"""Closing the PDF shown while one of its pages is still being drawn, as the viewer does on the next passage."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QObject

from desktop_rag.engine import PdfPages
from desktop_rag.gui.threads.page_renderer import PageRenderer
from tests.support import pdf_build as build
from tests.support.hostile_pdfs import form_fanout_pdf


def test_the_next_document_does_not_wait_for_a_page_being_drawn(qtbot, tmp_path: Path) -> None:
    """The old PDF was closed on the GUI thread, waiting for a page drawing for seconds (forms drawing forms twice,
    18 deep: 1.4 s; 30 deep: until the memory ran out): the window froze meanwhile. Now the page being drawn (in
    the viewer's PDFium child) is cancelled and the next document's page drawn at once."""
    slow, other = tmp_path / "fanout.pdf", tmp_path / "other.pdf"
    slow.write_bytes(form_fanout_pdf(26))
    other.write_bytes(build.standard_pdf([["Another document."]]))
    owner = QObject()
    renderer = PageRenderer(owner)
    pages = PdfPages()
    try:
        old, new = pages.open(slow), pages.open(other)  # the viewer opens them on its locate thread
        renderer.set_document(old)
        renderer.image(1, 1.0)  # the page of forms
        qtbot.waitUntil(lambda: bool(renderer._cancels), timeout=10_000)
        started = time.monotonic()
        renderer.set_document(new)
        assert time.monotonic() - started < 0.3
        with qtbot.waitSignal(renderer.page_ready, timeout=10_000, check_params_cb=lambda i: i == 0):
            renderer.image(0, 1.0)
        assert time.monotonic() - started < 5 and renderer.cache.get((0, 1.0)) is not None
        qtbot.waitUntil(lambda: old.closed, timeout=10_000)  # closed by the renderer, after that page
        renderer.stop()
        assert renderer.pdf is None and new.closed
    finally:
        pages.close()
