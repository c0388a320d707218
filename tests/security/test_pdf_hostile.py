"""Crafted PDFs against the PDFium text path: declared image sizes, giant pages with a broken layer, odd security."""

from __future__ import annotations

import io
import time
import zlib
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders import LoadContext, load
from desktop_rag.engine.ingest.loaders import ocr
from desktop_rag.engine.ingest.loaders import pdf_open
from desktop_rag.engine.ingest.loaders import pdf_pages
from tests.support import pdf_build as build

EN = ["The lighthouse keeper recorded the storm at four in the morning.",
      "Fresh basil should be added at the very end of cooking."]


def _image_page_pdf(width: int, height: int) -> bytes:
    """One page showing one greyscale image that declares `width` x `height` pixels but holds a few bytes."""
    data = zlib.compress(b"\x00" * 64)
    content = b"q 595 0 0 842 0 0 cm /Im1 Do Q"
    return build.write_pdf([
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        "/Resources << /XObject << /Im1 5 0 R >> >> >>",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
        f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace /DeviceGray "
        f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream",
    ])


def test_a_scan_declaring_a_gigapixel_image_is_refused_before_decoding(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "bomb.pdf"
    path.write_bytes(_image_page_pdf(100_000, 100_000))
    monkeypatch.setattr(ocr, "read", lambda image: pytest.fail("an image of 10 gigapixels reached OCR"))
    started = time.monotonic()
    with pytest.raises(LoadError, match="too large to read"):
        load(path, max_bytes=0)
    assert time.monotonic() - started < 10


def test_a_broken_layer_on_a_giant_page_is_rendered_within_the_pixel_budget(tmp_path: Path, monkeypatch) -> None:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import RectangleObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(build.embedded_pdf([EN], build.DEJAVU, to_unicode=False))))
    writer.pages[0].mediabox = RectangleObject([0, 0, 14_400, 14_400])  # 200 x 200 inches, the PDF maximum
    path = tmp_path / "giant.pdf"
    writer.write(path)
    seen = []
    monkeypatch.setattr(ocr, "read", lambda image: seen.append(image.size) or ocr.Recognised(""))
    with pytest.raises(LoadError, match="text layer is unreadable"):  # OCR (stubbed) read nothing: no garbage kept
        load(path, max_bytes=0, context=LoadContext(ocr=True))
    assert len(seen) == 1 and seen[0][0] * seen[0][1] <= pdf_pages.MAX_RENDER_PIXELS


def test_an_unknown_security_handler_is_refused_with_a_reason(tmp_path: Path) -> None:
    body = build.standard_pdf([EN])
    trailer = b"trailer\n<< /Size "
    crafted = body.replace(trailer, b"trailer\n<< /Encrypt << /Filter /NoSuchHandler /V 1 /R 2 /P -4 "
                           b"/O <00> /U <00> >> /Size")
    path = tmp_path / "custom-security.pdf"
    path.write_bytes(crafted)
    with pytest.raises(LoadError) as caught:
        load(path, max_bytes=0)
    assert str(caught.value) == pdf_open.UNSUPPORTED_SECURITY


def _scan_with_a_damaged_picture(path: Path, pages: int, damaged: int) -> Path:
    """A scanned PDF of `pages` pages (one JPEG each) whose page `damaged` (1-based) holds a JPEG with its header
    wiped: PDFium cannot decode it and draws it as a transparent rectangle."""
    import re

    from tests.support import scans

    scans.image_pdf([scans.strip((scans.ENGLISH[i],), False) for i in range(pages)], path)
    data = bytearray(path.read_bytes())
    start = [m.start() for m in re.finditer(rb"\xff\xd8\xff", data)][damaged - 1]
    data[start + 2:start + 600] = bytes(598)
    path.write_bytes(bytes(data))
    return path


def test_a_scanned_page_whose_picture_is_damaged_is_named_as_left_out(tmp_path: Path) -> None:
    """It was dropped without a word, as if the page were blank."""
    from desktop_rag.engine.reasons import Reason

    doc = load(_scan_with_a_damaged_picture(tmp_path / "scan.pdf", 3, 2), max_bytes=1 << 26)
    assert [s.page for s in doc.sections] == [1, 3] and all(s.ocr for s in doc.sections)
    assert [Reason.of(n).text("en") for n in doc.notes] == ["Page(s) 2 could not be read and were left out"]


def test_a_one_page_scan_whose_picture_is_damaged_fails_with_that_reason(tmp_path: Path) -> None:
    """It failed as a PDF in which text recognition found no readable text."""
    from desktop_rag.engine.reasons import Reason

    with pytest.raises(LoadError) as info:
        load(_scan_with_a_damaged_picture(tmp_path / "scan.pdf", 1, 1), max_bytes=1 << 26)
    assert info.value.code == "scan_damaged"
    assert Reason.of(info.value).text("zh") == "此页的扫描图片已损坏，无法解码"


def test_pypdf_names_a_damaged_scan_as_pdfium_does(tmp_path: Path) -> None:
    """The pypdf reader (a file PDFium cannot parse) skipped the damaged picture without a word: the page was
    taken for blank. It now fails that page with the reason (left out and named, as PDFium's reading does); the
    other pages' pictures are read."""
    from desktop_rag.engine.ingest.loaders.pdf_open import open_pypdf
    from desktop_rag.engine.ingest.loaders.pdf_pages import PypdfPages

    pages = PypdfPages(open_pypdf(_scan_with_a_damaged_picture(tmp_path / "scan.pdf", 3, 2), ""))
    assert [len(list(pages.images(i))) for i in (0, 2)] == [1, 1]
    with pytest.raises(LoadError) as info:
        list(pages.images(1))
    assert info.value.code == "scan_damaged"


def _scan_with_a_damaged_content_stream(path: Path, pages: int, damaged: int) -> Path:
    """A scanned PDF whose page `damaged` (1-based) has its content stream (the one line drawing its picture)
    overwritten with bytes of the same length: PDFium finds nothing on that page, its picture intact."""
    import re

    from tests.support import scans

    scans.image_pdf([scans.strip((scans.ENGLISH[i],), False) for i in range(pages)], path)
    data = bytearray(path.read_bytes())
    line = list(re.finditer(rb"stream\n(q [^\n]*Do Q)\n", data))[damaged - 1]
    data[line.start(1):line.end(1)] = bytes((i * 37 + 11) % 256 for i in range(line.end(1) - line.start(1)))
    path.write_bytes(bytes(data))
    return path


def test_a_scanned_page_whose_content_stream_is_damaged_is_named_as_left_out(tmp_path: Path) -> None:
    """It became an empty page without a word, as if blank."""
    from desktop_rag.engine.reasons import Reason

    doc = load(_scan_with_a_damaged_content_stream(tmp_path / "scan.pdf", 3, 2), max_bytes=1 << 26)
    assert [s.page for s in doc.sections] == [1, 3]
    assert [Reason.of(n).text("en") for n in doc.notes] == ["Page(s) 2 could not be read and were left out"]


def test_a_blank_page_in_a_scan_is_not_named(tmp_path: Path) -> None:
    from pypdf import PdfWriter

    from tests.support import scans

    path = scans.image_pdf([scans.strip((scans.ENGLISH[0],), False)], tmp_path / "scan.pdf")
    writer = PdfWriter(clone_from=path)
    writer.add_blank_page()
    writer.write(path)
    doc = load(path, max_bytes=1 << 26)
    assert [s.page for s in doc.sections] == [1] and doc.notes == ()
