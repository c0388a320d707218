"""Hybrid retrieval: dense (FAISS) and keyword (FTS5 BM25) candidates, fused, neighbours merged."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from desktop_rag.engine.collections import member_filter
from desktop_rag.engine.embedding import Embedder
from desktop_rag.engine.fusion import dense_weight, fuse
from desktop_rag.engine.keyword import query_terms, term_coverage
from desktop_rag.engine.language import text_languages
from desktop_rag.engine.store import Store
from desktop_rag.engine.types import Hit
from desktop_rag.engine.vector_index import VectorIndex

MIN_CANDIDATES = 100  # fusion normalises over the lists: ~100 deep measured best (fusion.py)

DenseSource = Callable[[], tuple[Embedder, VectorIndex]]


def dense_candidates(
    query: str, embedder: Embedder, vectors: VectorIndex, limit: int, min_score: float, selector=None
) -> list[tuple[int, float]]:
    """Nearest chunks by cosine similarity, under-threshold scores dropped (among `selector`'s ids if given)."""
    if vectors.size == 0:
        return []
    query_vector = embedder.embed_queries([query])[0]
    return [(cid, score) for cid, score in vectors.search(query_vector, limit, selector) if score >= min_score]


def hybrid_search(
    query: str,
    k: int,
    store: Store,
    dense_source: DenseSource | None,
    min_score: float = 0.0,
    translations: Sequence[str] = (),
    collection: int | None = None,
) -> list[Hit]:
    """The top `k` passages for a query (and its translations into the library's other languages), within
    one collection (its id) or all (None). Without a dense source (no vectors yet) it is keyword-only."""
    limit = max(k, MIN_CANDIDATES)
    return merge_neighbours(
        ranked_candidates(query, limit, store, dense_source, min_score, translations, collection))[:k]


def ranked_candidates(
    query: str, limit: int, store: Store, dense_source: DenseSource | None, min_score: float = 0.0,
    translations: Sequence[str] = (), collection: int | None = None,
) -> list[Hit]:
    """Up to `limit` fused candidates, best first, before neighbours are merged (within `collection` if given:
    the keyword search joins on it, the dense search filters inside FAISS with the collection's ids).

    Translations add their keyword matches (and their dense neighbours) as evidence in their own
    language: a passage in a language the question was translated into is no longer "other language".
    """
    queries = [query, *translations]
    keyword = _best_of([_normalised(store.keyword_search(q, limit, collection)) for q in queries])
    dense: list[tuple[int, float]] = []
    languages: frozenset[str] | None = None
    if dense_source is not None:
        embedder, vectors = dense_source()
        languages = embedder.languages
        members, selector = (0, None) if collection is None else member_filter(store, collection)
        if collection is None or members:
            dense = _best_of([dense_candidates(q, embedder, vectors, limit, min_score, selector) for q in queries])
    candidates = {h.chunk_id: h for h in store.hits_for(dense + keyword)}
    asked = set().union(*(text_languages(q) for q in queries))
    other = [cid for cid, hit in candidates.items()
             if asked and (langs := text_languages(hit.text)) and not langs & asked]
    scale = None
    if other and languages is None:
        terms = [query_terms(q) for q in queries]
        scale = {cid: max(term_coverage(t, f"{hit.heading}\n{hit.text}") for t in terms)
                 for cid, hit in candidates.items()}
    weights = None
    if translations:  # each passage is weighed by the version of the question in its own language
        by_language = {lang: q for q in reversed(queries) for lang in text_languages(q)}
        weights = {cid: dense_weight(by_language.get(next(iter(langs)), query), languages)
                   for cid, hit in candidates.items() if len(langs := text_languages(hit.text)) == 1}
    fused = fuse(dense, keyword, limit, query=query, dense_languages=languages, other_language=other,
                 keyword_scale=scale, dense_weights=weights)
    return [_rescored(candidates[cid], score) for cid, score in fused if cid in candidates]


def _normalised(hits: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """Best-first scores scaled to the list's best (so lists of several queries can be compared)."""
    if not hits:
        return []
    top = max(score for _, score in hits)
    return [(cid, score / top if top > 0 else 0.0) for cid, score in hits]


def _best_of(lists: Sequence[list[tuple[int, float]]]) -> list[tuple[int, float]]:
    """One best-first list from several: each chunk at its best score."""
    if len(lists) == 1:
        return lists[0]
    best: dict[int, float] = {}
    for hits in lists:
        for cid, score in hits:
            if score > best.get(cid, float("-inf")):
                best[cid] = score
    return sorted(best.items(), key=lambda item: -item[1])


def _rescored(hit: Hit, score: float) -> Hit:
    return dataclasses.replace(hit, score=float(score))


def merge_neighbours(hits: Sequence[Hit]) -> list[Hit]:
    """Merge hits that are overlapping or adjacent chunks of one file into the better-ranked hit."""
    merged: list[Hit] = []
    for hit in hits:
        for i, kept in enumerate(merged):
            if (kept.file_id == hit.file_id and abs(kept.ordinal - hit.ordinal) == 1 and kept.page == hit.page
                    and _touching(kept, hit)):  # never across pages: a passage keeps the page it is on
                merged[i] = _join(kept, hit)
                break
        else:
            merged.append(hit)
    return merged


def _touching(a: Hit, b: Hit) -> bool:
    first, second = (a, b) if a.char_start <= b.char_start else (b, a)
    return second.char_start <= first.char_end + 2


def _join(kept: Hit, other: Hit) -> Hit:
    """One passage covering both chunks; keeps the better hit's id and score."""
    first, second = (kept, other) if kept.char_start <= other.char_start else (other, kept)
    overlap = first.char_end - second.char_start
    if overlap >= 0:
        text = first.text + second.text[overlap:]
    else:
        text = first.text + "\n\n" + second.text
    return Hit(
        kept.chunk_id, kept.score, kept.path, first.page if first.page is not None else second.page,
        kept.heading, text, kept.file_id, min(first.ordinal, second.ordinal), first.char_start, second.char_end,
        first.ocr or second.ocr,
    )
