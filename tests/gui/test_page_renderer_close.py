"""Closing the PDF shown while one of its pages is still being drawn, as the viewer does on the next passage."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QObject

from desktop_rag.engine import PdfFile
from desktop_rag.engine.ingest.loaders.pdf_pages import PDFIUM_LOCK
from desktop_rag.gui.threads.page_renderer import PageRenderer
from tests.security.test_pdf_view_hostile import _form_fanout_pdf
from tests.support import pdf_build as build


def _held_elsewhere() -> bool:
    """True while another thread holds the PDFium lock (the render thread drawing the page)."""
    if PDFIUM_LOCK.acquire(blocking=False):
        PDFIUM_LOCK.release()
        return False
    return True


def test_the_next_document_does_not_wait_on_the_gui_thread_for_a_page_being_drawn(qtbot, tmp_path: Path) -> None:
    """The old PdfFile was closed on the GUI thread, under the PDFium lock a page drawing for seconds holds (forms
    drawing forms twice, 18 deep: 1.4 s; 30 deep: until the memory ran out): the window froze meanwhile."""
    slow, other = tmp_path / "fanout.pdf", tmp_path / "other.pdf"
    slow.write_bytes(_form_fanout_pdf(18))
    other.write_bytes(build.standard_pdf([["Another document."]]))
    owner = QObject()
    renderer = PageRenderer(owner)
    old, new = PdfFile(slow), PdfFile(other)  # the viewer opens them on its locate thread
    renderer.set_document(old)
    renderer.image(1, 1.0)  # the page of forms
    qtbot.waitUntil(_held_elsewhere, timeout=10_000)
    started = time.monotonic()
    renderer.set_document(new)
    assert time.monotonic() - started < 0.3
    qtbot.waitUntil(lambda: old.closed, timeout=20_000)  # closed by the renderer, after that page
    renderer.stop()
    assert renderer.pdf is None and new.closed
