"""OpenDocument text (.odt): headings, paragraphs, lists and tables of content.xml, in document order.

content.xml is read through loaders/zip_guard.py (declared sizes checked first) and parsed by defusedxml (no
entities, no network). odfpy is not used to read: it is LGPL (GPL in part of its history; the bundle ships no
GPL code) and builds a Python object per node; one pass over the standard library's element tree is enough.
The walk is iterative, so a deeply nested document cannot exhaust the stack. Tracked deletions, comments and
the styles/settings parts are not text of the document and are not read.
"""

from __future__ import annotations

from pathlib import Path
from xml.etree.ElementTree import Element

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.ingest.loaders import LoadContext
from desktop_rag.engine.ingest.loaders.blocks import TABLE, Block, blocks_to_sections, table_chars
from desktop_rag.engine.ingest.loaders.safe_xml import parse_xml
from desktop_rag.engine.ingest.loaders.zip_guard import open_zip, read_member
from desktop_rag.engine.ingest.documents import ParsedDocument

MAX_CONTENT_BYTES = 192 << 20  # content.xml unpacked

_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_SKIP = frozenset({
    f"{_TEXT}tracked-changes", f"{_OFFICE}annotation", f"{_OFFICE}annotation-end", f"{_TEXT}note-citation",
    f"{_TEXT}sequence-decls", f"{_TEXT}variable-decls", f"{_TEXT}user-field-decls", f"{_OFFICE}forms",
    f"{_TABLE}covered-table-cell",
})
_BLOCKS = frozenset({f"{_TEXT}p", f"{_TEXT}h"})


def _inline(element: Element) -> str:
    """The text of a paragraph or heading: spans, links, spaces (text:s), tabs and line breaks; notes inline."""
    out: list[str] = []
    stack: list[Element | str] = [element]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        tag = item.tag
        if item is not element:
            if tag == f"{_TEXT}s":
                count = item.get(f"{_TEXT}c", "1")
                out.append(" " * (min(int(count), 100) if count.isdigit() else 1))
            elif tag == f"{_TEXT}tab":
                out.append("\t")
            elif tag == f"{_TEXT}line-break":
                out.append("\n")
            if item.tail:
                stack.append(item.tail)
            if tag in _SKIP:
                continue
        children = list(item)
        stack.extend(reversed(children))
        if item.text:
            stack.append(item.text)
    return "".join(out)


def _table(table: Element) -> list[list[str]]:
    """A table's rows (the first is the header), each cell's paragraphs on one line."""
    rows = []
    for row in table.iter(f"{_TABLE}table-row"):
        cells = []
        for cell in row:
            if cell.tag != f"{_TABLE}table-cell":
                continue
            repeat = cell.get(f"{_TABLE}number-columns-repeated", "1")
            text = " ".join(" ".join(_inline(p).split()) for p in cell.iter() if p.tag in _BLOCKS)
            cells.extend([text] * (min(int(repeat), 50) if repeat.isdigit() and text else 1))
        while cells and not cells[-1]:
            cells.pop()  # trailing empty cells a spreadsheet-like table repeats
        if any(cells):
            rows.append(cells)
    return rows


def _blocks(body: Element) -> list[Block]:
    """Headings, paragraphs and tables in document order (loaders/blocks.py)."""
    blocks: list[Block] = []
    stack = list(reversed(list(body)))
    while stack:
        element = stack.pop()
        tag = element.tag
        if tag in _SKIP:
            continue
        if tag == f"{_TEXT}h":
            level = element.get(f"{_TEXT}outline-level", "1")
            text = " ".join(_inline(element).split())
            if text:
                blocks.append((min(int(level), 9) if level.isdigit() and int(level) > 0 else 1, text))
        elif tag == f"{_TEXT}p":
            if text := _inline(element).strip():
                blocks.append((None, text))
        elif tag == f"{_TABLE}table":
            if rows := _table(element):
                blocks.append((TABLE, rows))
        else:  # lists, sections, frames, text boxes: containers of blocks
            stack.extend(reversed(list(element)))
    return blocks


def load_odt(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load an .odt: headings become the heading path, tables Markdown row groups with the header repeated."""
    with open_zip(path, not_zip="not_odt") as zf:
        if "content.xml" not in zf.namelist():
            raise LoadError.coded("odt_no_content")
        root = parse_xml(read_member(zf, "content.xml", MAX_CONTENT_BYTES), Phrase("phrase.odt_content"))
    body = root.find(f"{_OFFICE}body")
    text = body.find(f"{_OFFICE}text") if body is not None else None
    if text is None:
        raise LoadError.coded("odt_not_text")
    sections = blocks_to_sections(_blocks(text), max_table_chars=table_chars(context))
    if not sections:
        raise LoadError.coded("odt_no_text")
    return ParsedDocument(sections=tuple(sections))
