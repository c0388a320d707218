"""Plain text and Markdown loader with encoding detection (BOM, UTF-8, UTF-16, GB18030, cp1252)."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.cleaning import clean_text
from desktop_rag.engine.ingest.documents import ParsedDocument, Section

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_TEXT_CONTROLS = b"\t\n\r\x0c\x1b"
_BINARY_BYTES = bytes(b for b in range(32) if b not in _TEXT_CONTROLS) + b"\x7f"
_SAMPLE = 1 << 16
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```+|~~~+)")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# Anything but ASCII text, CJK ideographs/punctuation, full-width forms and common typography.
_IMPLAUSIBLE = re.compile(
    r"[^\t\n\r\x0c\x20-\x7e\u00b7\u2010-\u2027\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]"
)
_IDEOGRAPH = re.compile(r"[\u4e00-\u9fff]")
_BAD_CHARS = re.compile(r"[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f\ufffd]")



def _plausible_ratio(text: str) -> float:
    """Share of characters in a sample that look like ordinary English/Chinese text."""
    sample = text[:_SAMPLE]
    if not sample:
        return 0.0
    return 1.0 - len(_IMPLAUSIBLE.findall(sample)) / len(sample)


def _looks_binary(data: bytes) -> bool:
    """NUL bytes or many control bytes in the first 64 KiB."""
    sample = data[:_SAMPLE]
    if b"\x00" in sample:
        return True
    controls = len(sample) - len(sample.translate(None, _BINARY_BYTES))
    return controls > max(2, len(sample) // 50)


def _mostly_ideographs(text: str) -> bool:
    """True when at least half of a sample are CJK ideographs."""
    sample = text[:_SAMPLE]
    return bool(sample) and len(_IDEOGRAPH.findall(sample)) >= 0.5 * len(sample)


def _utf16_without_bom(data: bytes) -> str | None:
    """Decode UTF-16 without a BOM when NUL-byte patterns or the result make it plausible."""
    if len(data) < 4 or len(data) % 2:
        return None
    sample = data[: _SAMPLE & ~1]
    even_nuls, odd_nuls = sample[0::2].count(0), sample[1::2].count(0)
    half = len(sample) // 2
    if odd_nuls > 0.3 * half and even_nuls < 0.05 * half:
        candidates = ["utf-16-le"]
    elif even_nuls > 0.3 * half and odd_nuls < 0.05 * half:
        candidates = ["utf-16-be"]
    elif not even_nuls and not odd_nuls:
        candidates = ["utf-16-le", "utf-16-be"]  # e.g. one line of CJK: no NUL bytes at all
    else:
        return None
    for codec in candidates:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if _plausible_ratio(text) >= 0.95 and (even_nuls or odd_nuls or _mostly_ideographs(text)):
            return text
    return None


def _gb18030(data: bytes) -> str | None:
    """Decode GB18030/GBK when most non-ASCII characters are common (GB2312) Chinese."""
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        return None
    wide = [ch for ch in text[:_SAMPLE] if ord(ch) > 127][:5000]
    if not wide:
        return text
    common = 0
    for ch in wide:
        try:
            ch.encode("gb2312")
            common += 1
        except UnicodeEncodeError:
            pass
    return text if common / len(wide) >= 0.8 and _plausible_ratio(text) >= 0.9 else None


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Return (text, encoding name) or raise LoadError for binary data."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return _checked(data[len(bom):].decode(codec, errors="replace"), codec)
    if b"\x00" in data[:_SAMPLE]:
        text = _utf16_without_bom(data)  # ASCII-heavy UTF-16 has NUL bytes in a pattern
        if text is not None:
            return _checked(text, "utf-16")
    if _looks_binary(data):
        raise LoadError.coded("binary_text")
    try:
        return _checked(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    text = _utf16_without_bom(data)
    if text is not None:
        return _checked(text, "utf-16")
    text = _gb18030(data)
    if text is not None:
        return _checked(text, "gb18030")
    try:
        return _checked(data.decode("cp1252"), "cp1252")
    except UnicodeDecodeError:
        return _checked(data.decode("latin-1"), "latin-1")


def _checked(text: str, codec: str) -> tuple[str, str]:
    """Reject decoded text that is mostly control or replacement characters."""
    sample = text[:_SAMPLE]
    bad = len(_BAD_CHARS.findall(sample))
    if sample and bad > max(2, len(sample) // 20):
        raise LoadError.coded("binary_text")
    return text, codec


def read_text_file(path: Path) -> str:
    """Read and decode a text file; LoadError when empty or binary."""
    data = path.read_bytes()
    if not data:
        raise LoadError.coded("file_empty")
    text, _ = decode_bytes(data)
    return text


def _heading(lines: list[str], i: int) -> tuple[int, str] | None:
    """(level, title) when line i is an ATX heading or the text line of a setext heading."""
    m = _ATX.match(lines[i])
    if m:
        title = (m.group(2) or "").strip()
        return (len(m.group(1)), title) if title else None
    if i + 1 < len(lines) and lines[i].strip() and (i == 0 or not lines[i - 1].strip()):
        s = _SETEXT.match(lines[i + 1])
        first = lines[i].lstrip()[:1]
        if s and first not in "-*+>|#" and not _SETEXT.match(lines[i]):
            return (1 if s.group(1)[0] == "=" else 2), lines[i].strip()
    return None


def split_markdown(text: str) -> list[tuple[tuple[str, ...], str]]:
    """Split Markdown into (heading path, raw text) blocks at ATX/setext headings outside code."""
    lines = text.split("\n")
    blocks: list[tuple[tuple[str, ...], str]] = []
    stack: list[tuple[int, str]] = []
    current: list[str] = []
    in_fence, skip = False, False
    for i, line in enumerate(lines):
        if skip:  # the underline of a setext heading
            skip = False
            continue
        if _FENCE.match(line):
            in_fence = not in_fence
        found = None if in_fence else _heading(lines, i)
        if found is None:
            current.append(line)
            continue
        blocks.append((tuple(t for _, t in stack), "\n".join(current)))
        level, title = found
        skip = not _ATX.match(line)
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        current = [title, ""]
    blocks.append((tuple(t for _, t in stack), "\n".join(current)))
    return blocks


def _markdown_sections(text: str) -> list[Section]:
    """Sections of a Markdown document; heading-only blocks are dropped (their path lives on), unless the document
    is nothing but headings (a title, an outline): then they are its text."""
    sections, titles = [], []
    for path, raw in split_markdown(text):
        body = clean_text(raw)
        if body and (not path or body != path[-1]):
            sections.append(Section(text=body, heading_path=path))
        elif body:
            titles.append(body)
    return sections or ([Section(text="\n".join(titles))] if titles else [])


MAX_TITLE_CHARS = 200


def _title_of(body: str) -> tuple[str, ...]:
    """A plain-text document's title: a lone first line, set off by a blank line, before longer text.

    It becomes the heading of every chunk, so each passage carries the document's subject
    (for keyword and semantic search alike); the line also stays in the text.
    """
    first, sep, rest = body.partition("\n\n")
    if not sep or "\n" in first or len(first) > MAX_TITLE_CHARS or len(rest) <= len(first):
        return ()
    return (first.strip(),)


def load_text(path: Path, _context: object = None) -> ParsedDocument:
    """Load a plain-text file (.txt): cleaned, its lone first line as every chunk's heading."""
    body = clean_text(read_text_file(path))
    return _document([Section(text=body, heading_path=_title_of(body))] if body else [])


def load_markdown(path: Path, _context: object = None) -> ParsedDocument:
    """Load a Markdown file (.md, .markdown): a section per heading."""
    text = read_text_file(path)
    return _document(_markdown_sections(text.replace("\r\n", "\n").replace("\r", "\n")))


def _document(sections: list[Section]) -> ParsedDocument:
    if not sections:
        raise LoadError.coded("no_text_left")
    return ParsedDocument(sections=tuple(sections))
