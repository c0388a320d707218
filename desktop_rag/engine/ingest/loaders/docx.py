"""Word .docx loader (python-docx): paragraphs and tables in document order, headings kept, tables as Markdown; a
table python-docx cannot read is left out, named in the file's note (`left_out`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.ingest.cleaning import normalize_text
from desktop_rag.engine.ingest.loaders import LoadContext
from desktop_rag.engine.ingest.loaders.left_out import LeftOut
from desktop_rag.engine.ingest.loaders.zip_guard import check_office_package
from desktop_rag.engine.ingest.tables import table_sections
from desktop_rag.engine.ingest.documents import ParsedDocument, Section

MAX_UNCOMPRESSED = 512 << 20  # all parts together, unpacked (pictures included)
MAX_XML = 192 << 20  # the XML parts python-docx parses into trees (several times their size in memory)

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_HEADING_STYLE = re.compile(r"^(?:heading|标题)\s*(\d)$", re.IGNORECASE)


def check_zip_safety(path: Path, *, max_total: int = MAX_UNCOMPRESSED, max_xml: int = MAX_XML) -> None:
    """Raise LoadError unless `path` is a zip whose declared sizes pass the zip guard and hold a Word document."""
    check_office_package(path, kind=".docx", what=Phrase("phrase.word_document"), main_part="word/document.xml",
                         not_zip="not_docx", max_total=max_total, max_xml=max_xml)


def _heading_level(paragraph) -> int | None:
    """0 for Title, N for Heading N, None for body text."""
    try:
        name = (paragraph.style.name or "") if paragraph.style is not None else ""
    except (KeyError, AttributeError, ValueError):
        return None
    if name.lower() == "title":
        return 0
    m = _HEADING_STYLE.match(name.strip())
    return int(m.group(1)) if m else None


def _cell_texts(row) -> list[str]:
    """Texts of a row's cells, each merged cell once."""
    texts: list[str] = []
    previous = None
    for cell in row.cells:
        if cell._tc is previous:  # a horizontally merged cell repeats
            continue
        previous = cell._tc
        texts.append(" ".join(normalize_text(cell.text).split("\n")).strip())
    return texts


def _table_rows(table) -> list[list[str]]:
    """The cell texts of a table's rows (the first is taken as its header)."""
    return [_cell_texts(row) for row in table.rows]


Block = tuple[int | None, str, list[list[str]] | None]  # heading level or None, paragraph text, a table's rows


def _blocks(document, left_out: LeftOut) -> Iterator[Block]:
    """Body paragraphs (with their heading level) and tables, in document order; a table python-docx cannot read
    (a malformed merge or span) is left out, named by its number."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    tables = 0

    def walk(parent_element) -> Iterator[Block]:
        nonlocal tables
        for child in parent_element.iterchildren():
            if child.tag == _W + "p":
                para = Paragraph(child, document)
                yield _heading_level(para), normalize_text(para.text), None
            elif child.tag == _W + "tbl":
                tables += 1
                rows = None
                with left_out.part("table", tables):
                    rows = _table_rows(Table(child, document))
                if rows is not None:
                    yield None, "", rows
            elif child.tag == _W + "sdt":  # content controls wrap ordinary blocks
                for content in child.iterchildren(_W + "sdtContent"):
                    yield from walk(content)

    yield from walk(document.element.body)


def _sections(blocks: Iterator[Block], table_chars: int) -> list[Section]:
    """Group blocks into sections; each heading starts one and extends the heading path; each table becomes
    Markdown row groups of its own (`ingest.tables`), so a chunk never holds table rows without their header."""
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []
    parts: list[str] = []
    has_body = False

    def flush() -> None:
        if has_body:
            sections.append(Section(text="\n\n".join(parts), heading_path=tuple(t for _, t in stack)))

    for level, text, rows in blocks:
        if rows is not None:
            flush()
            sections.extend(table_sections(rows, max_chars=table_chars, heading_path=tuple(t for _, t in stack)))
            parts, has_body = [], False
            continue
        if not text.strip():
            continue
        if level is None:
            parts.append(text)
            has_body = True
            continue
        flush()
        title = " ".join(text.split())
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        parts, has_body = [title], False
    flush()
    return sections


def load_docx(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load a .docx after checking that it is a sane zip."""
    check_zip_safety(path)
    import docx

    left_out = LeftOut()
    try:
        document = docx.Document(str(path))
        sections = _sections(_blocks(document, left_out), (context or LoadContext()).table_chars)
    except (OSError, MemoryError):
        raise
    except Exception as exc:  # python-docx/lxml raise many types on broken files
        raise LoadError.coded("docx_damaged") from exc
    if not sections:
        raise LoadError.coded("docx_no_text")
    return ParsedDocument(sections=tuple(sections), notes=left_out.notes())
