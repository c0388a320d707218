"""Every answer the app gives goes into the review log (store/grades.py) as it is given: the question, the search
query, the scope, the passages shown (chunk ids and hashes of their text), the model and settings, the answer.
Its DoneEvent then carries the log row's id (`answer_id`) for grading; an ungradable answer (`gradable`) is not
logged and has none, so no grade is offered for it. A question asked again soon after in the
same conversation (rephrased, or "are you sure") is the "reasked" signal on the answer before it."""

from __future__ import annotations

import dataclasses
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator

from desktop_rag.engine.store import grades
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.text.questions import REPHRASED, is_doubt, normalised_question, similarity
from desktop_rag.engine.answer.events import AnswerEvent, DoneEvent, SourcesEvent
from desktop_rag.engine.store.values import Hit

log = logging.getLogger(__name__)

REASK_WINDOW_S = 300.0  # a question within five minutes of the last answer of its conversation can be a re-ask


def recorded(runtime, answerer, events: Iterable[AnswerEvent], question: str, within: Restriction,
             conversation_id: int | None,
             placed: Callable[[tuple[Hit, ...]], tuple[Hit, ...]]) -> Iterator[AnswerEvent]:
    """`record` for an answerer's events: the model and the settings that shaped the answer from the runtime."""
    from desktop_rag.engine.answer.assembly import fingerprint

    llm = answerer.llm
    settings = fingerprint(runtime, llm.config) if llm else {"embedding_model": runtime.index_model}
    return record(lambda: runtime.store, events, question, within, conversation_id,
                  llm.config.model if llm else "", {**settings, "top_k": runtime.settings.top_k}, placed)


def record(store: Callable[[], Store], events: Iterable[AnswerEvent], question: str, within: Restriction,
           conversation_id: int | None, model: str, settings: dict,
           placed: Callable[[tuple[Hit, ...]], tuple[Hit, ...]]) -> Iterator[AnswerEvent]:
    """The events, the DoneEvent with its `answer_id` once the answer is logged with its passages where the
    library holds them now (`placed`: `GivenPassages.now`) (nothing fails for the log: a write error only leaves
    the answer without an id)."""
    shown: tuple[Hit, ...] = ()
    query = question
    for event in events:
        if isinstance(event, SourcesEvent):
            shown, query = event.hits, event.query or question
        elif isinstance(event, DoneEvent) and gradable(event):
            answer_id = _log(store(), question, query, within, placed(shown), conversation_id, model, settings, event)
            event = dataclasses.replace(event, answer_id=answer_id)
        yield event


def gradable(done: DoneEvent) -> bool:
    """Whether an answer can be graded: it says something. One with no text (stopped before a word of it, or
    before a thinking model finished thinking: its notice says why) has nothing to judge; a refusal ("the
    documents do not say"), "nothing relevant was found" and a partial stopped answer do."""
    return bool(done.answer.strip())


def _log(store: Store, question: str, query: str, within: Restriction, shown: tuple[Hit, ...],
         conversation_id: int | None, model: str, settings: dict, done: DoneEvent) -> int | None:
    try:
        with store.transaction() as db:
            answer_id = grades.log_answer(
                db, question=question, normalised=normalised_question(question), query=query,
                query_normalised=normalised_question(query), scope=grades.scope_key(within), passages=shown,
                hashes=[grades.text_hash(h.text) for h in shown], model=model, settings=settings, answer=done.answer,
                mode=done.mode, cached=done.cached, conversation_id=conversation_id)
            if answer_id is not None and conversation_id is not None:
                _reasked(db, conversation_id, answer_id, question)
            return answer_id
    except sqlite3.Error as exc:
        log.warning("The answer was not added to the review log (%s)", exc)
        return None


def _reasked(db: sqlite3.Connection, conversation_id: int, answer_id: int, question: str) -> None:
    """The "asked again" signal on the conversation's previous answer, when this question repeats, rephrases or
    doubts it within REASK_WINDOW_S."""
    previous = grades.previous_answer(db, conversation_id, answer_id)
    if previous is None or time.time() - previous[2] > REASK_WINDOW_S:
        return
    if is_doubt(question) or similarity(question, previous[1]) >= REPHRASED:
        grades.add_signal(db, previous[0], "reasked")
