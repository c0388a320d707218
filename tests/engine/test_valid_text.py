"""Issue 49 item 1: every reader's text passes one boundary (`ingest.valid_text`, on the way out of `loaders.load`)
where UTF-16 surrogates a file smuggled in become valid text, so SQLite never refuses a file's chunks.

Apache Tika's testRTFInvalidUnicode.rtf / testRTFVarious.rtf and pdf.js's bug1997343.pdf stopped whole index runs
with "UnicodeEncodeError: ... surrogates not allowed". The fixtures here are small files of the same kinds, one
per reader family that can hand such text on: RTF `\\uN` escapes, PDFium's character-by-character text (a page
read as a table) and an e-mail body in UTF-7 (whose decoder yields lone surrogates); a registered reader
carries them in a heading, a note and an attachment's name. The other readers cannot return them: .docx, .pptx,
.odt and .xlsx are XML, whose parsers refuse a surrogate character reference; web pages and e-book chapters (and an
e-mail's HTML body) are parsed by Lexbor, which drops them; calamine and the OCR engine return Rust/UTF-8 strings;
plain text is decoded strictly or with replacement; the e-mail library fails on a header that decodes to one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest import loaders
from desktop_rag.engine.ingest.loaders import load
from desktop_rag.engine.ingest.valid_text import valid_document, valid_text
from desktop_rag.engine.ingest.documents import AttachedDocument, ParsedDocument, Section
from tests.support.pdf_build import DEJAVU, embedded_pdf, table_lines

LONE, MATH = "\ufffd", "\U0001d45d"  # what a lone surrogate becomes; MATHEMATICAL ITALIC SMALL P (a pair)
# The boundary is what is tested, not retrieval: the hashing embedder keeps the index run fast.
HASH = Settings(embedding_model="hash:64")


def _surrogates(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def test_pairs_become_their_character_and_lone_surrogates_the_replacement_character() -> None:
    assert valid_text("Let \ud835\udc5d be") == f"Let {MATH} be"
    assert valid_text("hi \ud800 lo \udc00 swapped \udc00\ud800 end\ud835") == (
        f"hi {LONE} lo {LONE} swapped {LONE}{LONE} end{LONE}")
    plain = "nothing to do 没有代理项"
    assert valid_text(plain) is plain


def test_headings_notes_attachment_names_and_their_documents_pass_the_boundary() -> None:
    inner = ParsedDocument(sections=(Section(text="inner \ud800", heading_path=("h\udc00",)),), notes=("n\ud800",))
    doc = ParsedDocument(sections=(Section(text="a \ud835\udc5d", heading_path=("Title \ud800",)),),
                         notes=("left out: sheet \ud800",),
                         attachments=(AttachedDocument("2/name\ud800.txt", 3, "x", inner),))
    valid = valid_document(doc)
    texts = [valid.sections[0].text, *valid.sections[0].heading_path, *valid.notes, valid.attachments[0].part,
             valid.attachments[0].document.sections[0].text, *valid.attachments[0].document.sections[0].heading_path,
             *valid.attachments[0].document.notes]
    assert not any(_surrogates(t) for t in texts)
    assert valid.sections[0].text == f"a {MATH}" and valid.attachments[0].part == f"2/name{LONE}.txt"
    same = ParsedDocument(sections=(Section(text="fine"),))
    assert valid_document(same) is same


# ---- one file per reader family that can return surrogates ----


def _rtf(folder: Path) -> Path:
    path = folder / "unicode.rtf"  # as Tika's testRTFInvalidUnicode.rtf: unpaired, swapped, and a Gothic pair
    path.write_bytes(rb"{\rtf1\ansi\uc1 Unpaired hi \u-10240? here, unpaired lo \u-9216? here, swapped "
                     rb"\u-9216?\u-10240? here.\par Gothic \u-10240?\u-8398? letter ahsa in the rune chapter.\par}")
    return path


def _pdf(folder: Path) -> Path:
    """PDFium gives a page read as a table character by character: x is mapped to a surrogate pair, y to a lone
    high surrogate (bug1997343.pdf has such math letters)."""
    rows = [["Symbol", "Meaning", "Value"]] + [[f"x{i}", f"prime y{i}", str(7 * i)] for i in range(6)]
    placed = table_lines(["Let x be a prime and y a lone unit"], rows, ["The end of the page"], [120, 160, 80])
    path = folder / "math.pdf"
    path.write_bytes(embedded_pdf([placed], DEJAVU, to_unicode=True, size=10, units={"x": "D835DC5D", "y": "D800"}))
    return path


def _eml(folder: Path) -> Path:
    path = folder / "message.eml"
    path.write_bytes(b"Subject: Harbour report\r\nFrom: a@example.com\r\nMIME-Version: 1.0\r\n"
                     b"Content-Type: text/plain; charset=utf-7\r\n\r\n"
                     b"The harbour master +2AA- counted +2DXcXQ- boats.\r\n")
    return path


FAMILIES = {"rtf": _rtf, "pdf": _pdf, "eml": _eml}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_each_reader_family_returns_valid_text(tmp_path: Path, family: str) -> None:
    path = FAMILIES[family](tmp_path)
    raw = loaders.loader_for(path.suffix)(path, loaders.LoadContext())
    assert any(_surrogates(t) for s in raw.sections for t in (s.text, *s.heading_path)), "the fixture lost its point"
    doc = load(path, max_bytes=0)
    assert not any(_surrogates(t) for s in doc.sections for t in (s.text, *s.heading_path))
    assert LONE in "".join(s.text for s in doc.sections)


def _registered(path: Path, _context) -> ParsedDocument:
    """A reader whose heading, note and attachment name carry surrogates."""
    inner = ParsedDocument(sections=(Section(text="An attached note about the \ud800 tide tables."),))
    return ParsedDocument(sections=(Section(text="The tide \ud835\udc5d table for May.", heading_path=("Tides \ud800",)),),
                          notes=("sheet \udc00 was left out",),
                          attachments=(AttachedDocument("1/tides\ud800.txt", 10, "ab" * 32, inner),))


def test_a_folder_of_such_files_is_indexed_and_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for make in FAMILIES.values():
        make(docs)
    (docs / "tides.md").write_text("placeholder", encoding="utf-8")
    monkeypatch.setitem(loaders._LOADERS, ".md", _registered)  # in-process: Markdown is not read in the child
    engine = Engine(resolve_paths(tmp_path / "home"), HASH)
    try:
        report = engine.index([docs])
        assert not report.failed, report.failed
        assert report.added == len(FAMILIES) + 1 and report.attachments == 1
        rows = engine.store.db.execute("SELECT c.text, c.heading, f.path FROM chunks c JOIN files f ON f.id = c.file_id")
        stored = list(rows)
        assert not any(_surrogates(t) for row in stored for t in row)
        assert any(MATH in text for text, _, _ in stored)  # a pair is the character it encodes, not two marks
        assert str(engine.store.file_by_path(str(docs / "tides.md")).error) == f"sheet {LONE} was left out"
        assert any(path.endswith(f"tides.md/1/tides{LONE}.txt") for _, _, path in stored)
        assert engine.search("harbour master counted boats", 3)[0].path == str(docs / "message.eml")
    finally:
        engine.close()
