"""Hybrid retrieval: each signal's candidates (signals.py: dense, keyword, the dictionary gloss), fused, neighbours
merged."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from desktop_rag.engine.models.embedding import Embedder
from desktop_rag.engine.search import signals
from desktop_rag.engine.search.question import Question, Version, plain
from desktop_rag.engine.search.signals import dense_candidates
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.library import Store, VectorSearch
from desktop_rag.engine.store.values import Hit
from desktop_rag.engine.text.language import text_languages

MIN_CANDIDATES = 100  # fusion normalises over the lists: ~100 deep measured best (fusion.py)
MAX_MERGED_CHUNKS = 3  # a merged passage stays a passage: a long run of matching chunks is not one whole document

DensePair = tuple[Embedder, VectorSearch]  # one model's embedder and vectors, taken together (the runtime's)
DenseSource = Callable[[], DensePair]


def dense_search(text: str, k: int, store: Store, dense_source: DenseSource, min_score: float = 0.0,
                 within: Restriction | None = None) -> list[Hit]:
    """The top `k` passages for `text` by meaning alone (the vectors; neighbours merged), within a restriction:
    `desktop-rag eval`'s "dense" mode."""
    embedder, vectors = dense_source()
    found = dense_candidates(Version.of(text), embedder, vectors, k, min_score, store, within)
    return merge_neighbours(store.hits_for(found))[:k]


def hybrid_search(
    question: Question | str,
    k: int,
    store: Store,
    dense_source: DenseSource | None,
    min_score: float = 0.0,
    collection: int | None = None,
    within: Restriction | None = None,
) -> list[Hit]:
    """The top `k` passages for a question (search/question.py: with its translations into the library's other
    languages and its glosses; a plain string is searched as asked), within a restriction (collection, folders,
    file types) or one collection (its id) or all (None). Without a dense source (no vectors yet) it is
    keyword-only."""
    limit = max(k, MIN_CANDIDATES)
    asked = plain(question) if isinstance(question, str) else question
    return merge_neighbours(ranked_candidates(asked, limit, store, dense_source, min_score, collection, within))[:k]


def ranked_candidates(
    question: Question, limit: int, store: Store, dense_source: DenseSource | None, min_score: float = 0.0,
    collection: int | None = None, within: Restriction | None = None,
) -> list[Hit]:
    """Up to `limit` fused candidates, best first, before neighbours are merged (within the restriction, or
    `collection`, if given: the keyword search joins on the chunks' files, the dense search filters inside the
    backend's index, `VectorSearch.nearest`).

    Translations add their keyword matches (and their dense neighbours) as evidence in their own
    language: a passage in a language the question was translated into is no longer "other language".
    The question's glosses into a language no translation covers add their keyword matches as evidence
    for the passages in that language.
    """
    search = signals.Search(question, store, _restriction(collection, within), limit,
                            dense_source() if dense_source is not None else None, min_score)
    found = signals.found(search)
    candidates = {h.chunk_id: h for h in store.hits_for([c for scored in found.values() for c in scored])}
    written = {cid: frozenset(text_languages(hit.text)) for cid, hit in candidates.items()}
    asked = question.languages
    other = frozenset(cid for cid, langs in written.items() if asked and langs and not langs & asked)
    pool = signals.Pool(question, found, search.languages, candidates, written, other)
    return [_rescored(candidates[cid], score) for cid, score in signals.fused(pool, limit) if cid in candidates]


def _restriction(collection: int | None, within: Restriction | None) -> Restriction | None:
    """One restriction from the two ways of giving it (None: the whole library)."""
    if collection is not None:
        within = dataclasses.replace(within, collection=collection) if within else Restriction(collection)
    return None if within is None or within.everything else within


def _rescored(hit: Hit, score: float) -> Hit:
    return dataclasses.replace(hit, score=float(score))


def merge_neighbours(hits: Sequence[Hit]) -> list[Hit]:
    """Merge hits that are overlapping or adjacent chunks of one file into the better-ranked hit.

    A merged passage covers a run of chunk ordinals (it keeps the lowest as its own), so a chunk next to
    either end of the run joins it too, and a chunk between two kept passages bridges them into one, up to
    MAX_MERGED_CHUNKS chunks (past that a neighbour stays a passage of its own).
    """
    merged: list[Hit] = []
    spans: list[tuple[int, int]] = []  # the ordinals each kept passage covers
    for hit in hits:
        span = (hit.ordinal, hit.ordinal)
        i = _neighbour(merged, spans, hit, span)
        if i is None:
            merged.append(hit)
            spans.append(span)
            continue
        merged[i], spans[i] = _join(merged[i], hit), _union(spans[i], span)
        while (j := _neighbour(merged, spans, merged[i], spans[i], skip=i)) is not None:
            keep, drop = min(i, j), max(i, j)  # the better-ranked passage keeps its id, score and place
            merged[keep], spans[keep] = _join(merged[keep], merged[drop]), _union(spans[keep], spans[drop])
            del merged[drop], spans[drop]
            i = keep
    return merged


def _neighbour(kept: Sequence[Hit], spans: Sequence[tuple[int, int]], hit: Hit, span: tuple[int, int],
               skip: int = -1) -> int | None:
    """The first kept passage that `hit` (covering the ordinals `span`) continues, or None."""
    for i, (other, (low, high)) in enumerate(zip(kept, spans)):
        if (i != skip and other.file_id == hit.file_id and low - 1 <= span[1] and span[0] <= high + 1
                and max(high, span[1]) - min(low, span[0]) < MAX_MERGED_CHUNKS
                and other.page == hit.page and _touching(other, hit)):  # never across pages
            return i
    return None


def _union(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return min(a[0], b[0]), max(a[1], b[1])


def _touching(a: Hit, b: Hit) -> bool:
    first, second = (a, b) if a.char_start <= b.char_start else (b, a)
    return second.char_start <= first.char_end + 2


def _join(kept: Hit, other: Hit) -> Hit:
    """One passage covering both; keeps the better hit's id, score and heading."""
    first, second = (kept, other) if kept.char_start <= other.char_start else (other, kept)
    overlap = first.char_end - second.char_start
    if second.char_end <= first.char_end:  # already inside the first
        text, end = first.text, first.char_end
    elif overlap >= 0:
        text, end = first.text + second.text[overlap:], second.char_end
    else:
        text, end = first.text + "\n\n" + second.text, second.char_end
    return Hit(
        kept.chunk_id, kept.score, kept.path, first.page if first.page is not None else second.page,
        kept.heading, text, kept.file_id, min(first.ordinal, second.ordinal), first.char_start, end,
        first.ocr or second.ocr,
    )
