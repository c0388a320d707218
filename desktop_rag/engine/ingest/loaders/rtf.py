"""Rich Text Format (.rtf): the text of the document, its code page honoured (Chinese \\ansicpg936, \\uN).

striprtf (BSD-3-Clause, pure Python) skips destinations that are not text (fonts, styles, pictures, fields'
instructions) and decodes \\'hh by the declared code page and font charsets. It reads about 2 MB/s, so the
hexadecimal runs of embedded pictures (most of a large .rtf) are removed before it sees them: no prose is
1,000 hexadecimal digits long. Its group stack is a list, so deep nesting cannot exhaust Python's stack.
RTF has no dependable headings, so the paragraphs are one section; a table (striprtf ends each cell with "|" and
each row with a line break: two such lines or more in a row) becomes Markdown row groups with its header
repeated (loaders/blocks.py), as a .docx table does.
"""

from __future__ import annotations

import re
from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders import LoadContext
from desktop_rag.engine.ingest.loaders.blocks import TABLE, Block, blocks_to_sections, table_chars
from desktop_rag.engine.ingest.documents import ParsedDocument

_HEX_RUN = re.compile(rb"[0-9a-fA-F\r\n]{1000,}")
_CODE_PAGE = re.compile(rb"\\ansicpg(\d{3,5})")


def _source_text(data: bytes) -> str:
    """The RTF source as text: 7-bit as it should be, else raw 8-bit bytes in the declared code page."""
    from desktop_rag.engine.ingest.loaders.text import decode_bytes

    if data.isascii():
        return data.decode("ascii")
    match = _CODE_PAGE.search(data[:4096])
    if match:
        try:
            return data.decode(f"cp{int(match.group(1))}")
        except (LookupError, UnicodeDecodeError):
            pass
    return decode_bytes(data)[0]


def _blocks(text: str) -> list[Block]:
    """Paragraphs, one a line, and tables: runs of at least two lines of cells each ended by "|"."""
    blocks: list[Block] = []
    run: list[str] = []

    def flush() -> None:
        if len(run) > 1:
            blocks.append((TABLE, [line[:-1].split("|") for line in run]))
        else:
            blocks.extend((None, line) for line in run)
        run.clear()

    for line in text.replace("\r\n", "\n").split("\n"):
        line = line.strip()
        if line.endswith("|"):
            run.append(line)
            continue
        flush()
        if line:
            blocks.append((None, line))
    flush()
    return blocks


def load_rtf(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load an .rtf file: its paragraphs as one section, its tables as row groups with the header."""
    from striprtf.striprtf import rtf_to_text

    data = path.read_bytes()
    if not data.lstrip().startswith(b"{\\rtf"):
        raise LoadError.coded("not_rtf")
    text = rtf_to_text(_source_text(_HEX_RUN.sub(b"", data)), errors="ignore")
    sections = blocks_to_sections(_blocks(text), max_table_chars=table_chars(context))
    if not sections:
        raise LoadError.coded("rtf_no_text")
    return ParsedDocument(sections=tuple(sections))
