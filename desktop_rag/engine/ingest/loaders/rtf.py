"""Rich Text Format (.rtf): the text of the document, its code page honoured (Chinese \\ansicpg936, \\uN).

striprtf (BSD-3-Clause, pure Python) skips destinations that are not text (fonts, styles, pictures, fields'
instructions) and decodes \\'hh by the declared code page and font charsets. It reads about 2 MB/s, so the
hexadecimal runs of embedded pictures (most of a large .rtf) are removed before it sees them: no prose is
1,000 hexadecimal digits long. Its group stack is a list, so deep nesting cannot exhaust Python's stack.
RTF has no dependable headings, so the document is one section of paragraphs.
"""

from __future__ import annotations

import re
from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders import LoadContext
from desktop_rag.engine.ingest.cleaning import normalize_text
from desktop_rag.engine.types import ParsedDocument, Section

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


def load_rtf(path: Path, _context: LoadContext | None = None) -> ParsedDocument:
    """Load an .rtf file as one section."""
    from striprtf.striprtf import rtf_to_text

    data = path.read_bytes()
    if not data.lstrip().startswith(b"{\\rtf"):
        raise LoadError.coded("not_rtf")
    text = rtf_to_text(_source_text(_HEX_RUN.sub(b"", data)), errors="ignore")
    body = normalize_text(text.replace("\r\n", "\n").replace("\n", "\n\n"))
    if not body:
        raise LoadError.coded("rtf_no_text")
    return ParsedDocument(sections=(Section(text=body),))
