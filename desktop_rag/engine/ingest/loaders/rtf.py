"""Rich Text Format (.rtf): the text of the document, its code page honoured (Chinese \\ansicpg936, \\uN).

striprtf (BSD-3-Clause, pure Python) skips destinations that are not text (fonts, styles, pictures, fields'
instructions) and decodes \\'hh by the declared code page and font charsets. It reads about 2 MB/s, so the
hexadecimal runs of embedded pictures (most of a large .rtf) are removed before it sees them: no prose is
1,000 hexadecimal digits long; so are the raw bytes after a \\binN keyword (N bytes of a picture or an object),
whose control bytes would otherwise make the file look like binary data. A \\uN escape outside 16 bits is read
as "?" (striprtf's chr() would overflow). Its group stack is a list, so deep nesting cannot exhaust Python's stack.
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
_BIN = re.compile(rb"\\\\|\\bin(\d{1,10})(?![a-zA-Z]) ?")  # an escaped backslash, or \binN and its space
_UNICODE = re.compile(rb"\\\\|\\u(-?\d{1,12})(\d*)")  # an escaped backslash, or \uN (N's first 12 digits)
_U_LOW, _U_HIGH = -32768, 65535  # \uN is a signed 16-bit value (some writers use 0-65535)


def _without_binary(data: bytes) -> bytes:
    """The RTF without its \\binN keywords' N raw bytes (embedded pictures and objects as binary, not hexadecimal):
    they are no text, and their control bytes would make the file look like binary data."""
    pieces: list[bytes] = []
    at = 0
    while (match := _BIN.search(data, at)) is not None:
        if match.group(1) is None:  # "\\": a backslash in the text, kept with what precedes it
            pieces.append(data[at:match.end()])
            at = match.end()
            continue
        pieces.append(data[at:match.start()])
        at = match.end() + int(match.group(1))
    pieces.append(data[at:])
    return b"".join(pieces)


def _sane_unicode(match: re.Match) -> bytes:
    """\\uN kept when N is a 16-bit value, else "?" (\\u99999999999 made striprtf's chr() overflow)."""
    value = match.group(1)
    if value is None or (not match.group(2) and _U_LOW <= int(value) <= _U_HIGH):
        return match.group(0)
    return b"\\u63"


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
    data = _UNICODE.sub(_sane_unicode, _HEX_RUN.sub(b"", _without_binary(data)))
    text = rtf_to_text(_source_text(data), errors="ignore")
    sections = blocks_to_sections(_blocks(text), max_table_chars=table_chars(context))
    if not sections:
        raise LoadError.coded("rtf_no_text")
    return ParsedDocument(sections=tuple(sections))
