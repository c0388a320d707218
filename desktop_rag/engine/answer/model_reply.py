"""A model's streamed reply as an answer's (or a summary's) events, to its end however it came: stopped, cut at its
size limit, failed, or whole (`streamed_reply`); and the final event of any answer or summary (`done_event`)."""

from __future__ import annotations

import threading
from collections.abc import Generator, Sequence

from desktop_rag.engine.answer.citations import clean_citations
from desktop_rag.engine.answer.events import (AnswerEvent, DoneEvent, ErrorEvent, cut_at_limit, no_answer,
                                              reply_events, stopped)
from desktop_rag.engine.answer.llm import LLMClient, cancelled
from desktop_rag.engine.answer.llm_errors import LLMError
from desktop_rag.engine.answer.reasoning import ThinkFilter, thought
from desktop_rag.engine.answer.thinking_models import ThinkingModel, finished_reply
from desktop_rag.engine.messages import Localised
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.values import Ending, Hit


def done_event(text: str, hits: Sequence[Hit], mode: str, notice: Localised | str, ending: Ending | None = None,
               cached: bool = False, fallback: int = 0) -> DoneEvent:
    """The final event: citations cleaned, the cited passages resolved (the first `fallback` of them when none is
    cited: an answer's sources)."""
    cleaned, numbers = clean_citations(text, len(hits))
    cited = [hits[n - 1] for n in numbers] or list(hits[:fallback])
    return DoneEvent(cleaned, mode, tuple(cited), notice, cached=cached, ending=ending)


def streamed_reply(llm: LLMClient, messages: list[dict], hits: Sequence[Hit], cancel: threading.Event | None,
                   thinking: ThinkingModel | None, thinks: bool | None, ending: Ending | None = None,
                   fallback: int = 0, summary: bool = False) -> Generator[AnswerEvent, None, DoneEvent | None]:
    """The reply's answer and thinking as events (`reply_events`), its thinking never its answer (`finished_reply`,
    noted in `thinking`: `thinks`, what it held before). A reply that ended short is said, as its last event: stopped
    (STOPPED, or STOPPED_THINKING), cut at its size limit (`cut_at_limit`, worded for a `summary`: kept) or failed
    (ErrorEvent, its partial text); then None is returned. A reply that ended is returned, not yielded (the caller
    stores what it keeps): its DoneEvent, with `ending` (and its reason as the notice), or said to be empty
    (`no_answer`)."""
    pieces: list[str] = []
    reading = ThinkFilter()  # whether the reply ended inside the <think> block that opened it
    bound = llm.config.thinking_chars  # how far into it a lone </think> may end thinking
    try:
        yield from reply_events(llm.stream(messages, cancel, reading), reading, pieces)
    except LLMError as exc:
        received, unfinished = finished_reply(thinking, thinks, exc.partial or "".join(pieces), False,
                                              reading.thinking, bound, reading.opened)
        if exc.kind == "length":  # cut at its own size limit: kept, said so
            yield done_event(received, hits, "llm", *cut_at_limit(exc, unfinished, summary),
                             fallback=fallback)
        else:
            yield ErrorEvent(Reason.of(exc), partial=clean_citations(received, len(hits))[0])
        return None
    was_stopped, reply = cancelled(cancel), "".join(pieces)
    text, unfinished = finished_reply(thinking, thinks, reply, not was_stopped,  # thinking: hidden
                                      reading.thinking, bound, reading.opened)
    if was_stopped:
        yield done_event(text, hits, "llm", *stopped(unfinished), fallback=fallback)
        return None
    notice: Localised | str = "" if ending is None else ending.reason
    if not text.strip():  # a whole reply without a word of answer: said, kept as how it ended
        notice, ending = no_answer(thought(reply, reading, bound))
    return done_event(text, hits, "llm", notice, ending, fallback=fallback)
