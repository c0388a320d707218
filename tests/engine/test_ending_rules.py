"""How an answer that ended short is kept, without a model server (tests/engine/test_unfinished_turns.py runs the
scenarios through one): an ending as `messages.ended` stores it and reads it back, whatever its reason holds; a
summary's ending (partial, sections cut) and what it says; and the rules `turns.saved` keeps a conversation's turns by
when a stream ends, fails or asks for a yes first."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.answer import turns
from desktop_rag.engine.answer.events import (DoneEvent, ErrorEvent, SourcesEvent, TokenEvent, cut_at_limit, no_answer,
                                              stopped)
from desktop_rag.engine.answer.llm_errors import LLMError, length_error, token_limit_error
from desktop_rag.engine.answer.summarising import _short
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import ConfirmationNeeded, UsageError
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.values import (ANSWER_FAILED, CUT_AT_LIMIT, MAX_ENDING_JSON_CHARS, SECTIONS_CUT,
                                             SUMMARY_PARTIAL, Ending)

A_PHRASE = Phrase("phrase.archive.manifest_key", key="x")


@pytest.mark.parametrize("ending", [
    Ending(ANSWER_FAILED, Reason.of("the server hung up")),  # words without a code: kept as the English text only
    Ending(ANSWER_FAILED, Reason.of(A_PHRASE)),
    stopped()[1], stopped(thinking=True)[1], no_answer(thought=False)[1], no_answer(thought=True)[1],
    _short(2, 5, 0, 1200), _short(2, 5, 3, 1200),  # a summary of the first sections; one of sections cut
    # a reason as long as Reason lets one be, in Chinese: kept as written, within what a stored ending may be
    Ending(ANSWER_FAILED, Reason.of(Phrase("phrase.archive.manifest_key", key="服" * 300), "务" * 1000, "器" * 1000,
                                    "错" * 1000, "误" * 600)),
])
def test_an_ending_reads_back_as_it_was_kept(ending):
    assert Ending.from_json(ending.to_json()) == ending


TOKENS, LENGTH, THOUGHT = (Phrase("error.llm_token_limit", tokens=50), Phrase("error.llm_length", cap=100),
                           Phrase("error.llm_token_limit_thinking", tokens=50))


@pytest.mark.parametrize(("failure", "thinking", "summary", "said"), [
    # an answer's cut: the client's words as they are, coded or not
    (token_limit_error(50, False), False, False, TOKENS), (length_error(100, ""), False, False, LENGTH),
    (RuntimeError("the server cut it"), False, False, "the server cut it"),
    # a thinking model cut before its answer began: at its token limit (the client's own code, or made so), else at
    # the cap on characters (or anything else): cut_thinking_answer, without the cap
    (token_limit_error(50, True), True, False, THOUGHT), (token_limit_error(50, False), True, False, THOUGHT),
    (length_error(100, ""), True, False, Phrase("cut_thinking_answer")),
    (RuntimeError("the server cut it"), True, False, Phrase("cut_thinking_answer")),
    # a summary's reply: the same, said of a summary; words without a code stay as they are
    (token_limit_error(50, False), False, True, Phrase("error.llm_token_limit_summary", tokens=50)),
    (length_error(100, ""), False, True, Phrase("error.llm_length_summary", cap=100)),
    (token_limit_error(50, False), True, True, Phrase("error.llm_token_limit_thinking_summary", tokens=50)),
    (length_error(100, ""), True, True, Phrase("cut_thinking_summary")),
    (RuntimeError("the server cut it"), False, True, "the server cut it"),
    # another coded failure (no cut of its own): kept as the client said it
    (LLMError.coded("llm_auth", "auth", host="h", status=401, detail="d"), False, True,
     Phrase("error.llm_auth", host="h", status=401, detail="d")),
])
def test_a_cut_reply_says_where_it_stopped(failure, thinking, summary, said):
    """`cut_at_limit`'s wording of a reply cut at its size limit, by its failure, whether its model was still thinking
    and whether it was a summary's; its ending keeps the same reason."""
    reason, ending = cut_at_limit(failure, thinking, summary)
    assert reason == Reason.of(said) and ending == Ending(CUT_AT_LIMIT, reason)


def test_a_cut_reply_is_an_answers_unless_said_to_be_a_summarys():
    assert cut_at_limit(token_limit_error(50, False), False)[0] == Reason.of(TOKENS)


def test_a_summary_short_of_whole_says_how_in_its_ending():
    """A map-reduce summary of every section, none cut, keeps no ending; one of the first sections only says how many
    of how many (partial); one written from section replies cut at their limit says how many, of how many, at which
    limit (sections_cut), after the budget's note when both."""
    assert _short(5, 5, 0, 1200) is None
    partial = _short(2, 5, 0, 1200)
    fitted = "This summary covers the first 2 of the document's 5 sections (the rest did not fit the summary budget)."
    assert partial.state == SUMMARY_PARTIAL and str(partial.reason) == fitted
    cut = ("The model stopped at its limit of 1,200 tokens for one reply while summarising 3 of the document's 5 "
           "sections, so the summary may leave something out. It is not kept: Regenerate asks again.")
    assert _short(5, 5, 3, 1200) == Ending(SECTIONS_CUT, Reason.of(Phrase("summary_sections_cut", cut=3, total=5,
                                                                             tokens=1200)))
    assert str(_short(5, 5, 3, 1200).reason) == cut
    both = _short(2, 5, 3, 1200)
    assert both.state == SECTIONS_CUT and str(both.reason) == f"{fitted}; {cut}"


def test_a_kept_ending_carries_its_english_text_for_a_version_that_cannot_read_its_codes():
    ending = Ending(ANSWER_FAILED, Reason.of(A_PHRASE))
    kept = json.loads(ending.to_json())
    assert kept["text"] == "its manifest has no valid x" and kept["state"] == ANSWER_FAILED
    damaged = json.dumps({**kept, "reason": "[not codes"})
    assert str(Ending.from_json(damaged).reason) == "its manifest has no valid x"


@pytest.mark.parametrize("stored", ['{"state": "stopped", "text": "x", "reason": 5}',
                                    '{"state": "stopped", "text": 5, "reason": ""}'])
def test_an_ending_whose_text_or_codes_are_not_text_reads_as_none(stored):
    assert Ending.from_json(stored) is None


def test_a_stored_ending_is_read_up_to_its_limit():
    kept = Ending(ANSWER_FAILED, Reason.of("the server hung up")).to_json()
    at_limit = kept[:-1] + " " * (MAX_ENDING_JSON_CHARS - len(kept)) + "}"
    assert len(at_limit) == MAX_ENDING_JSON_CHARS and Ending.from_json(at_limit) is not None
    assert Ending.from_json(at_limit[:-1] + " }") is None


@pytest.fixture
def library(tmp_path: Path) -> Iterator[tuple[Engine, int]]:
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    yield engine, engine.new_conversation()
    engine.close()


def _kept(engine: Engine, conversation: int, events, question: str = "How much leave?") -> list[tuple]:
    """`events` through `turns.saved` (each one taken), then the conversation's turns as (role, content, ending)."""
    for _ in turns.saved(events, lambda: engine.store, conversation, question, lambda hits: hits):
        pass
    return [(t.role, t.content, t.ending) for t in engine.messages(conversation)]


def _then_raising(events: list, error: BaseException) -> Iterator:
    yield from events
    raise error


def test_an_error_after_the_finished_answer_keeps_the_answer_as_it_ended(library):
    engine, conversation = library
    done = DoneEvent("25 days.", "llm")
    with pytest.raises(UsageError):
        _kept(engine, conversation, _then_raising([SourcesEvent(()), done], UsageError("late")))
    assert [(t.role, t.content, t.ending) for t in engine.messages(conversation)] == [
        ("user", "How much leave?", None), ("assistant", "25 days.", None)]


def test_an_error_after_a_failed_reply_keeps_the_replys_own_failure(library):
    engine, conversation = library
    failed = ErrorEvent(Reason.of("the server hung up"), partial="25")
    with pytest.raises(UsageError):
        _kept(engine, conversation, _then_raising([SourcesEvent(()), failed], UsageError("late")))
    assert engine.messages(conversation)[1].ending == Ending(ANSWER_FAILED, Reason.of("the server hung up"))


def test_a_question_that_needs_a_yes_first_keeps_nothing(library):
    engine, conversation = library
    with pytest.raises(ConfirmationNeeded):
        _kept(engine, conversation, _then_raising([], ConfirmationNeeded("over the request limit")))
    assert engine.messages(conversation) == []


def test_a_stream_that_ends_without_an_answer_keeps_the_question_only(library):
    engine, conversation = library
    assert _kept(engine, conversation, iter([SourcesEvent(()), TokenEvent("")])) == [
        ("user", "How much leave?", None)]


def test_a_failed_question_the_library_cannot_keep_logs_why(library, caplog):
    """The question's own error is raised; the library's, which kept it from being kept, is in the log with its
    traceback."""
    engine, conversation = library
    engine.store.db.execute("PRAGMA query_only = ON")
    with caplog.at_level(logging.WARNING, logger="desktop_rag.engine.answer.turns"), pytest.raises(UsageError):
        _kept(engine, conversation, _then_raising([], UsageError("gone")))
    engine.store.db.execute("PRAGMA query_only = OFF")
    record = next(r for r in caplog.records if r.name == "desktop_rag.engine.answer.turns")
    assert record.getMessage() == "The question that failed was not kept in its conversation"
    assert record.exc_info is not None and "readonly" in str(record.exc_info[1]).replace(" ", "")


def test_a_question_failing_before_its_search_is_kept_as_asked_with_its_failure(library):
    engine, conversation = library
    with pytest.raises(UsageError):
        _kept(engine, conversation, _then_raising([], UsageError("gone")))
    question, answer = engine.messages(conversation)
    assert (question.content, question.query, question.translations) == ("How much leave?", "", ())
    assert (answer.content, answer.ending.state, str(answer.ending.reason)) == ("", ANSWER_FAILED, "gone")
