"""Hybrid retrieval: dense (FAISS) and keyword (FTS5 BM25) candidates, fused, neighbours merged."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from desktop_rag.engine.embedding import Embedder
from desktop_rag.engine.fusion import fuse
from desktop_rag.engine.store import Store
from desktop_rag.engine.types import Hit
from desktop_rag.engine.vector_index import VectorIndex

MIN_CANDIDATES = 100  # fusion normalises over the lists: ~100 deep measured best (fusion.py)


def dense_candidates(
    query: str, embedder: Embedder, vectors: VectorIndex, limit: int, min_score: float
) -> list[tuple[int, float]]:
    """Nearest chunks by cosine similarity, under-threshold scores dropped."""
    if vectors.size == 0:
        return []
    query_vector = embedder.embed([query])[0]
    return [(cid, score) for cid, score in vectors.search(query_vector, limit) if score >= min_score]


def hybrid_search(
    query: str,
    k: int,
    store: Store,
    embedder: Callable[[], Embedder] | None,
    vectors: Callable[[], VectorIndex] | None,
    min_score: float = 0.0,
) -> list[Hit]:
    """The top `k` passages for a query. Without an embedder (or vectors) it is keyword-only."""
    limit = max(k, MIN_CANDIDATES)
    keyword = store.keyword_search(query, limit)
    dense: list[tuple[int, float]] = []
    languages = None
    if embedder is not None and vectors is not None:
        model = embedder()
        languages = model.languages
        dense = dense_candidates(query, model, vectors(), limit, min_score)
    fused = fuse(dense, keyword, limit, query=query, dense_languages=languages)
    return merge_neighbours(store.hits_for(fused))[:k]


def merge_neighbours(hits: Sequence[Hit]) -> list[Hit]:
    """Merge hits that are overlapping or adjacent chunks of one file into the better-ranked hit."""
    merged: list[Hit] = []
    for hit in hits:
        for i, kept in enumerate(merged):
            if kept.file_id == hit.file_id and abs(kept.ordinal - hit.ordinal) == 1 and _touching(kept, hit):
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
    )
