"""E-books: chapters in spine order, page = chapter number, heading = the chapter's table-of-contents title."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders.epub import load_epub
from tests.support.epub_files import CHAPTERS, write_epub, xhtml


def test_chapters_in_reading_order_with_toc_headings(tmp_path: Path) -> None:
    doc = load_epub(write_epub(tmp_path / "book.epub", CHAPTERS))
    assert [s.page for s in doc.sections] == [1, 1, 2]  # the cover (a picture) is no chapter
    assert [s.heading_path for s in doc.sections] == [
        ("Chapter 1: The Harbour", "The Harbour"), ("Chapter 1: The Harbour", "The Harbour", "Nets"),
        ("第二章 山村", "山村")]
    assert "fishing boats left the harbour before dawn" in doc.sections[0].text
    assert "清晨去茶园采茶" in doc.sections[2].text
    assert not any("Contents" in s.text for s in doc.sections)  # the nav document is not a chapter


def test_spine_order_not_manifest_order_and_ncx_labels(tmp_path: Path) -> None:
    doc = load_epub(write_epub(tmp_path / "b.epub", CHAPTERS, spine=["c2", "c1"], nav=False, opf_dir=""))
    assert [s.page for s in doc.sections] == [1, 2, 2]
    assert doc.sections[0].heading_path[0] == "第二章 山村 (NCX)"
    assert doc.sections[1].heading_path[0] == "Chapter 1: The Harbour (NCX)"


def test_chapter_without_toc_entry_uses_its_first_heading_and_gbk_encoding(tmp_path: Path) -> None:
    chapter = xhtml("Book", "<h1>第三章 江南</h1><p>江南的春天细雨绵绵。</p>", encoding="gbk").encode("gb18030")
    path = write_epub(tmp_path / "c.epub", [("c3.xhtml", "", chapter)], nav=False)
    doc = load_epub(path)
    assert doc.sections[0].heading_path == ("第三章 江南",)
    assert doc.sections[0].text == "第三章 江南\n\n江南的春天细雨绵绵。"


def test_not_an_epub_and_no_spine(tmp_path: Path) -> None:
    bad = tmp_path / "x.epub"
    bad.write_bytes(b"%PDF-1.4 not a zip")
    with pytest.raises(LoadError, match="Not an EPUB"):
        load_epub(bad)
    empty = tmp_path / "empty.epub"
    with zipfile.ZipFile(empty, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip")
    with pytest.raises(LoadError, match="container.xml"):
        load_epub(empty)
    with pytest.raises(LoadError, match="no chapters"):
        load_epub(write_epub(tmp_path / "n.epub", CHAPTERS, spine=["cover-missing"]))


def test_xhtml_self_closed_anchors_do_not_swallow_the_text(tmp_path: Path) -> None:
    """<a id="p5"/> is closed in XHTML; parsed as HTML it would open a link around the rest of the paragraph."""
    paragraphs = "".join(f'<p><a id="page{i}"/>Paragraph {i} tells of the long voyage north.<br/></p>'
                         for i in range(6000))
    path = write_epub(tmp_path / "a.epub", [("a.xhtml", "Voyage", xhtml("Book", "<h1>Voyage</h1>" + paragraphs))])
    doc = load_epub(path)
    text = "\n".join(s.text for s in doc.sections)
    assert "Paragraph 0 tells" in text and "Paragraph 5999 tells of the long voyage north." in text


def test_a_doctype_with_an_internal_subset_is_not_read_as_text(tmp_path: Path) -> None:
    """Issue 49 item 9: `<!DOCTYPE html [<!ENTITY ...>]>` ended at its first ">" for the HTML parser, and the rest of
    the declaration ("]>") was indexed as the chapter's text; a quoted "]>" inside the subset is no end either."""
    markup = ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html [\n<!ENTITY a "]>">\n<!ENTITY nbsp "&#160;">\n]>\n'
              '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body><h1>The Quay</h1>'
              "<p>Nets were mended on the quay.</p></body></html>")
    doc = load_epub(write_epub(tmp_path / "b.epub", [("ch1.xhtml", "The Quay", markup)]))
    text = "\n".join(s.text for s in doc.sections)
    assert "]>" not in text and "ENTITY" not in text and '"' not in text
    assert text == "The Quay\n\nNets were mended on the quay."
