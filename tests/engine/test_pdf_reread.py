"""A PDF page whose text PDFium reads as garbage but pypdf reads right is taken from pypdf (ingest/loaders/pdf.py
`_reread`), before any OCR: here a Chinese page through GBK-EUC-H whose marked-content /ActualText holds the
line's GBK bytes without the UTF-16 mark. PDFium reports the ActualText (read as PDFDocEncoding: Latin-1 mojibake
of GBK, the "mojibake" sign of pdf_layer.broken); pypdf ignores ActualText and decodes the glyphs through the CMap.
(The other broken-layer fixtures lack a ToUnicode map, where pypdf is no better than PDFium.)"""

from __future__ import annotations

from desktop_rag.engine.ingest.loaders import LoadContext, load
from desktop_rag.engine.ingest.loaders.pdf_layer import broken
from desktop_rag.engine.ingest.loaders.pdf_open import open_pdfium, open_pypdf
from desktop_rag.engine.ingest.loaders.pdf_pages import PdfiumPages, PypdfPages
from tests.support import pdf_build as build

ZH = ["关于红军作战的原则，一九三七年八月一日。", "请在购买后三十天内寄回保修卡，以便享受完整的保修服务。"]
EN = ["The lighthouse keeper recorded the storm at four in the morning."]


def _write(tmp_path, pages):
    path = tmp_path / "actual-text.pdf"
    path.write_bytes(build.predefined_pdf(pages, build.GBK_EUC_H, raw_actual_text=True))
    return path


def test_the_fixture_breaks_pdfium_and_not_pypdf(tmp_path):
    path = _write(tmp_path, [ZH])
    pdfium, pypdf = PdfiumPages(open_pdfium(path, "")), PypdfPages(open_pypdf(path, ""))
    try:
        (text, unmapped), (other, _) = pdfium.text(0), pypdf.text(0)
    finally:
        pdfium.close()
        pypdf.close()
    assert broken(text, unmapped) == "mojibake" and "关于" not in text
    assert broken(other, unmapped) is None and "".join(other.split()) == "".join(ZH)


def test_a_page_pdfium_reads_as_garbage_is_read_by_pypdf_without_ocr(tmp_path):
    doc = load(_write(tmp_path, [ZH, ZH[::-1]]), max_bytes=0, context=LoadContext(ocr=False))
    assert [s.page for s in doc.sections] == [1, 2]
    assert ["".join(s.text.split()) for s in doc.sections] == ["".join(ZH), "".join(ZH[::-1])]
    assert not any(s.ocr for s in doc.sections) and not doc.notes  # nothing recognised, nothing left out


def test_with_ocr_on_the_text_still_comes_from_pypdf(tmp_path):
    doc = load(_write(tmp_path, [ZH]), max_bytes=0)
    assert "".join(doc.sections[0].text.split()) == "".join(ZH)
    assert not doc.sections[0].ocr and not doc.notes
