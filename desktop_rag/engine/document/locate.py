"""Re-locate a cited passage in its file's current text: changed-since-indexing check, page and character range."""

from __future__ import annotations

import contextlib
import os
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.file_types import PAGES, is_recognised, view_of
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.ingest.chunking import document_text
from desktop_rag.engine.ingest.documents import ParsedDocument
from desktop_rag.engine.ingest.loaders.blocks import TABLE_CHARS
from desktop_rag.engine.ingest.scanning import file_sha256
from desktop_rag.engine.paths import attachment_part
from desktop_rag.engine.store.values import Hit, OcrLine, nul_replaced
from desktop_rag.engine.text.caseless import caseless_find, caseless_fold

if TYPE_CHECKING:
    from desktop_rag.engine.document.pdf_child import PdfPages, RemotePdf

ANCHOR_KEYS = 24  # when the whole passage does not match, its first and last this many letters may
SEARCH_SECONDS = 5.0  # a passage not on its cited page is searched for outwards this long (100k pages: 7 s+)
MAX_STRETCH = 1.5  # ... and the span between them may be at most this much longer than the passage

# file states (STORED: not on this computer; the text is the library's stored text, document/stored.py)
UNCHANGED, CHANGED, MISSING, UNKNOWN, STORED = "unchanged", "changed", "missing", "unknown", "stored"
# how the passage was found (RECOGNISED: on a scanned page, by the lines OCR read there when it was indexed)
EXACT, MATCHED, PARTIAL, NOT_FOUND, RECOGNISED = "exact", "matched", "partial", "not_found", "recognised"

# reads a document again: (the file, the e-mail attachment's part in it or "") -> its document (reread.Rereader.read)
Reader = Callable[[str, str], ParsedDocument]


@dataclass(frozen=True)
class IndexedFile:
    """What the store recorded about a file when it was indexed (files table)."""

    size: int
    mtime_ns: int
    sha256: str


@dataclass(frozen=True)
class Carrier:
    """The file a cited document sits inside (the message of an e-mail attachment), as the store recorded it."""

    path: str
    indexed: IndexedFile | None

    def part(self, path: str) -> str:
        """Where the attachment at `path` sits in this file (AttachedDocument.part)."""
        return attachment_part(self.path, path)


@dataclass(frozen=True)
class Location:
    """Where a passage is in the file as it is now.

    PDFs: `page` is 1-based, start/end index the page's PDFium text, `rects` are the highlight
    (display points, top-left origin). Text documents: start/end index `text`, the document text.
    """

    path: str
    kind: str  # how the viewer shows the file (file_types.view_of): PAGES (drawn pages) | TEXT
    file_state: str  # UNCHANGED | CHANGED | MISSING | UNKNOWN
    match: str  # EXACT | MATCHED | PARTIAL | NOT_FOUND
    page: int | None = None
    start: int = 0
    end: int = 0
    rects: tuple[tuple[float, float, float, float], ...] = ()
    page_count: int = 0
    text: str = ""
    error: Reason = Reason()  # the file could not be read: why (shown through `errors.error_text`)
    passage: str = ""  # the stored passage text, shown beside the page when it is not matched
    focus: tuple[tuple[int, int], ...] = ()  # the hit's focus (sentences quoted or sent) as start/end like `start`/`end`
    focus_rects: tuple[tuple[float, float, float, float], ...] = ()  # PDFs: the focus spans' rectangles
    carrier: str = ""  # an attachment: the file it sits in (what the default app opens, what is indexed again)
    # the file's text was recognised from pictures (OCR): nothing was read here, the passage is shown in the text the
    # library stored (`document.stored`), with this file state
    from_library: bool = False
    # the file as it is now could not be read (why: a time-out, the memory cap, a damaged file): the text is the
    # library's stored text instead
    unread: Reason = Reason()
    # the cited passage is no longer in the library: its file was indexed again without it since the answer (an
    # unchanged passage moves to a new chunk and is not this; `Engine.held_passages`)
    outdated: bool = False

    @property
    def found(self) -> bool:
        return self.match != NOT_FOUND


# ---- changed since indexing ----


def file_state(path: str | Path, indexed: IndexedFile | None) -> str:
    """UNCHANGED when size and mtime match the store (or the content hash does), else CHANGED/MISSING/UNKNOWN."""
    try:
        st = os.stat(path)
    except OSError:
        return MISSING
    if indexed is None:
        return UNKNOWN
    if st.st_size == indexed.size and st.st_mtime_ns == indexed.mtime_ns:
        return UNCHANGED
    if st.st_size != indexed.size or not indexed.sha256:
        return CHANGED
    try:
        return UNCHANGED if file_sha256(str(path)) == indexed.sha256 else CHANGED
    except OSError:
        return MISSING


# ---- whitespace- and punctuation-insensitive matching ----


def keyed(text: str) -> tuple[str, list[int]]:
    """Letters and digits of `text`, NFKC-folded and case-folded, with each one's index in `text`.

    Whitespace, punctuation and hyphens drop out, so a passage cleaned at indexing time (lines
    joined, "exam-ple" -> "example", ligatures expanded) still matches the raw text.
    """
    keys: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(text):
        if ch.isascii():
            if ch.isalnum():
                keys.append(ch.lower())
                index.append(i)
            continue
        for c in unicodedata.normalize("NFKC", ch).casefold():
            if c.isalnum():
                keys.append(c)
                index.append(i)
    return "".join(keys), index


def _nearest(haystack: str, needle: str, near: int) -> int:
    """The occurrence of needle in haystack that starts nearest to `near`; -1 when none."""
    best, pos = -1, haystack.find(needle)
    while pos >= 0:
        if best < 0 or abs(pos - near) < abs(best - near):
            best = pos
        if pos > near:
            break
        pos = haystack.find(needle, pos + 1)
    return best


def find_passage(text: str, passage: str, near: int = 0,
                 keys: tuple[str, list[int]] | None = None) -> tuple[int, int, str] | None:
    """(start, end, how) of `passage` in `text`: exact, else keyed (whitespace-insensitive), else by its ends.

    `keys` is `keyed(text)` when the caller already has it (several passages looked for in one long text)."""
    if not passage.strip():
        return None
    pos = _nearest(text, passage, near)
    if pos >= 0:
        return pos, pos + len(passage), EXACT
    key, index = keys or keyed(text)
    needle, _ = keyed(passage)
    if not needle or not key:
        return None
    near_key = next((k for k, i in enumerate(index) if i >= near), 0) if near else 0
    pos = _nearest(key, needle, near_key)
    if pos >= 0:
        return (*_widen(text, passage, index[pos], index[pos + len(needle) - 1] + 1), MATCHED)
    found = _by_anchors(key, index, needle, near_key)
    return (*_widen(text, passage, found[0], found[1]), PARTIAL) if found else None


def _widen(text: str, passage: str, start: int, end: int) -> tuple[int, int]:
    """Take in the passage's leading and trailing punctuation (a keyed match spans letters and digits only)."""
    stripped = passage.strip()
    lead = len(stripped) - len(stripped.lstrip("".join(c for c in stripped[:8] if not c.isalnum())))
    trail = len(stripped) - len(stripped.rstrip("".join(c for c in stripped[-8:] if not c.isalnum())))
    for ch in reversed(stripped[:lead]):
        if start == 0 or text[start - 1] != ch:
            break
        start -= 1
    for ch in stripped[len(stripped) - trail:] if trail else "":
        if end >= len(text) or text[end] != ch:
            break
        end += 1
    return start, end


def _by_anchors(key: str, index: list[int], needle: str, near_key: int) -> tuple[int, int] | None:
    """Match the passage's first and last letters when its middle differs (a figure, a dropped line)."""
    if len(needle) < 3 * ANCHOR_KEYS:
        return None
    head, tail = needle[:ANCHOR_KEYS], needle[-ANCHOR_KEYS:]
    start = _nearest(key, head, near_key)
    if start < 0:
        return None
    limit = start + int(len(needle) * MAX_STRETCH)
    end = key.find(tail, start + ANCHOR_KEYS, limit)
    if end < 0:
        return None
    return index[start], index[end + ANCHOR_KEYS - 1] + 1


def is_verbatim(sentence: str, source: str) -> bool:
    """True when `sentence` occurs in `source` up to whitespace (line breaks joined; an extractive quote must)."""
    if sentence in source:
        return True
    return "".join(sentence.split()) in "".join(source.split())


# ---- locating ----


def locate(hit: Hit, indexed: IndexedFile | None, *, max_bytes: int = 0, pdf=None,
           table_chars: int = TABLE_CHARS, carrier: Carrier | None = None, read: Reader | None = None,
           pages: PdfPages | None = None, lines: Sequence[OcrLine] = ()) -> Location:
    """Find `hit`'s passage in its file as it is now (PDF: page and rects; others: document text offsets); a file
    whose text was recognised from pictures is not read (`Location.from_library`: the caller shows the stored text).

    `pdf` is an open PdfFile of hit.path to search (the viewer keeps it open to render pages). `table_chars` is
    the library's chunk size: tables are re-read in the row groups they were indexed in. `carrier`: hit.path is
    an attachment inside that file (an e-mail), read from it; whether it changed is the carrier's state. `read`
    reads a text document (the viewer's parser child, `reread.Rereader`); without it, a parser child started for
    this call (an e-mail's attached PDFs are read with its body). `pages`
    opens a PDF not given (the viewer's PDFium child, `pdf_child.PdfPages`); without it, a PDFium child started
    for this call: PDFium never parses a document in the caller's process. `lines`: the recognised lines of a
    passage of a scanned page (`Engine.recognised_lines`), highlighted while the file is as it was indexed.
    """
    state = file_state(carrier.path, carrier.indexed) if carrier else file_state(hit.path, indexed)
    kind = view_of(hit.path)
    base = Location(hit.path, kind, state, NOT_FOUND, page=hit.page, passage=hit.text,
                    carrier=carrier.path if carrier else "")
    if state == MISSING:
        return _replace(base, error=Reason.coded("view_vanished"))
    if is_recognised(hit.path):  # recognising it again would take minutes and gigabytes: the library's text
        return _replace(base, from_library=True)
    try:
        if kind == PAGES:
            return locate_in_pdf(hit, base, pdf, carrier, max_bytes, pages=pages,
                                 lines=lines if state == UNCHANGED else ())
        with contextlib.ExitStack() as own:
            read = read or _reader_in_a_child(own, max_bytes, table_chars)
            return _locate_in_text(hit, base, read(carrier.path if carrier else hit.path,
                                                   carrier.part(hit.path) if carrier else ""))
    except LoadError as exc:
        return _replace(base, error=Reason.of(exc))


def open_pdf(path: str, carrier: Carrier | None, max_bytes: int, pages: PdfPages) -> RemotePdf:
    """The PDF at `path`, or the attachment at `path` read from `carrier` (at most `max_bytes`) into memory, open in
    `pages`, a PDFium child process (a hostile page fails there, `view_page_failed`, never in this process)."""
    if carrier is None:
        return pages.open(path)
    from desktop_rag.engine.ingest.loaders.email import attachment_bytes

    return pages.open(path, data=attachment_bytes(Path(carrier.path), carrier.part(path), max_bytes))


def _replace(location: Location, **changes) -> Location:
    from dataclasses import replace

    return replace(location, **changes)


def _reader_in_a_child(own: contextlib.ExitStack, max_bytes: int, table_chars: int) -> Reader:
    """Reads a document as the viewer does (`reread.Rereader`: a parser child, its caps, no OCR) in a child started
    for this call, ended with `own`."""
    from desktop_rag.engine.document.reread import Rereader

    return own.enter_context(contextlib.closing(Rereader(max_bytes=max_bytes, table_chars=table_chars))).read


def _locate_in_text(hit: Hit, base: Location, document: ParsedDocument) -> Location:
    """The passage in the document's text: the stored offsets first (the text there as the library may store it:
    PostgreSQL's NUL as U+FFFD), then a search."""
    text = document_text(document)
    span = text[hit.char_start:hit.char_end]
    if hit.char_end > hit.char_start and hit.text in (span, nul_replaced(span)):
        start, end, how = hit.char_start, hit.char_end, EXACT
    elif (found := find_passage(text, hit.text, hit.char_start)) is not None:
        start, end, how = found
    else:
        return _replace(base, text=text)
    return _replace(base, match=how, start=start, end=end, text=text, focus=focus_in(text, start, end, hit))


def focus_in(text: str, start: int, end: int, hit: Hit) -> tuple[tuple[int, int], ...]:
    """The hit's focus spans (offsets into hit.text) as offsets into `text`, whose [start:end] is the passage
    found; a span that cannot be found there is left out."""
    region = text[start:end]
    spans = []
    for a, b in hit.focus:
        found = find_passage(region, hit.text[a:b], a) if 0 <= a < b <= len(hit.text) else None
        if found is not None:
            spans.append((start + found[0], start + found[1]))
    return tuple(spans)


def page_order(cited: int | None, count: int) -> list[int]:
    """0-based pages to search: the cited page, then outwards from it."""
    first = min(max((cited or 1) - 1, 0), max(count - 1, 0))
    order = [first]
    for d in range(1, count):
        order += [p for p in (first - d, first + d) if 0 <= p < count]
    return order


def locate_in_pdf(hit: Hit, base: Location, pdf=None, carrier: Carrier | None = None, max_bytes: int = 0,
                  search_seconds: float = SEARCH_SECONDS, pages: PdfPages | None = None,
                  lines: Sequence[OcrLine] = ()) -> Location:
    """The page holding the passage (the cited one first, then outwards for at most `search_seconds`: the next
    passage asked for waits behind it) and the highlight rectangles on it; a passage of a scanned page with its
    recognised `lines`: their rectangles on its page (`RECOGNISED`). A PDF not given is opened in `pages`, else in a
    PDFium child started for this call."""
    with contextlib.ExitStack() as own:
        if pdf is None:
            if pages is None:
                from desktop_rag.engine.document.pdf_child import PdfPages

                pages = own.enter_context(contextlib.closing(PdfPages()))
            pdf = open_pdf(hit.path, carrier, max_bytes, pages)
            own.callback(pdf.close)
        count = pdf.page_count
        if (marked := recognised_rects(hit, lines))["rects"] and 1 <= (hit.page or 0) <= count:
            return _replace(base, match=RECOGNISED, page=hit.page, page_count=count, **marked)
        deadline = time.monotonic() + search_seconds
        for index in page_order(hit.page, count):
            if time.monotonic() > deadline:
                break
            text = pdf.page_text(index)
            found = find_passage(text, hit.text)
            if found is None:
                continue
            start, end, how = found
            rects = tuple(pdf.text_rects(index, start, end))
            focus = focus_in(text, start, end, hit)
            focus_rects = tuple(r for a, b in focus for r in pdf.text_rects(index, a, b))
            return _replace(base, match=how, page=index + 1, start=start, end=end, rects=rects, page_count=count,
                            focus=focus, focus_rects=focus_rects)
        return _replace(base, page_count=count)


def recognised_rects(hit: Hit, lines: Sequence[OcrLine]) -> dict:
    """The rectangles of the lines on `hit`'s page whose characters overlap its passage (`rects`) and its focus
    spans (`focus_rects`); the lines' offsets are the document text's, as the hit's are."""
    def over(start: int, end: int) -> tuple:
        return tuple(line.rect for line in lines if line.page == hit.page and line.start < end and line.end > start)

    focus = tuple((hit.char_start + a, hit.char_start + b) for a, b in hit.focus if 0 <= a < b <= len(hit.text))
    return {"rects": over(hit.char_start, hit.char_end),
            "focus_rects": tuple(r for a, b in focus for r in over(a, b))}


def find_in_pdf(pdf, query: str, page: int, after: int, forward: bool = True):
    """The next (or previous) caseless match of `query` (`text.caseless`) from page `page` (0-based), char `after`.

    Returns (page, start, end, rects) or None; wraps around the document once.
    """
    needle = caseless_fold(query.strip())
    count = pdf.page_count
    if not needle or not count:
        return None
    for step in range(count + 1):
        index = (page + step) % count if forward else (page - step) % count
        text = pdf.page_text(index)
        skip = after + 1 if forward and step == 0 else 0  # the page's text searched: after `after` / before it
        span = caseless_find(text[skip:] if forward or step else text[:max(after, 0)], needle, last=not forward)
        if span is not None:
            start, end = span[0] + skip, span[1] + skip
            return index, start, end, tuple(pdf.text_rects(index, start, end))
    return None
