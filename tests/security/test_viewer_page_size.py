"""Attack: a cited PDF whose page is 1e-6 x 1e9 points. The old pixel budget bounded width x height only, so the
viewer asked PDFium for a 1 x 1.25e9 pixel bitmap in the window's process (4.9 GB peak before it failed). Each
side is now capped too, and a page that would be under a pixel wide says it cannot be shown (pages are drawn in
the viewer's PDFium child now, document/pdf_child.py; the cap keeps that child's bitmaps small too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.engine import LoadError, PdfFile
from tests.support.hostile_pdfs import thin_pdf


_RENDER = """
import resource, time
from PySide6.QtWidgets import QApplication
app = QApplication([])
from desktop_rag.engine import PdfPages
from desktop_rag.gui.threads.page_renderer import PageRenderer
def peak_mb():  # VmHWM, this process's own peak: on Linux ru_maxrss keeps the forking parent's across exec
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
renderer = PageRenderer()
pages = PdfPages()
renderer.set_document(pages.open(ARGS[0]))
outcomes = []
renderer.page_ready.connect(lambda index: outcomes.append("shown"))
renderer.render_failed.connect(lambda index, error: outcomes.append(str(error)))
for scale in (1.25, 2.0):  # the viewer's default zoom and a 2x screen
    before = len(outcomes)
    renderer.image(0, scale)
    deadline = time.monotonic() + 60
    while len(outcomes) == before and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
renderer.stop()
pages.close()
report({"outcomes": outcomes, "rss_mb": peak_mb()})
"""


def test_the_viewer_refuses_a_thin_page_without_a_huge_bitmap(gui_child, tmp_path: Path):
    pdf = tmp_path / "thin.pdf"
    pdf.write_bytes(thin_pdf("0 0 0.000001 1000000000"))
    result = gui_child(_RENDER, str(pdf))
    assert len(result["outcomes"]) == 2, result
    assert all("too large or too thin" in outcome for outcome in result["outcomes"]), result
    assert result["rss_mb"] < 400, result


@pytest.mark.parametrize("box, drawn", [
    ("0 0 1 14400", (1, 16384)),  # a 1 pt x 200 inch strip: its long side capped at 16,384 px
    ("0 0 14400 14400", (6324, 6324)),  # the largest page PDF allows: 40 M pixels in all
    ("0 0 612 792", (765, 990)),  # a letter page at 125 %: as asked
])
def test_large_and_long_pages_are_drawn_within_the_caps(tmp_path: Path, box, drawn):
    pdf = tmp_path / "page.pdf"
    pdf.write_bytes(thin_pdf(box))
    document = PdfFile(pdf)
    try:
        image = document.render(0, 1.25)
    finally:
        document.close()
    assert abs(image.width - drawn[0]) <= 1 and abs(image.height - drawn[1]) <= 1
    assert max(image.width, image.height) <= 16384 + 1 and image.width * image.height <= 40_000_000 + 16384


def test_a_page_too_thin_for_one_pixel_says_so(tmp_path: Path):
    pdf = tmp_path / "thin.pdf"
    pdf.write_bytes(thin_pdf("0 0 0.5 1000000000"))
    document = PdfFile(pdf)
    try:
        with pytest.raises(LoadError, match="too large or too thin"):
            document.render(0, 4.0)
    finally:
        document.close()
