"""A summary without a language model: the document's most central sentences, in reading order.

Central: closest to the document's mean vector by the library's embedding model (the mean of its chunks'
stored vectors, else of the sentences'). Every top-level part (a first-level heading; without headings, a
section) gives its best sentence, then the best of the rest fill the length: one sentence in 12, 3 to 30 (more
only when there are more parts). A long document's sentences are first narrowed to those of its most central
chunks (at most MAX_EMBEDDED sentences are embedded), so the cost is bounded whatever its length.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from desktop_rag.engine.answer.compression import sentence_spans
from desktop_rag.engine.answer.summary_sections import DocSection, top_heading
from desktop_rag.engine.text.terms import has_han

MAX_EMBEDDED = 400
MAX_SENTENCES = 30
_MIN_CHARS = 20  # a shorter sentence (a label, a heading) is a candidate only when nothing longer is
_MIN_CJK_CHARS = 8

Embed = Callable[[list[str]], np.ndarray]  # texts -> one vector per row (passages)
Stored = Callable[[list[int]], dict[int, np.ndarray]]  # chunk ids -> their stored vectors (those that have one)


@dataclass(frozen=True)
class _Sentence:
    section: int  # its section's number
    chunk: int  # its chunk's index in the document
    part: str  # its top-level part
    start: int  # where it starts in the section's text
    text: str


def extractive_summary(sections: Sequence[DocSection], embed: Embed, stored: Stored | None = None,
                       ) -> list[tuple[int, str]]:
    """(section number, sentence) of the summary, in reading order."""
    chunks = [c for s in sections for c in s.chunks]
    candidates = _sentences(sections)
    if not candidates:
        return []
    parts = list(dict.fromkeys(s.part for s in candidates))
    length = max(min(MAX_SENTENCES, max(3, math.ceil(len(candidates) / 12))), len(parts))
    chunk_vectors = _chunk_vectors(chunks, embed, stored)
    centre = _normalised(chunk_vectors.mean(axis=0)) if chunk_vectors is not None else None
    if len(candidates) > MAX_EMBEDDED:
        candidates = _narrowed(candidates, chunk_vectors, centre, parts)
    vectors = np.vstack([_normalised_rows(embed([s.text for s in candidates[i:i + 64]]))
                         for i in range(0, len(candidates), 64)])
    centre = centre if centre is not None else _normalised(vectors.mean(axis=0))
    scores = vectors @ centre
    chosen: set[int] = set()
    for part in parts:  # every top-level part speaks
        members = [i for i, s in enumerate(candidates) if s.part == part]
        if members:
            chosen.add(max(members, key=lambda i: scores[i]))
    for i in np.argsort(-scores, kind="stable"):
        if len(chosen) >= length:
            break
        chosen.add(int(i))
    picked = sorted(chosen, key=lambda i: (candidates[i].section, candidates[i].start))
    return [(candidates[i].section, candidates[i].text) for i in picked]


def _sentences(sections: Sequence[DocSection]) -> list[_Sentence]:
    """Every sentence of the document with its section, chunk and part; very short ones only if nothing else."""
    out: list[_Sentence] = []
    first_chunk = 0
    for section in sections:
        starts = _chunk_starts(section)
        for start, end in sentence_spans(section.text):
            text = " ".join(section.text[start:end].split())
            local = max(i for i, s in enumerate(starts) if s <= start) if starts and start >= starts[0] else 0
            chunk = section.chunks[local]
            part = top_heading(chunk) or f"section {section.number}"
            out.append(_Sentence(section.number, first_chunk + local, part, start, text))
        first_chunk += len(section.chunks)
    long_enough = [s for s in out if len(s.text) >= (_MIN_CJK_CHARS if has_han(s.text) else _MIN_CHARS)]
    return long_enough or out


def _chunk_starts(section: DocSection) -> list[int]:
    """Where each chunk's new text starts in the section's text (the joining of document.stored.joined)."""
    starts, at, end = [], 0, None
    for chunk in section.chunks:
        if end is not None and chunk.char_start < end:
            starts.append(at)
            at += len(chunk.text) - min(end - chunk.char_start, len(chunk.text))
        else:
            at += 2 if starts else 0
            starts.append(at)
            at += len(chunk.text)
        end = max(end or 0, chunk.char_end)
    return starts


def _chunk_vectors(chunks, embed: Embed, stored: Stored | None) -> np.ndarray | None:
    """The chunks' vectors (stored ones; the rest embedded when few), normalised; None when too many are missing."""
    found = stored([c.chunk_id for c in chunks]) if stored is not None else {}
    missing = [c for c in chunks if c.chunk_id not in found]
    if len(missing) > MAX_EMBEDDED:
        return None
    if missing:
        for chunk, vector in zip(missing, _normalised_rows(embed([c.text for c in missing])), strict=True):
            found[chunk.chunk_id] = vector
    return _normalised_rows(np.vstack([found[c.chunk_id] for c in chunks]).astype(np.float32))


def _narrowed(candidates: list[_Sentence], chunk_vectors: np.ndarray | None, centre: np.ndarray | None,
              parts: list[str]) -> list[_Sentence]:
    """The sentences of the most central chunks (each part's best chunk first), at most MAX_EMBEDDED; evenly
    spread over the document when the chunks have no vectors."""
    if chunk_vectors is None or centre is None:
        step = len(candidates) / MAX_EMBEDDED
        return [candidates[int(i * step)] for i in range(MAX_EMBEDDED)]
    scores = chunk_vectors @ centre
    by_chunk: dict[int, list[_Sentence]] = {}
    for sentence in candidates:
        by_chunk.setdefault(sentence.chunk, []).append(sentence)
    order = [max((c for c in by_chunk if by_chunk[c][0].part == part), key=lambda c: scores[c]) for part in parts]
    order += [int(c) for c in np.argsort(-scores, kind="stable") if int(c) in by_chunk]
    kept: list[_Sentence] = []
    for chunk in dict.fromkeys(order):
        if len(kept) + len(by_chunk[chunk]) > MAX_EMBEDDED and kept:
            continue
        kept.extend(by_chunk[chunk])
    return sorted(kept, key=lambda s: (s.section, s.start))


def _normalised(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


def _normalised_rows(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)
