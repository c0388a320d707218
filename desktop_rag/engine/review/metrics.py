"""Retrieval metrics over ranked ids and a set of relevant ids (binary relevance), shared with bench/."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence


def docs_by_max_score(hits: Iterable[tuple[str, float]]) -> list[str]:
    """Chunk hits (doc id, score) -> doc ids ranked by their best chunk's score."""
    best: dict[str, float] = {}
    for doc, score in hits:
        if doc not in best or score > best[doc]:
            best[doc] = score
    return sorted(best, key=best.__getitem__, reverse=True)


def ndcg_at(ranked: Sequence[str], relevant: set[str], k: int = 10) -> float:
    """Binary-relevance nDCG@k (BEIR/trec_eval convention: gain 1, discount log2(rank + 1))."""
    dcg = sum(1 / math.log2(i + 2) for i, doc in enumerate(ranked[:k]) if doc in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(relevant), k)))
    return dcg / ideal if ideal else 0.0


def recall_at(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    """Share of the relevant ids among the first `k`."""
    return len(set(ranked[:k]) & relevant) / len(relevant) if relevant else 0.0


def precision_at(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    """Share of the first `k` places that hold a relevant id (an empty place counts as not relevant)."""
    return len(set(ranked[:k]) & relevant) / k if k else 0.0
