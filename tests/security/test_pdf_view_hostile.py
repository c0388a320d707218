"""Crafted PDFs against the viewer's PDFium path (document.pdf_render), in this process as the viewer runs it."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

from desktop_rag.engine.document.locate import NOT_FOUND, UNKNOWN, Location, locate_in_pdf
from desktop_rag.engine.document.pdf_render import PdfFile
from desktop_rag.engine.file_types import PAGES
from desktop_rag.engine.store.values import Hit
from tests.support import pdf_build as build
from tests.support.hostile_pdfs import FONT, TEXT, form_fanout_pdf

EN = ["The lighthouse keeper recorded the storm at four in the morning."]
def test_opening_a_pdf_parses_none_of_its_pages(tmp_path: Path) -> None:
    """Opening read every page (for its rotation) before the cited one was drawn: a page anywhere in the file
    whose forms fan out took the app past 24 GB in 90 s (killed). Only the pages drawn or searched are loaded."""
    path = tmp_path / "fanout.pdf"
    path.write_bytes(form_fanout_pdf(30))
    child = ("import resource, sys\n"
             "resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))\n"
             "from desktop_rag.engine.document.pdf_render import PdfFile\n"
             "pdf = PdfFile(sys.argv[1])\n"
             "print(pdf.page_count, pdf.render(0, 1.0).width, pdf.page_text(0)[:15])\n")
    done = subprocess.run([sys.executable, "-c", child, str(path)], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout.strip()) == (0, "2 595 The lighthouse")


def test_a_rotated_page_is_sized_and_highlighted_as_drawn(tmp_path: Path) -> None:
    """A /Rotate 90 page was turned twice: its size said portrait, PDFium drew it landscape, and the passage's
    highlight fell beside its text."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(build.standard_pdf([EN]))))
    writer.pages[0].rotate(90)
    path = tmp_path / "rotated.pdf"
    writer.write(path)
    pdf = PdfFile(path)
    try:
        image = pdf.render(0, 1.0)
        assert pdf.page_sizes[0] == (image.width, image.height) and image.width > image.height
        text = pdf.page_text(0)
        left, top, right, bottom = (round(v) for v in pdf.text_rects(0, 0, text.index("storm"))[0])
        inside = sum(image.data[y * image.stride + x * 4] < 128 for y in range(top, bottom) for x in range(left, right))
        assert inside > 100  # the highlight covers the text's dark pixels
    finally:
        pdf.close()


def test_a_passage_gone_from_a_100k_page_pdf_is_searched_for_a_bounded_time(tmp_path: Path) -> None:
    """A PDF replaced by one of 100,000 pages after it was indexed: the passage, not on its page, was searched
    for on every page (7 s and more on the viewer's one locate thread, the next passage asked for waiting)."""
    count = 100_000
    pages = "<< /Type /Pages /Kids [" + " ".join(f"{5 + i} 0 R" for i in range(count)) + f"] /Count {count} >>"
    page = ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
            "/Resources << /Font << /F1 3 0 R >> >> >>")
    path = tmp_path / "long.pdf"
    path.write_bytes(build.write_pdf(["<< /Type /Catalog /Pages 2 0 R >>", pages, FONT, build._stream(TEXT)]
                                     + [page] * count))
    hit = Hit(1, 1.0, str(path), 50_000, "", "A passage that is in none of its pages.")
    pdf = PdfFile(path)
    try:
        started = time.monotonic()
        found = locate_in_pdf(hit, Location(str(path), PAGES, UNKNOWN, NOT_FOUND, page=hit.page), pdf,
                              search_seconds=0.3)
        assert time.monotonic() - started < 2 and (found.match, found.page_count) == (NOT_FOUND, count)
    finally:
        pdf.close()
