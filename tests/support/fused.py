"""Fusion as search runs it, over candidate lists a test gives: the shipped signals (search/signals.py) summed by
fusion (tests/engine/test_fusion.py, test_fusion_rules.py)."""

from __future__ import annotations

from desktop_rag.engine.search import signals
from desktop_rag.engine.search.question import plain


def fused(dense, keyword, k, *, query="", dense_languages=None, other_language=(), glossed=(), question=None,
          hits=None, written=None) -> list[tuple[int, float]]:
    """The shipped signals over given candidate lists: dense (cosines), keyword (BM25), the gloss's keyword scores
    (`glossed`), for `query` (or `question`, with its translations) and a model covering `dense_languages`."""
    found = {"dense": list(dense), "keyword": list(keyword), "gloss": list(dict(glossed).items())}
    pool = signals.Pool(question or plain(query), found, dense_languages, hits or {}, written or {},
                        frozenset(other_language))
    return signals.fused(pool, k)
