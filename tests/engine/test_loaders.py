"""Loaders: the good fixtures parse correctly and each bad fixture fails with its own message."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.file_types import SUPPORTED_SUFFIXES
from desktop_rag.engine.ingest import loaders
from desktop_rag.engine.ingest.loaders import load
from desktop_rag.engine.ingest.loaders.docx import check_zip_safety
from desktop_rag.engine.ingest.loaders.text import decode_bytes
from tests.support import DATA

GOOD, BAD = DATA / "good", DATA / "bad"
LIMIT = 10 * 1024 * 1024


def _load(path: Path):
    return load(path, max_bytes=LIMIT)


def test_supported_suffixes() -> None:
    assert SUPPORTED_SUFFIXES == frozenset({".pdf", ".docx", ".pptx", ".xlsx", ".ods", ".csv", ".tsv", ".txt", ".md",
                                            ".markdown", ".html", ".htm", ".epub", ".eml", ".mbox", ".odt", ".rtf",
                                            ".doc", ".ppt", ".xls",
                                            ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".bmp"})


def test_pdf_pages_headers_and_page_numbers() -> None:
    doc = _load(GOOD / "report.pdf")
    assert [s.page for s in doc.sections] == [1, 2, 3]
    full = "\n".join(s.text for s in doc.sections)
    assert "ACME Field Guide" not in full  # repeated header removed
    assert "Page 1 of 3" not in full and "of 3" not in full  # page numbers removed
    assert doc.sections[0].text.startswith("Alpha section")
    assert "jumps over the lazy dog while the widget is being installed." in doc.sections[0].text
    assert "an example of a hyphenated word" in doc.sections[0].text
    assert "Bravo section" in doc.sections[1].text and "Charlie section" in doc.sections[2].text


def test_pdf_encrypted_with_empty_password_opens() -> None:
    assert _load(GOOD / "encrypted_no_password.pdf") == _load(GOOD / "report.pdf")


def test_docx_headings_paragraphs_and_tables_in_order() -> None:
    doc = _load(GOOD / "manual.docx")
    install = ("Widget Manual", "Setup", "Install")
    assert [(s.heading_path, s.text) for s in doc.sections[2:5]] == [
        (install, "Install\n\nBefore the table."),
        (install, "| Part | Count |\n| --- | --- |\n| Bolt | 4 |"),  # a table is a Markdown section of its own
        (install, "After the table."),
    ]
    assert [s.heading_path for s in doc.sections[:2]] == [("Widget Manual",), ("Widget Manual", "Setup")]
    assert doc.sections[5].heading_path == ("Widget Manual", "Usage")
    assert "中文段落：按下按钮即可开始。" in doc.sections[5].text
    assert all(s.page is None for s in doc.sections)


def test_gbk_text_decodes_to_chinese() -> None:
    doc = _load(GOOD / "chinese_gbk.txt")
    assert doc.sections[0].text.startswith("第一章 概述\n\n本文件使用GBK编码保存，用于测试中文编码检测。")
    # a line ending in a CJK character (not 。) joins the next one with no space
    assert "检测。\n知识库" in doc.sections[0].text


def test_utf16_bom_text() -> None:
    text = _load(GOOD / "utf16_bom.txt").sections[0].text
    assert text == "UTF-16 with a byte order mark.\n第二行是中文：你好，世界。"


def test_markdown_nested_headings_and_code_block() -> None:
    doc = _load(GOOD / "notes.md")
    by_path = {s.heading_path: s.text for s in doc.sections}
    assert list(by_path) == [
        (),
        ("Setup",),
        ("Setup", "Install"),
        ("Setup", "Install", "Linux"),
        ("Setup", "Configure"),
        ("Usage",),
    ]
    install = by_path[("Setup", "Install")]
    assert "# not a heading, just a comment" in install  # '#' inside a code fence is not a heading
    assert "Run the installer and follow the prompts on screen." in install
    assert by_path[()] == "Intro paragraph before any heading."


def test_a_markdown_file_of_headings_only_is_its_headings(tmp_path: Path) -> None:
    """A title or an outline is text: it was "no text (only spaces or blank lines)", and never searchable."""
    f = tmp_path / "outline.md"
    f.write_text("# Trip to Kyoto\n\n## Temples\n\n## Tea houses\n", encoding="utf-8")
    assert [s.text for s in _load(f).sections] == ["Trip to Kyoto\nTemples\nTea houses"]
    f.write_text("\n  \n\n", encoding="utf-8")
    with pytest.raises(LoadError) as caught:
        _load(f)
    assert caught.value.code == "no_text_left"


def test_markdown_setext_headings(tmp_path: Path) -> None:
    f = tmp_path / "s.markdown"
    f.write_text("Title\n=====\n\nBody one.\n\nSub\n---\n\nBody two.\n", encoding="utf-8")
    doc = _load(f)
    assert [(s.heading_path, s.text) for s in doc.sections] == [
        (("Title",), "Title\n\nBody one."),
        (("Title", "Sub"), "Sub\n\nBody two."),
    ]


BAD_CASES = {
    "encrypted.pdf": "password-protected",
    "truncated.pdf": "incomplete",
    "garbage.pdf": "not a PDF",
    "broken.pdf": "damaged",
    "scanned.pdf": "no text layer",
    "old_word.docx": "Not a Word .docx file (it may be an old .doc renamed; save it as .docx)",
    "zip_bomb.docx": "looks like a zip bomb",
    "corrupt.docx": "Word file is damaged",
    "empty.txt": "The file is empty",
    "whitespace.txt": "contains no text",
    "binary.txt": "looks like binary data, not text",
}


@pytest.mark.parametrize("name,expected", sorted(BAD_CASES.items()))
def test_bad_inputs_have_specific_messages(name: str, expected: str) -> None:
    with pytest.raises(LoadError) as info:
        _load(BAD / name)
    assert expected in str(info.value)


def test_every_bad_fixture_is_covered_and_messages_differ() -> None:
    assert {p.name for p in BAD.iterdir()} == set(BAD_CASES)
    messages = set()
    for name in BAD_CASES:
        with pytest.raises(LoadError) as info:
            _load(BAD / name)
        messages.add(str(info.value))
    assert len(messages) == len(BAD_CASES)


def test_size_limit_checked_before_parsing(tmp_path: Path) -> None:
    big = tmp_path / "big.pdf"
    big.write_bytes(b"x" * 3 * 1024 * 1024)  # not even a PDF: the size check comes first
    with pytest.raises(LoadError, match=r"big.pdf is 3 MB, larger than the limit of 2 MB \(Settings\)"):
        load(big, max_bytes=2 * 1024 * 1024)


def test_unsupported_and_missing(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="not supported"):
        _load(tmp_path / "x.key")
    with pytest.raises(LoadError, match="moved or deleted"):
        _load(tmp_path / "missing.txt")


def test_loader_exceptions_become_load_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(path: Path, _context):
        raise ValueError("bad thing")

    def vanish(path: Path, _context):
        path.unlink()
        return path.read_bytes()

    monkeypatch.setitem(loaders._LOADERS, ".boom", boom)
    monkeypatch.setitem(loaders._LOADERS, ".gone", vanish)
    for suffix in (".boom", ".gone"):
        (tmp_path / f"f{suffix}").write_text("x")
    with pytest.raises(LoadError, match=r"reader failed on this file \(ValueError: bad thing\)"):
        _load(tmp_path / "f.boom")
    with pytest.raises(LoadError, match="moved or deleted while it was being read"):
        _load(tmp_path / "f.gone")


def test_zip_bomb_guard_on_declared_size() -> None:
    check_zip_safety(GOOD / "manual.docx")  # a real document passes
    with pytest.raises(LoadError, match="too large when unpacked"):  # its own reason since issue 16 item 10
        check_zip_safety(GOOD / "manual.docx", max_total=100_000)


def test_zip_without_word_document(tmp_path: Path) -> None:
    f = tmp_path / "a.docx"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("hello.txt", "hi")
    f.write_bytes(buf.getvalue())
    with pytest.raises(LoadError, match="not a Word document"):
        _load(f)


@pytest.mark.parametrize(
    "data,expected,codec",
    [
        ("Hello world\nline 2".encode("utf-16-le"), "Hello world\nline 2", "utf-16"),
        ("Hi 中文\n".encode("utf-16-be"), "Hi 中文\n", "utf-16"),
        ("中文文本用于测试".encode("utf-16-le"), "中文文本用于测试", "utf-16"),
        ("Hi 中文".encode("utf-32"), "Hi 中文", "utf-32-le"),
        ("\ufeffcafé".encode("utf-8"), "café", "utf-8"),
        ("Hello 世界, 这是 GBK 编码的 text 123.".encode("gbk"), "Hello 世界, 这是 GBK 编码的 text 123.", "gb18030"),
        ("naïve café “quoted” éa".encode("cp1252"), "naïve café “quoted” éa", "cp1252"),
        (b"plain ascii", "plain ascii", "utf-8"),
    ],
)
def test_decode_bytes(data: bytes, expected: str, codec: str) -> None:
    assert decode_bytes(data) == (expected, codec)


def test_crlf_text_normalised(tmp_path: Path) -> None:
    f = tmp_path / "w.txt"
    f.write_bytes(b"Line one of a\r\nwrapped sentence.\r\n\r\n\x07Second\x00 para.")
    with pytest.raises(LoadError, match="binary"):  # a NUL byte means binary
        _load(f)
    f.write_bytes(b"Line one of a\r\nwrapped   sentence.\r\n\r\n\x07Second para.")
    assert _load(f).sections[0].text == "Line one of a wrapped sentence.\n\nSecond para."


def test_plain_text_title_line_becomes_the_heading_of_every_chunk(tmp_path):
    from desktop_rag.engine.ingest.chunking import chunk_document

    doc = tmp_path / "article.txt"
    doc.write_text("Tea Storage Basics\n\n" + "Keep the leaves dry and cool. " * 60, encoding="utf-8")
    parsed = load(doc, max_bytes=10**6)
    assert parsed.sections[0].heading_path == ("Tea Storage Basics",)
    chunks = chunk_document(parsed, 500, 50)
    assert len(chunks) > 2 and {c.heading for c in chunks} == {"Tea Storage Basics"}

    for body in ("One line only, no title here", "First line.\nSecond line.\n\nbody " * 3, "A long first paragraph. " * 20 + "\n\nshort"):
        doc.write_text(body, encoding="utf-8")
        assert load(doc, max_bytes=10**6).sections[0].heading_path == (), body[:30]
