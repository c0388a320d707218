"""One reader registry decides what is scanned, where it is parsed, which loader reads it and what messages say."""

from __future__ import annotations

from pathlib import Path

from desktop_rag.engine import file_types
from desktop_rag.engine.file_types import READERS, SUPPORTED_SUFFIXES, supported_types
from desktop_rag.engine.ingest import parsing, scanning
from desktop_rag.engine.ingest.loaders import load


def test_every_suffix_in_the_table_is_scanned_and_nothing_else(tmp_path: Path):
    for kind in READERS:
        for suffix in kind.suffixes:
            assert file_types.is_supported(f"a{suffix}") and file_types.is_supported(f"A{suffix.upper()}")
    for other in ("a.pages", "a.key", "a.mdx", "a", "a.pdf.tmp"):
        assert not file_types.is_supported(other)
    (tmp_path / "notes.markdown").write_text("# Title\n\nBody text.\n", encoding="utf-8")
    (tmp_path / "slides.key").write_bytes(b"PK")
    found, skipped = scanning.scan(str(tmp_path), "folder")
    assert [Path(f.path).name for f in found] == ["notes.markdown"]
    assert [(Path(s.path).name, s.reason) for s in skipped] == [("slides.key", scanning.UNSUPPORTED)]


def test_text_is_read_in_process_the_rest_in_the_parser_child():
    assert parsing.CHILD_SUFFIXES == {s for t in READERS if t.in_child for s in t.suffixes}
    assert file_types.TEXT_SUFFIXES == {".txt", ".md", ".markdown"}
    assert parsing.CHILD_SUFFIXES | file_types.TEXT_SUFFIXES == SUPPORTED_SUFFIXES


def test_a_markdown_file_keeps_its_headings(tmp_path: Path):
    path = tmp_path / "notes.markdown"
    path.write_text("# Setup\n\nInstall the widget first.\n\n## Cleaning\n\nWipe it weekly.\n", encoding="utf-8")
    sections = load(path, max_bytes=1 << 20).sections
    assert [s.heading_path for s in sections] == [("Setup",), ("Setup", "Cleaning")]


def test_messages_name_the_supported_kinds():
    assert supported_types() == "PDF, Word .docx, PowerPoint .pptx, spreadsheets (.xlsx, .ods), CSV/TSV, web pages (.html), EPUB e-books, e-mail (.eml, .mbox), OpenDocument .odt, RTF, Word 97-2003 .doc, PowerPoint 97-2003 .ppt, Excel 97-2003 .xls, .md, .txt, images"
    assert str(scanning.UNSUPPORTED) == "Not a supported file type (PDF, Word .docx, PowerPoint .pptx, spreadsheets (.xlsx, .ods), CSV/TSV, web pages (.html), EPUB e-books, e-mail (.eml, .mbox), OpenDocument .odt, RTF, Word 97-2003 .doc, PowerPoint 97-2003 .ppt, Excel 97-2003 .xls, .md, .txt, images)"


def test_every_reader_declares_a_loader_that_imports_and_a_unique_type_name():
    from desktop_rag.engine.ingest.loaders import loader_for

    assert len({r.name for r in READERS}) == len(READERS)
    assert len(SUPPORTED_SUFFIXES) == sum(len(r.suffixes) for r in READERS)  # no suffix read by two readers
    for reader in READERS:
        assert callable(loader_for(reader.suffixes[0])), reader.name
        assert reader.location in file_types.LOCATION_WORDS or reader.location == ""
        assert reader.label and reader.label_zh


def test_location_words_follow_the_reader():
    assert file_types.location_text("a.pdf", 3) == "page 3"
    assert file_types.location_text("a.PDF", 3, "zh") == "第 3 页"
    assert file_types.location_text("a.pdf", None) == ""


def test_the_registry_says_which_formats_are_paged_and_how_the_viewer_shows_them():
    assert [r.name for r in READERS if r.view == file_types.PAGES] == ["pdf"]
    assert {r.view for r in READERS} == {file_types.PAGES, file_types.TEXT}
    assert file_types.is_paged("/a/report.PDF") and file_types.view_of("/a/m.eml/2/x.pdf") == file_types.PAGES
    assert not file_types.is_paged("deck.pptx") and file_types.view_of("deck.pptx") == file_types.TEXT
    assert file_types.view_of("unknown.xyz") == file_types.TEXT


def test_mime_types_come_from_the_registry():
    assert file_types.suffix_for_type("application/pdf") == ".pdf"
    assert file_types.suffix_for_type("Text/CSV") == ".csv"
    assert file_types.suffix_for_type("message/rfc822") == ".eml"
    assert [file_types.suffix_for_type(t) for t in ("text/plain", "text/html")] == [".txt", ".html"]
    assert file_types.suffix_for_type("application/octet-stream") == ""
    every = [m for r in READERS for m in r.mime_types]
    assert len(every) == len(set(every)) and all(m == m.lower() for m in every)
