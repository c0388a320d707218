"""Feedback rules on an answer's passages (issue 39; `Settings.feedback` turns them off), keyed on the normalised
question (text/questions.py):

- a passage marked wrong for a question is not given to the model for it again (so never cited for it): every
  hit that contains a chunk marked wrong is dropped;
- the passage marked right for a question is ranked first when the same question is asked again in the same
  scope: moved to the top, or added at the top when the search no longer finds it (only while its text is the
  one marked: a changed or removed chunk has no effect).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from desktop_rag.engine.search.searching import SearchHits
from desktop_rag.engine.store import grades
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.text.questions import normalised_question
from desktop_rag.engine.types import Hit


def applied(store: Store, question: str, hits: SearchHits, within: Restriction) -> SearchHits:
    """An answer's search hits after the rules (`apply`), keeping what the search said of itself."""
    return SearchHits(apply(store, question, hits, within), hits.keyword_only, hits.translations)


def apply(store: Store, question: str, hits: Sequence[Hit], within: Restriction) -> list[Hit]:
    """The hits with the rules applied (the same length at most, or one passage when none was found)."""
    normalised = normalised_question(question)
    result = list(hits)
    wrong = store.hits_for([(cid, 0.0) for cid in sorted(grades.wrong_chunks(store.db, normalised))])
    if wrong:
        result = [h for h in result if not any(_contains(h, c) for c in wrong)]
    marked = grades.right_chunk(store.db, normalised, grades.scope_key(within))
    found = store.hits_for([(marked[0], 0.0)]) if marked else []
    if not found or grades.text_hash(found[0].text) != marked[1]:
        return result
    right = found[0]
    at = next((i for i, h in enumerate(result) if _contains(h, right)), None)
    if at is not None:
        return [result[at], *result[:at], *result[at + 1:]]
    top = result[0].score if result else 1.0
    return [dataclasses.replace(right, score=top), *result[:max(len(result) - 1, 0)]]


def _contains(hit: Hit, chunk: Hit) -> bool:
    """The hit is the chunk, or a merged passage that holds all of it."""
    return hit.chunk_id == chunk.chunk_id or (
        hit.file_id == chunk.file_id and hit.char_start <= chunk.char_start and chunk.char_end <= hit.char_end)
