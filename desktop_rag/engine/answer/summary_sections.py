"""A document as a summary reads it: its chunks in reading order, their text without the chunking overlap, and
its sections, numbered [n]: runs of chunks that one model request can hold.

A section ends before a chunk that starts a new top-level heading, or whose text hash says so, once the section
holds half its target; it always ends before it would pass the target. So the cuts follow the content, not the
count from the start: an edit early in a document moves the cuts only up to the next content-chosen one, and the
later sections keep their text (and their stored summaries: answer/summarising.py).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from desktop_rag.engine.document.stored import joined
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.models.tokens import count_tokens
from desktop_rag.engine.paths import normalise_path
from desktop_rag.engine.store import passages
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import Hit
from desktop_rag.engine.system_errors import foreign_reason

_CUT_EVERY = 4  # a chunk whose text hash is divisible by this may start a section (on average every 4th)
MAX_CHUNKS = 20_000  # a document longer than this (about 10 M characters) is summarised from its first chunks


@dataclass(frozen=True)
class DocSection:
    """Section `number` (1-based) of a document: its chunks in order, their joined text and its tokens."""

    number: int
    chunks: tuple[Hit, ...]
    text: str
    tokens: int

    @property
    def key(self) -> str:
        """A hash of the chunks' text (not their ids, which a re-index renews)."""
        return hashlib.sha256(json.dumps([c.text for c in self.chunks], ensure_ascii=False).encode()).hexdigest()

    def hit(self) -> Hit:
        """The section as one passage (its first chunk's id and place), for sources, citations and the viewer."""
        first, last = self.chunks[0], self.chunks[-1]
        return Hit(first.chunk_id, 1.0, first.path, first.page, first.heading, self.text, first.file_id,
                   first.ordinal, first.char_start, last.char_end, any(c.ocr for c in self.chunks))


def document_chunks(store: Store, path: str) -> list[Hit]:
    """The chunks of the library's file at `path` in reading order (UsageError if it is not one, or has none)."""
    try:
        path = normalise_path(path)
    except (OSError, ValueError) as exc:
        raise UsageError.coded("bad_file_path", path=_shown(path), detail=foreign_reason(exc)) from exc
    record = store.file_by_path(path)
    if record is None:
        raise UsageError.coded("not_in_library", path=_shown(path))
    rows = passages.file_chunks(store, record.id, MAX_CHUNKS)
    if not rows:
        if record.error:
            raise UsageError.coded("nothing_to_summarise_because", path=_shown(path), why=record.error)
        raise UsageError.coded("nothing_to_summarise", path=_shown(path))
    return [Hit(r[0], 1.0, path, r[1], r[2], r[3], record.id, r[4], r[5], r[6], bool(r[7])) for r in rows]


def top_heading(hit: Hit) -> str:
    """The first level of a chunk's heading path ("" without one)."""
    return hit.heading.split(" > ", 1)[0].strip()


def sections(chunks: Sequence[Hit], target_tokens: int,
             count: Callable[[str], int] = count_tokens) -> list[DocSection]:
    """The document's sections of at most about `target_tokens` each (a single longer chunk stays whole)."""
    groups: list[list[Hit]] = []
    size = 0
    for chunk in chunks:
        tokens = count(chunk.text)
        if groups and groups[-1]:
            previous = groups[-1][-1]
            content_cut = top_heading(chunk) != top_heading(previous) or _hash(chunk.text) % _CUT_EVERY == 0
            if size + tokens > target_tokens or (size >= target_tokens // 2 and content_cut):
                groups.append([])
                size = 0
        if not groups:
            groups.append([])
        groups[-1].append(chunk)
        size += tokens
    out = []
    for n, group in enumerate(groups, 1):
        text = joined(group)
        out.append(DocSection(n, tuple(group), text, count(text)))
    return out


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "big")


def _shown(text: str) -> str:
    return "".join(ch if ch.isprintable() else "?" for ch in text)[:300]
