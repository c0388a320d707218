"""The review log as one object, `engine.review` (in the manner of Anki's `col.decks`): grades, marked passages,
signals, the statistics, the spot check, the export, the user's own test set measured (issue 39).

It holds no state: the library is the calling thread's store, what is loaded the runtime's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from desktop_rag.engine.answer.events import AnswerEvent
from desktop_rag.engine.review import evaluation, grading, recording
from desktop_rag.engine.review.reports import EvalReport, ReviewStats
from desktop_rag.engine.runtime import Runtime
from desktop_rag.engine.store import grades
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.values import LoggedAnswer


class Review:
    """Grading, signals, the review statistics and `evaluate`, as the front ends call them."""

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime

    def set_grade(self, answer_id: int, grade: str | None) -> None:
        """Grade a logged answer: one of GRADES ("right", "partly", "wrong", "refused"), None: ungraded."""
        grading.set_grade(self._runtime.store, answer_id, grade)

    def mark_passage(self, answer_id: int, chunk_id: int | None, right: bool | None = True) -> None:
        """Mark a source of an answer right (one per answer) or wrong (`right` False), or unmark it (None);
        `chunk_id` None: "none of them was right" (with `right` None: take that back)."""
        grading.mark_passage(self._runtime.store, answer_id, chunk_id, right)

    def record_source_opened(self, answer_id: int, chunk_id: int | None = None) -> bool:
        """The user opened a cited source of this answer in the viewer (the "opened" signal)."""
        return grading.record_source_opened(self._runtime.store, answer_id, chunk_id)

    def logged_answers(self, answer_ids: Sequence[int] = (), conversation_id: int | None = None) -> list[LoggedAnswer]:
        """The review log's answers with these ids, or of a conversation (oldest first)."""
        return grading.logged_answers(self._runtime.store, answer_ids, conversation_id)

    def stats(self) -> ReviewStats:
        """Grade counts, labelled questions and the two signals' counts, overall and by week."""
        return grading.stats(self._runtime.store)

    def spot_check(self, n: int = 50) -> list[LoggedAnswer]:
        """Up to `n` random recent ungraded answers (with answer text and sources)."""
        return grading.spot_check(self._runtime.store, n)

    def export(self, path: str | Path) -> int:
        """Write the graded or marked answers to `path` as JSONL; how many."""
        return grading.export(self._runtime.store, path)

    def forget(self) -> int:
        """Take back every grade and marked passage (`desktop-rag forget-grades`); how many answers had one."""
        with self._runtime.store.transaction() as db:
            return grades.forget(db)

    def keep_graded(self, conversation_id: int) -> None:
        """Detach a conversation's graded answers from it, so that deleting the conversation keeps them."""
        with self._runtime.store.transaction() as db:
            grades.detach_graded(db, conversation_id)

    def evaluate(self, collection: int | None = None, queries: str | Path | None = None,
                 qrels: str | Path | None = None, progress: Callable[[int, int], None] | None = None,
                 cancel: threading.Event | None = None) -> EvalReport:
        """The labelled questions (the answers with a marked right passage, or the BEIR `queries` + `qrels` files)
        against the library now: recall@5, precision@5, nDCG@10 per retrieval mode."""
        return evaluation.run(self._runtime, collection, queries, qrels, progress, cancel)

    def recorded(self, answerer, events: Iterable[AnswerEvent], question: str, within: Restriction,
                 conversation_id: int | None, placed: Callable) -> Iterator[AnswerEvent]:
        """An answer's events, logged as they are given (its DoneEvent gets its `answer_id`), its passages where
        `placed` finds them at the save."""
        return recording.recorded(self._runtime, answerer, events, question, within, conversation_id, placed)
