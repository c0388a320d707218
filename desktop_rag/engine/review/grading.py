"""Grading answers and marking passages, the review statistics, the spot-check sample and the JSONL export
(what `Engine.review`'s `set_grade`, `mark_passage`, `stats`, `spot_check`, `export` do)."""

from __future__ import annotations

import dataclasses
import datetime
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from desktop_rag.engine.answer.reasoning import without_thinking
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.review.reports import ReviewStats, ReviewWeek
from desktop_rag.engine.store import grades
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import GRADES, LoggedAnswer
from desktop_rag.engine.system_errors import os_reason

SPOT_POOL = 500  # a spot check samples among this many most recent ungraded answers


def set_grade(store: Store, answer_id: int, grade: str | None) -> None:
    """Grade an answer (one of GRADES; None takes the grade back). UsageError for an unknown grade or answer."""
    if grade is not None and grade not in GRADES:
        raise UsageError.coded("unknown_grade", grade=grade, grades=", ".join(GRADES))
    with store.transaction() as db:
        if not grades.set_grade(db, answer_id, grade):
            raise UsageError.coded("unknown_answer", answer_id=answer_id)


def mark_passage(store: Store, answer_id: int, chunk_id: int | None, right: bool | None = True) -> None:
    """Mark a passage of an answer right (one per answer) or wrong, or unmark it (`right` None); `chunk_id` None:
    "none of them was right" (None again with `right` None takes that back). UsageError for a passage the library
    no longer holds (its file edited or removed since the answer): a mark names a passage as it is now; taking a
    mark back still works."""
    with store.transaction() as db:
        if not grades.exists(db, answer_id):
            raise UsageError.coded("unknown_answer", answer_id=answer_id)
        if chunk_id is None:
            grades.mark_none(db, answer_id, right is not None)
            return
        found = store.hits_for([(chunk_id, 0.0)])
        if not found and right is not None:
            raise UsageError.coded("passage_gone")
        grades.mark(db, answer_id, chunk_id, found[0] if found else None, right)


def record_source_opened(store: Store, answer_id: int, chunk_id: int | None) -> bool:
    """The "opened" signal: the user opened a source of the answer in the viewer; False for an unknown answer."""
    with store.transaction() as db:
        return grades.add_signal(db, answer_id, "opened", chunk_id)


def logged_answers(store: Store, answer_ids: Sequence[int] = (),
                   conversation_id: int | None = None) -> list[LoggedAnswer]:
    """The review log's answers with these ids, or of a conversation (oldest first)."""
    ids = list(answer_ids) or (grades.conversation_answer_ids(store.db, conversation_id)
                               if conversation_id is not None else [])
    return _answers(store, ids)


def stats(store: Store) -> ReviewStats:
    """Grade counts, the labelled questions and the two signals, overall and by week (local time)."""
    rows = grades.week_rows(store.db)
    weeks: dict[str, list] = {}
    for created, grade, opened, reasked in rows:
        day = datetime.date.fromtimestamp(created)
        week = weeks.setdefault((day - datetime.timedelta(days=day.weekday())).isoformat(), [0, 0, 0, Counter()])
        week[0] += 1
        week[1] += int(opened)
        week[2] += int(reasked)
        week[3][grade] += 1
    counts = Counter(grade for _, grade, _, _ in rows)
    return ReviewStats(
        answers=len(rows), grades=tuple((g, counts[g]) for g in GRADES), ungraded=counts[None],
        labelled=grades.labelled_count(store.db), opened=sum(int(r[2]) for r in rows),
        reasked=sum(int(r[3]) for r in rows),
        weeks=tuple(ReviewWeek(w, n, o, r, tuple((g, c[g]) for g in GRADES)) for w, (n, o, r, c) in weeks.items()))


def spot_check(store: Store, n: int = 50, seed: int | None = None) -> list[LoggedAnswer]:
    """Up to `n` random answers among the most recent ungraded ones, newest first."""
    pool = grades.recent_ungraded_ids(store.db, SPOT_POOL)
    chosen = sorted(random.Random(seed).sample(pool, min(n, len(pool))), reverse=True)
    return _answers(store, chosen)


def export(store: Store, path: str | Path) -> int:
    """Write every graded or marked answer as one JSON object a line; how many. UsageError when the file cannot be
    written (a folder, a read-only place), saying why."""
    ids = grades.graded_ids(store.db)
    target = Path(path)
    try:
        _write_export(store, target, ids)
    except OSError as exc:
        raise UsageError.coded("review_export_failed", path=target, detail=os_reason(exc)) from exc
    return len(ids)


def _write_export(store: Store, target: Path, ids: list[int]) -> None:
    with open(target, "w", encoding="utf-8") as out:
        for answer in _answers(store, ids):
            scope, mode, graded_at, settings = grades.settings_of(store.db, answer.id)
            signals = grades.signal_counts(store.db, answer.id)
            out.write(json.dumps({
                "id": answer.id, "question": answer.question, "query": answer.query, "answer": answer.answer,
                "grade": answer.grade, "mode": mode, "model": answer.model, "asked_at": answer.created_at,
                "graded_at": graded_at, "scope": json.loads(scope), "settings": settings,
                "passages": [{"n": n, "chunk_id": h.chunk_id, "path": h.path, "page": h.page, "heading": h.heading}
                             for n, h in enumerate(answer.sources, 1)],
                "right_passage": answer.right_chunk, "none_right": answer.none_right,
                "wrong_passages": list(answer.wrong_chunks),
                "opened": signals.get("opened", 0), "reasked": signals.get("reasked", 0),
            }, ensure_ascii=False) + "\n")


def _answers(store: Store, ids: Sequence[int]) -> list[LoggedAnswer]:
    """The logged answers with these ids; one a model wrote without thinking it holds (logged before that was
    told from the answer: `reasoning.without_thinking`, as the answer cache and a conversation's turns are read)."""
    return [dataclasses.replace(answer, answer=without_thinking(answer.answer)) if answer.mode == "llm" else answer
            for answer in grades.answers(store.db, ids)]
