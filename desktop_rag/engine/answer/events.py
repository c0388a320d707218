"""An answer (or a summary) as events: sources first, then tokens (after its model's thinking, counted), then done
(or error); and a summary's plan."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from desktop_rag.engine.messages import Localised, Phrase
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.values import CUT_AT_LIMIT, NO_ANSWER, STOPPED_BY_PERSON, Ending, Hit, SentPrompt

if TYPE_CHECKING:
    from desktop_rag.engine.answer.reasoning import ThinkFilter


THINKING_EVERY_S = 0.25  # a model's thinking is told at most this often (`ThinkingEvent`: a count, read, not watched)
STOPPED = Phrase("notice.stopped")  # an answer or summary stopped: "Stopped." in the language it is shown in
STOPPED_THINKING = Phrase("notice.stopped_thinking")  # an answer stopped before its model's thinking ended
EMPTY_ANSWER = Phrase("empty_model_answer")  # the model's whole reply held nothing
THOUGHT_ONLY = Phrase("thought_no_answer")  # the model's whole reply held thinking and no answer after it
# a cut reply's notice as a summary's (`cut_at_limit`): it may be incomplete, or no summary was written; to get the
# rest, summarise again (a narrower question is no way out of a summary)
SUMMARY_CUTS = {"error.llm_token_limit": "error.llm_token_limit_summary",
                "error.llm_token_limit_thinking": "error.llm_token_limit_thinking_summary",
                "error.llm_length": "error.llm_length_summary", "cut_thinking_answer": "cut_thinking_summary"}


def stopped(thinking: bool = False) -> tuple[Phrase, Ending]:
    """A stopped answer's (or summary's) notice, STOPPED (STOPPED_THINKING when its model had not finished
    thinking: no answer was written), and its ending."""
    notice = STOPPED_THINKING if thinking else STOPPED
    return notice, Ending(STOPPED_BY_PERSON, Reason.of(notice))


def cut_at_limit(failure: BaseException, thinking: bool, summary: bool = False) -> tuple[Reason, Ending]:
    """A reply cut at its size limit (`failure`, the client's "length" error): its notice, coded (said in the
    language it is shown in, as STOPPED is), and its ending, which keeps the same codes. A thinking model cut before
    its answer began at its token limit: "llm_token_limit_thinking" (the limit, and the setting that raises it: the
    client says so itself for a `<think>` block; a lone `</think>`'s thinking came as text); cut at the client's
    cap on characters: "cut_thinking_answer". A `summary`'s reply says so of a summary (SUMMARY_CUTS)."""
    said = Reason.of(failure)
    first = said.parts[0] if said.parts else None
    key, values = (first.key, first.values) if isinstance(first, Phrase) else (None, {})
    if thinking and key == "error.llm_token_limit":
        key = "error.llm_token_limit_thinking"
    elif thinking and key != "error.llm_token_limit_thinking":
        key, values = "cut_thinking_answer", {}
    if summary:
        key = SUMMARY_CUTS.get(key, key)
    if key is not None and Phrase(key, **values) != first:
        said = Reason.of(Phrase(key, **values))
    return said, Ending(CUT_AT_LIMIT, said)


def no_answer(thought: bool) -> tuple[Phrase, Ending]:
    """A reply that ended whole without a word of answer: its notice, EMPTY_ANSWER (THOUGHT_ONLY when it held
    thinking: `reasoning.thought`), and its ending."""
    notice = THOUGHT_ONLY if thought else EMPTY_ANSWER
    return notice, Ending(NO_ANSWER, Reason.of(notice))


@dataclass(frozen=True)
class SourcesEvent:
    hits: tuple[Hit, ...]
    query: str = ""
    keyword_only: bool = False  # the search ran while the vectors were still loading (`SearchHits.keyword_only`)
    translations: tuple[tuple[str, str], ...] = ()  # (language, text): the question as also searched (translated)
    prompt: SentPrompt | None = None  # with a model: what the answer request sends (a cached answer: sent then)
    thinks: bool | None = None  # with a model: whether it opens replies with thinking (answer/thinking_models.py)
    # with a model: how far into its reply a lone `</think>` may end thinking (`LLMConfig.thinking_chars`); 0: none
    thinking_chars: int = 0


@dataclass(frozen=True)
class TokenEvent:
    text: str


@dataclass(frozen=True)
class ThinkingEvent:
    """The model is thinking (a `<think>` block opening its reply, not shown): `chars` of it so far. Sent at most
    every THINKING_EVERY_S; the answer's TokenEvents follow once the thinking ends."""

    chars: int


def reply_events(pieces: Iterable[str], reading: ThinkFilter, parts: list[str]) -> Iterator[TokenEvent | ThinkingEvent]:
    """A model's streamed reply (`LLMClient.stream`'s pieces, read through `reading`) as events: each piece of
    answer a TokenEvent (and added to `parts`), its thinking a ThinkingEvent now and then (once a character of it
    came: never "0 characters")."""
    told = float("-inf")
    for piece in pieces:
        if piece:
            parts.append(piece)
            yield TokenEvent(piece)
        elif reading.thinking and reading.thought_chars and time.monotonic() - told >= THINKING_EVERY_S:
            told = time.monotonic()
            yield ThinkingEvent(reading.thought_chars)


@dataclass(frozen=True)
class DoneEvent:
    """The final answer text (invalid citations removed) and the sources it cites."""

    answer: str
    mode: str  # "llm" | "extractive"
    cited: tuple[Hit, ...] = ()
    # how it ended short (stopped, cut, empty), coded: said in the language it is shown in; else the extractive label or
    # "nothing found", in the question's language
    notice: Localised | str = ""
    cached: bool = False  # a stored answer to the same question, passages, model and settings (answer/replay.py)
    answer_id: int | None = None  # its review-log row (`Engine.review.set_grade`...); never in `ask --json` nor MCP
    ending: Ending | None = None  # stopped, cut at its size limit, empty: kept with a conversation's turn (as `notice`)


@dataclass(frozen=True)
class ErrorEvent:
    message: Reason  # str(): the English text; `errors.error_text(message, language)` in the user's language
    partial: str = ""


@dataclass(frozen=True)
class SummaryStep:
    """A summary's progress, before each of its model requests: `done` of `total` requests made (the last one
    writes the summary). Only summaries that take more than one request send it, before their SourcesEvent."""

    done: int
    total: int


@dataclass(frozen=True)
class SummaryPlan:
    """What summarising a document will take (`Engine.summary_plan`): "whole" (one request), "map-reduce" (one
    per section, then one for the summary) or "extractive" (no model); `requests` leaves out stored ones."""

    path: str
    mode: str
    sections: int
    tokens: int
    requests: int
    language: str
    seconds: float | None = None  # about how long its requests take at the model's recent speed (None: not known)


AnswerEvent = SourcesEvent | TokenEvent | ThinkingEvent | DoneEvent | ErrorEvent | SummaryStep
