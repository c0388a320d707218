"""Feedback rules, a step of an answer's search after fusion (issue 39; `Settings.feedback` turns them off), keyed
on the normalised question (text/questions.py):

- a passage marked wrong for a question is not given to the model for it again (so never cited for it): every
  hit that contains a chunk marked wrong is dropped, in any scope;
- the passage marked right for a question is ranked first when the same question is asked again in the same
  scope: moved to the top, or added at the top when the search no longer finds it — only while its text is the
  one marked and it still lies inside that scope (issue 49: a file moved to another folder or collection, or
  renamed to another type, takes its passage out of the scope it was marked in).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from desktop_rag.engine.store.passages import marked_right, marked_wrong
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import Hit
from desktop_rag.engine.text.questions import normalised_question


def apply(store: Store, question: str, hits: Sequence[Hit], within: Restriction) -> list[Hit]:
    """The hits with the rules applied (the same length at most, or one passage when none was found)."""
    normalised = normalised_question(question)
    result = list(hits)
    wrong = marked_wrong(store, normalised)
    if wrong:
        result = [h for h in result if not any(_contains(h, c) for c in wrong)]
    right = marked_right(store, normalised, within)
    if right is None:
        return result
    at = next((i for i, h in enumerate(result) if _contains(h, right)), None)
    if at is not None:
        return [result[at], *result[:at], *result[at + 1:]]
    top = result[0].score if result else 1.0
    return [dataclasses.replace(right, score=top), *result[:max(len(result) - 1, 0)]]


def _contains(hit: Hit, chunk: Hit) -> bool:
    """The hit is the chunk, or a merged passage that holds all of it."""
    return hit.chunk_id == chunk.chunk_id or (
        hit.file_id == chunk.file_id and hit.char_start <= chunk.char_start and chunk.char_end <= hit.char_end)
