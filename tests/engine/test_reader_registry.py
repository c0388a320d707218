"""The reader registry's lookups (engine/file_types.py) and the loading front door (ingest/loaders/__init__.py):
which reader and loader a file gets, how types, labels and locations are worded, and which error a person reads
for each way a file fails before or while it is read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from desktop_rag.engine import file_types
from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest import loaders
from desktop_rag.engine.ingest.documents import ParsedDocument, Section
from desktop_rag.engine.ingest.loaders import LoadContext, check_file, format_mb, load, loader_for, register


# ---- the registry ----

def test_a_reader_is_found_by_its_suffix_in_any_case():
    assert file_types.reader_for("/d/Report.PDF").name == "pdf"
    assert file_types.reader_for("notes.Markdown").name == "md"
    assert file_types.reader_for("photo.JPeG").name == "image"
    assert file_types.reader_for("archive.tar.gz") is None and file_types.reader_for("README") is None
    assert file_types.reader_for(Path("mail/inbox.mbox")).kind == "email"
    assert file_types.is_supported("a.TSV") and not file_types.is_supported("a.tsv.bak")


def test_suffixes_labels_and_patterns_follow_the_table():
    assert file_types.suffixes_of("md") == (".md", ".markdown")
    assert file_types.suffixes_of("image")[:2] == (".png", ".jpg")
    assert file_types.suffixes_of("nope") == ()
    assert file_types.type_labels()[:3] == ["PDF", "Word .docx", "PowerPoint .pptx"]
    assert file_types.type_labels("zh")[3] == "电子表格（.xlsx、.ods）" and file_types.type_labels("en")[3] == (
        "spreadsheets (.xlsx, .ods)")
    assert file_types.supported_types("zh").startswith("PDF、Word .docx、PowerPoint .pptx、电子表格")
    assert file_types.supported_types("zh").endswith("、.md、.txt、图片")
    patterns = file_types.suffix_patterns().split(" ")
    assert patterns[:3] == ["*.pdf", "*.docx", "*.pptx"] and "*.markdown" in patterns and "*.webp" in patterns
    assert len(patterns) == len(file_types.SUPPORTED_SUFFIXES)


@pytest.mark.parametrize("path, page, lang, expected", [
    ("a.pdf", 3, "en", "page 3"), ("a.pptx", 2, "en", "slide 2"), ("a.pptx", 2, "zh", "第 2 张幻灯片"),
    ("a.XLSX", 1, "en", "sheet 1"), ("a.csv", 4, "zh", "第 4 个工作表"), ("a.epub", 5, "en", "chapter 5"),
    ("a.eml", 1, "zh", "第 1 封邮件"), ("a.docx", 7, "en", "page 7"), ("a.unknown", 2, "en", "page 2"),
    ("a.pdf", None, "zh", ""), ("a.pdf", 0, "en", "page 0"),
])
def test_a_location_is_worded_by_its_reader(path, page, lang, expected):
    assert file_types.location_text(path, page, lang) == expected


# ---- finding a loader ----

def test_a_registered_loader_comes_first_and_its_suffix_is_lower_case(tmp_path, monkeypatch):
    monkeypatch.setattr(loaders, "_LOADERS", {})
    seen = []

    def read(path: Path) -> ParsedDocument:
        seen.append(path)
        return ParsedDocument(sections=(Section(text="registered"),))

    register(".TXT", read)
    assert list(loaders._LOADERS) == [".txt"]
    path = tmp_path / "a.txt"
    path.write_text("on disk", encoding="utf-8")
    assert load(path, max_bytes=0).sections[0].text == "registered" and seen == [path]
    monkeypatch.setattr(loaders, "_LOADERS", {})
    assert load(path, max_bytes=0).sections[0].text == "on disk"  # the registry's reader again


def test_the_registry_names_each_loader_as_module_and_function():
    from desktop_rag.engine.ingest.loaders import pdf, text

    assert loader_for(".pdf") is pdf.load_pdf and loader_for(".md") is text.load_markdown
    assert loader_for(".key") is None and loader_for("") is None


# ---- before reading: the file itself ----

@pytest.mark.parametrize("size, expected", [(0, "0"), (1024 * 1024, "1"), (2.5 * 1024 * 1024, "2.5"),
                                            (0.1 * 1024 * 1024, "0.1"), (10.4 * 1024 * 1024, "10"),
                                            (9.96 * 1024 * 1024, "10.0"), (150 * 1024 * 1024, "150")])
def test_sizes_in_messages(size, expected):
    assert format_mb(size) == expected


def _code(call) -> tuple[str, str]:
    with pytest.raises(LoadError) as raised:
        call()
    return raised.value.code, str(raised.value)


def test_the_file_is_checked_before_it_is_read(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"x" * 3000)
    assert check_file(path, 0) == 3000 and check_file(path, 3000) == 3000
    code, text = _code(lambda: check_file(path, 2999))
    assert code == "file_too_large" and text.startswith("a.txt is 0.0 MB")
    assert _code(lambda: check_file(tmp_path / "gone.txt", 0))[0] == "file_vanished"
    assert _code(lambda: check_file(tmp_path, 0))[0] == "not_regular_file"
    looped = tmp_path / "loop.txt"
    os.symlink(looped, looped)
    code, text = _code(lambda: check_file(looped, 0))
    assert code == "file_unreadable" and text.endswith("(Too many levels of symbolic links)")  # the system's words


@pytest.mark.parametrize("name", ["report.pdf", "notes.docx", "slides.pptx", "book.epub", "scan.png", "a.rtf"])
def test_an_empty_file_is_said_to_be_empty_whatever_its_type(tmp_path, name):
    """A 0-byte file (a copy or download not begun) is not "another kind of file renamed .pdf"."""
    (tmp_path / name).write_bytes(b"")
    assert _code(lambda: load(tmp_path / name, max_bytes=0)) == ("file_empty", "The file is empty")


def test_an_unsupported_file_is_named_by_its_suffix(tmp_path):
    assert _code(lambda: load(tmp_path / "x.key", max_bytes=0)) == (
        "type_not_supported", "Files of type '.key' are not supported")
    assert "'(none)'" in _code(lambda: load(tmp_path / "README", max_bytes=0))[1]


# ---- while reading: each failure as the error a person reads ----

def _failing(exc: BaseException):
    def read(path: Path) -> ParsedDocument:
        raise exc
    return read


@pytest.mark.parametrize("exc, code, words", [
    (LoadError.coded("pdf_damaged"), "pdf_damaged", None),
    (FileNotFoundError(2, "No such file"), "file_vanished", None),
    (PermissionError(13, "Permission denied"), "permission_denied", None),
    (MemoryError(), "no_memory", None),
    (RecursionError("deep"), "too_deeply_nested", None),
    (OSError(5, "Input/output error"), "file_unreadable", "(Input/output error)"),
    (OSError("no strerror here"), "file_unreadable", "(no strerror here)"),
    (KeyError("word/document.xml"), "reader_failed", "(KeyError: 'word/document.xml')"),
])
def test_each_failure_while_reading_is_a_load_error(tmp_path, monkeypatch, exc, code, words):
    monkeypatch.setattr(loaders, "_LOADERS", {})
    register(".boom", _failing(exc))
    path = tmp_path / "f.boom"
    path.write_text("x", encoding="utf-8")
    found, text = _code(lambda: load(path, max_bytes=0))
    assert found == code
    if words:
        assert words in text


def test_the_context_reaches_the_loader(tmp_path, monkeypatch):
    given = []
    monkeypatch.setattr(loaders, "_LOADERS", {".ctx": lambda path, context: given.append(context) or ParsedDocument(
        sections=(Section(text="t"),))})
    path = tmp_path / "f.ctx"
    path.write_text("x", encoding="utf-8")
    load(path, max_bytes=0)
    mine = LoadContext(password="pw", ocr=False, table_chars=77)
    load(path, max_bytes=0, context=mine)
    assert given[0] == LoadContext() and given[1] is mine
    assert given[0].ocr and given[0].password == "" and given[0].table_chars == 500
    assert given[0].page(1, 2) is None
