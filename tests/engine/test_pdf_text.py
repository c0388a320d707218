"""PDF text through PDFium: predefined CJK CMaps, CJK spacing, broken text layers caught, cited passages located."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest

from desktop_rag.engine.document.locate import EXACT, MATCHED, locate
from desktop_rag.engine.document.pdf_child import PdfPages
from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.chunking import chunk_document
from desktop_rag.engine.ingest.loaders import LoadContext, load
from desktop_rag.engine.ingest.loaders import pdf as pdf_loader
from desktop_rag.engine.ingest.loaders import pdf_open
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.values import Hit
from tests.support import pdf_build as build
from tests.support.scans import cer

ZH = ["关于红军作战的原则，一九三七年八月一日。", "请在购买后三十天内寄回保修卡，以便享受完整的保修服务。"]
JA = ["日本語のテキストを正しく抽出できるか確認します。", "東京都の天気は晴れ、ときどき曇りでしょう。"]
KO = ["한국어 문서의 텍스트를 올바르게 추출합니다.", "서울의 날씨는 맑겠습니다."]
EN = ["The lighthouse keeper recorded the storm at four in the morning.",
      "Fresh basil should be added at the very end of cooking."]
GARBAGE_SIGNS = ("\ufffd", "(cid:", *(chr(c) for c in range(1, 32) if chr(c) not in "\t\n\r"))


def _text(doc) -> str:
    return "\n".join(s.text for s in doc.sections)


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("font, lines", [
    (build.GBK_EUC_H, ZH), (build.Predefined("GBKp-EUC-H", "gbk", "GB1", "STSong-Light"), ZH),
    (build.UNIGB_UCS2_H, ZH), (build.GB_EUC_H, ZH), (build.RKSJ_H, JA),
    (build.Predefined("90msp-RKSJ-H", "cp932", "Japan1", "KozMinPro-Regular"), JA), (build.UNIJIS_UCS2_H, JA),
    (build.UHC_H, KO),
], ids=lambda v: v.cmap if isinstance(v, build.Predefined) else None)
def test_cjk_fonts_through_predefined_cmaps_are_read_exactly(tmp_path, font, lines) -> None:
    path = _write(tmp_path, "cjk.pdf", build.predefined_pdf([lines], font))
    doc = load(path, max_bytes=0)
    assert cer("".join(lines), _text(doc)) == 0.0
    assert not doc.notes and not any(s.ocr for s in doc.sections)


def test_spaces_between_cjk_characters_go_and_spaces_between_latin_words_stay(tmp_path) -> None:
    spaced = ["目 　 录", "关 于 红 军 作 战 的 原 则 … … … １", "Release notes 第 3 版 for Python"]
    doc = load(_write(tmp_path, "spaced.pdf", build.predefined_pdf([spaced], build.GBK_EUC_H)), max_bytes=0)
    text = _text(doc)
    assert "目录" in text and "关于红军作战的原则………１" in text
    assert "Release notes 第 3 版 for Python" in text  # next to Latin letters and digits spaces stay


def test_a_font_without_unicode_map_is_never_indexed_as_garbage_and_ocr_reads_the_page(tmp_path) -> None:
    lines = [*EN, "Our quarterly budget review moved to the second floor meeting room."]
    path = _write(tmp_path, "no-map.pdf", build.embedded_pdf([lines], build.DEJAVU, to_unicode=False))
    doc = load(path, max_bytes=0)
    text = _text(doc)
    assert all(s.ocr for s in doc.sections)  # the text came from OCR of the drawn page, not from the text layer
    assert not any(sign in text for sign in GARBAGE_SIGNS) and "7KH" not in text  # "The" as glyph numbers
    assert cer("\n".join(lines), text) < 0.05
    assert doc.notes == (Phrase("note.pdf_recovered", n=1),)


def test_a_font_without_unicode_map_fails_with_the_reason_when_ocr_is_off(tmp_path) -> None:
    path = _write(tmp_path, "no-map.pdf", build.embedded_pdf([EN], build.DEJAVU, to_unicode=False))
    with pytest.raises(LoadError, match="text layer is unreadable .*OCR. is turned off"):
        load(path, max_bytes=0, context=LoadContext(ocr=False))


def test_good_pages_are_kept_and_the_broken_one_left_out_without_ocr(tmp_path, monkeypatch) -> None:
    good = build.standard_pdf([EN])
    bad = build.embedded_pdf([EN], build.DEJAVU, to_unicode=False)
    path = tmp_path / "mixed.pdf"
    from pypdf import PdfReader, PdfWriter
    import io

    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(good)))
    writer.append(PdfReader(io.BytesIO(bad)))
    writer.write(path)
    doc = load(path, max_bytes=0, context=LoadContext(ocr=False))
    assert [s.page for s in doc.sections] == [1]
    assert doc.notes == (Phrase("note.pdf_left_out", n=1),)


def test_an_embedded_font_with_a_unicode_map_is_read_from_the_text_layer(tmp_path) -> None:
    if not Path(build.DROID).exists():
        pytest.skip("fonts-droid-fallback is not installed")
    path = _write(tmp_path, "zh.pdf", build.embedded_pdf([ZH], build.DROID, to_unicode=True))
    doc = load(path, max_bytes=0)
    assert cer("".join(ZH), _text(doc)) == 0.0 and not any(s.ocr for s in doc.sections)


def test_pypdf_reads_a_file_pdfium_cannot_parse(tmp_path, monkeypatch) -> None:
    path = _write(tmp_path, "en.pdf", build.standard_pdf([EN]))
    expected = load(path, max_bytes=0)

    def refuse(_path, _password=""):
        raise pdf_open.Unreadable("Data format error")

    monkeypatch.setattr(pdf_loader, "open_pdfium", refuse)
    assert load(path, max_bytes=0) == expected


@pytest.mark.parametrize("lines, font", [(ZH, build.GBK_EUC_H), (EN, None)])
def test_every_chunk_of_a_pdfium_read_pdf_is_located_with_boxes(tmp_path, lines, font) -> None:
    pages = [[f"{n}. {line}" for line in lines for n in range(1, 6)]] * 2
    data = build.predefined_pdf(pages, font) if font else build.standard_pdf(pages)
    path = _write(tmp_path, "doc.pdf", data)
    doc = load(path, max_bytes=0)
    chunks = chunk_document(doc, 60, 10)
    assert len(chunks) > 4
    with closing(PdfPages()) as pages:  # one PDFium child for all
        for i, c in enumerate(chunks):
            hit = Hit(i, 1.0, str(path), c.page, c.heading, c.text, char_start=c.char_start, char_end=c.char_end)
            where = locate(hit, None, pages=pages)
            assert where.match in (EXACT, MATCHED) and where.page == c.page and where.rects, c.text


def test_indexing_says_which_pages_were_recovered_and_stores_no_garbage(tmp_path) -> None:
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine.engine import Engine

    folder = tmp_path / "docs"
    folder.mkdir()
    _write(folder, "no-map.pdf", build.embedded_pdf([EN], build.DEJAVU, to_unicode=False))
    _write(folder, "gbk.pdf", build.predefined_pdf([ZH], build.Predefined("GBKp-EUC-H", "gbk", "GB1", "STSong-Light")))
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    try:
        report = engine.index([folder])
        texts = [row[0] for row in engine.store.db.execute("SELECT text FROM chunks")]
        stored = {Path(f.path).name: (f.status, f.error) for f in engine.store.files()}
    finally:
        engine.close()
    assert report.added == 2 and not report.failed
    note = Reason.of(Phrase("note.pdf_recovered", n=1))
    assert [(Path(n.path).name, n.error) for n in report.notes] == [("no-map.pdf", note)]
    assert report.to_json()["notes"] == [{"path": str(folder / "no-map.pdf"), "note": str(note),
                                          "code": "note.pdf_recovered"}]
    assert stored == {"no-map.pdf": ("indexed", note), "gbk.pdf": ("indexed", Reason())}
    assert not any(sign in t for t in texts for sign in GARBAGE_SIGNS) and not any("7KH" in t for t in texts)
    assert any("关于红军作战的原则" in t for t in texts) and any("lighthouse keeper" in t for t in texts)



def test_a_password_pdfium_refuses_and_pypdf_accepts_is_read_by_pypdf(tmp_path, monkeypatch) -> None:
    """A file whose owner password is empty: pypdf opens it with "" (as before issue 36), PDFium asks for the user
    password (pypdf's resources/encryption_r5-user-password.pdf; bench/pdf_extraction's corpus)."""
    path = _write(tmp_path, "en.pdf", build.standard_pdf([EN]))

    def ask(_path, _password=""):
        raise LoadError.coded("pdf_password")

    monkeypatch.setattr(pdf_loader, "open_pdfium", ask)
    assert "lighthouse keeper" in _text(load(path, max_bytes=0))
    monkeypatch.setattr(pdf_loader, "open_pypdf", ask)
    with pytest.raises(LoadError, match="password-protected"):
        load(path, max_bytes=0)
