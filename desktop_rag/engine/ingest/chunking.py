"""Structure-aware recursive splitting of parsed documents into overlapping chunks."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from desktop_rag.engine.ingest.documents import ParsedDocument, Section
from desktop_rag.engine.store.values import ChunkDraft, OcrLine

SECTION_JOINER = "\n\n"

# Split points in order of preference; a piece ends right after a match.
_SEPARATORS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\n[ \t]*\n\s*"),  # paragraph
    re.compile(r"\n"),  # line
    re.compile(r"[.!?]+[\"')\]”’]*[ \t]+|[。！？；…]+[”’」』）)]*\s*"),  # sentence
    re.compile(r"[,;:][ \t]+|[，、；：]"),  # clause
    re.compile(r"[ \t]+"),  # word
)
_CHAR_LEVEL = len(_SEPARATORS)
# Where an overlap may start: after a sentence end, else after a space (CJK: anywhere).
_OVERLAP_SENTENCE = re.compile(r"[.!?][\"')\]”’]*\s+|[。！？；]\s*|\n\s*")
_OVERLAP_WORD = re.compile(r"\s+")

Piece = tuple[int, int, int]  # start, end, level of the split that ended the piece


def _split(text: str, start: int, end: int, size: int, level: int, end_level: int, out: list[Piece]) -> None:
    """Append pieces of text[start:end], each at most `size` long, to `out`.

    `end_level` is the strength of the boundary at `end` (0 = paragraph).
    """
    if end - start <= size:
        out.append((start, end, end_level))
        return
    if level >= _CHAR_LEVEL:
        for s in range(start, end, size):
            out.append((s, min(s + size, end), _CHAR_LEVEL if s + size < end else end_level))
        return
    prev = start
    for m in _SEPARATORS[level].finditer(text, start, end):
        cut = m.end()
        if cut <= prev or cut >= end:
            continue
        _split(text, prev, cut, size, level + 1, level, out)
        prev = cut
    if prev == start:
        _split(text, start, end, size, level + 1, end_level, out)
    else:
        _split(text, prev, end, size, level + 1, end_level, out)


def _pack(pieces: list[Piece], size: int) -> list[tuple[int, int]]:
    """Merge consecutive pieces into spans of at most `size`, preferring strong boundaries."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(pieces)
    while i < n:
        start = pieces[i][0]
        j = i
        best_j, best_level = i, pieces[i][2]
        while j + 1 < n and pieces[j + 1][1] - start <= size:
            j += 1
            # cutting after a stronger boundary in the second half of the chunk reads better
            if pieces[j][1] - start >= size // 2 and pieces[j][2] <= best_level:
                best_j, best_level = j, pieces[j][2]
        if j + 1 < n and pieces[j][2] > best_level and pieces[best_j][1] - start >= size // 2:
            j = best_j
        spans.append((start, pieces[j][1]))
        i = j + 1
    return spans


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink a span to exclude leading and trailing whitespace."""
    piece = text[start:end]
    lead = len(piece) - len(piece.lstrip())
    trail = len(piece) - len(piece.rstrip())
    return start + lead, end - trail


def _overlap_start(text: str, lower: int, core: int, overlap: int) -> int:
    """Where the chunk starting at `core` should begin to repeat ~`overlap` chars before it."""
    if overlap <= 0 or core <= lower:
        return core
    lo = max(lower, core - overlap)
    for pattern in (_OVERLAP_SENTENCE, _OVERLAP_WORD):
        m = pattern.search(text, lo, core)
        if m and m.end() < core:
            return m.end()
    if text[lo:core].isascii():  # no boundary in a run of Latin text: repeat nothing
        return core
    return lo


def split_text(text: str, size: int = 500, overlap: int = 50) -> list[tuple[int, int]]:
    """Spans (start, end) of non-blank chunks of `text`, each at most size + overlap long."""
    if size <= 0 or overlap < 0 or overlap >= size:
        raise ValueError("chunk size must be positive and overlap smaller than the size")
    pieces: list[Piece] = []
    _split(text, 0, len(text), size, 0, 0, pieces)
    spans: list[tuple[int, int]] = []
    prev_start = 0
    for start, end in _pack(pieces, size):
        start, end = _strip(text, start, end)
        if start >= end:
            continue
        if spans:
            start, _ = _strip(text, _overlap_start(text, prev_start, start, overlap), end)
        spans.append((start, end))
        prev_start = start
    return spans


def _heading(section: Section) -> str:
    return " > ".join(section.heading_path)


def chunk_document(doc: ParsedDocument, size: int = 500, overlap: int = 50) -> list[ChunkDraft]:
    """Chunk each section separately; offsets index the sections joined with blank lines."""
    chunks: list[ChunkDraft] = []
    for section, base in _at(doc):
        text = section.text
        heading = _heading(section)
        spans = [(0, len(text))] if section.whole and text.strip() else split_text(text, size, overlap)
        for start, end in spans:
            chunks.append(
                ChunkDraft(
                    ordinal=len(chunks),
                    text=text[start:end],
                    page=section.page,
                    heading=heading,
                    char_start=base + start,
                    char_end=base + end,
                    ocr=section.ocr,
                )
            )
    return chunks


def _at(doc: ParsedDocument) -> Iterator[tuple[Section, int]]:
    """Each section with where its text starts in the document text."""
    base = 0
    for section in doc.sections:
        yield section, base
        base += len(section.text) + len(SECTION_JOINER)


def document_lines(doc: ParsedDocument) -> list[OcrLine]:
    """The sections' recognised boxes (a scanned page's), their offsets into the document text as chunks' are."""
    return [replace(line, start=base + line.start, end=base + line.end) for section, base in _at(doc)
            for line in section.lines]


def document_text(doc: ParsedDocument) -> str:
    """The text that chunk offsets index: sections joined with a blank line."""
    return SECTION_JOINER.join(s.text for s in doc.sections)
