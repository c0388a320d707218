"""The facade's review-log methods (issue 39): grades, signals, the user's own test set.

`Engine` inherits them; they reach the library only through `self.store` (the calling thread's connection).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from desktop_rag.engine.review import evaluation, grading
from desktop_rag.engine.store import grades


class ReviewMethods:
    """Grading, signals, the review statistics and `evaluate`, as the front ends call them on `Engine`."""

    store: object  # the Engine's per-thread store

    def set_grade(self, answer_id: int, grade: str | None) -> None:
        """Grade a logged answer: one of types.GRADES ("right", "partly", "wrong", "refused"), None: ungraded."""
        grading.set_grade(self.store, answer_id, grade)

    def mark_passage(self, answer_id: int, chunk_id: int | None, right: bool | None = True) -> None:
        """Mark a source of an answer right (one per answer) or wrong (`right` False), or unmark it (None);
        `chunk_id` None: "none of them was right" (with `right` None: take that back)."""
        grading.mark_passage(self.store, answer_id, chunk_id, right)

    def record_source_opened(self, answer_id: int, chunk_id: int | None = None) -> bool:
        """The user opened a cited source of this answer in the viewer (the "opened" signal)."""
        return grading.record_source_opened(self.store, answer_id, chunk_id)

    def logged_answers(self, answer_ids: Sequence[int] = (), conversation_id: int | None = None) -> list:
        """The review log's answers (types.LoggedAnswer) with these ids, or of a conversation (oldest first)."""
        ids = list(answer_ids) or (grades.conversation_answer_ids(self.store.db, conversation_id)
                                   if conversation_id is not None else [])
        return grades.answers(self.store.db, ids)

    def review_stats(self):
        """Grade counts, labelled questions and the two signals' counts, overall and by week (types.ReviewStats)."""
        return grading.stats(self.store)

    def spot_check(self, n: int = 50) -> list:
        """Up to `n` random recent ungraded answers (types.LoggedAnswer, with answer text and sources)."""
        return grading.spot_check(self.store, n)

    def export_grades(self, path: str | Path) -> int:
        """Write the graded or marked answers to `path` as JSONL; how many."""
        return grading.export(self.store, path)

    def forget_grades(self) -> int:
        """Take back every grade and marked passage (`desktop-rag forget-grades`); how many answers had one."""
        with self.store.transaction() as db:
            return grades.forget(db)

    def evaluate(self, collection: int | None = None, queries: str | Path | None = None,
                 qrels: str | Path | None = None, progress: Callable[[int, int], None] | None = None,
                 cancel: threading.Event | None = None):
        """The labelled questions (the answers with a marked right passage, or the BEIR `queries` + `qrels` files)
        against the library now: recall@5, precision@5, nDCG@10 per retrieval mode (types.EvalReport)."""
        return evaluation.run(self, collection, queries, qrels, progress, cancel)

    def _keep_graded(self, conversation_id: int) -> None:
        """Detach a conversation's graded answers from it so that deleting it keeps them."""
        with self.store.transaction() as db:
            grades.detach_graded(db, conversation_id)
