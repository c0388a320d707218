"""The answer cache against the local chat-completions server: replayed at once, never stale, never another
model's, never a stopped or failed answer, kept across a restart; emptied when turned off or cleared, never
holding what a conversation's history shaped (issue 35: tests/security/test_answer_cache_history.py)."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from desktop_rag.engine.store import answer_cache
from desktop_rag.engine.answer.events import STOPPED, DoneEvent, ErrorEvent, SourcesEvent, TokenEvent
from tests.support.answer_cache_runs import QUESTION, ask, edited_elsewhere, open_engine, replayed_after_an_edit
from tests.support.kept_vectors import write
from tests.support.openai_server import run_openai_server


@pytest.fixture
def server():
    with run_openai_server() as srv:
        srv.reply = "At night they run every half hour [2]."
        yield srv


@pytest.fixture
def docs(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "tea.txt").write_text("Green tea is brewed with water at about eighty degrees.", encoding="utf-8")
    (folder / "bus.txt").write_text("City buses run every ten minutes during the day. At night they run every "
                                    "half hour.", encoding="utf-8")
    return folder


def test_a_repeated_question_is_replayed_with_the_same_passages_and_citations(tmp_path, server, docs):
    engine = open_engine(tmp_path, server)
    engine.index([docs])
    first_events, first = ask(engine)
    assert isinstance(first, DoneEvent) and not first.cached and server.streamed() == 1
    events, done = ask(engine)
    assert server.streamed() == 1, "the second ask never reached the model"
    assert done.cached and done.answer == first.answer and done.mode == "llm" and not done.notice
    assert [type(e) for e in events] == [SourcesEvent, TokenEvent, DoneEvent]
    sources = events[0].hits
    assert sources == first_events[0].hits
    assert done.cited == (sources[1],) == first.cited  # [2] still names the second passage
    assert ask(engine, refresh=True)[1].cached is False and server.streamed() == 2  # Regenerate asks afresh
    engine.close()


def test_the_stored_answer_survives_a_restart(tmp_path, server, docs):
    engine = open_engine(tmp_path, server)
    engine.index([docs])
    ask(engine)
    engine.close()
    engine = open_engine(tmp_path, server)
    assert ask(engine)[1].cached and server.streamed() == 1
    engine.close()


@pytest.mark.parametrize("how", ["changed", "reindex", "removed"])
def test_a_reindexed_or_removed_cited_file_makes_the_next_identical_question_answer_afresh(tmp_path, server, docs,
                                                                                           how):
    engine = open_engine(tmp_path, server)
    engine.index([docs])
    ask(engine)
    assert answer_cache.count(engine.store.db) == 1
    if how == "changed":
        (docs / "bus.txt").write_text("City buses run every ten minutes during the day. At night they run every "
                                      "hour.", encoding="utf-8")
        engine.index()
    elif how == "reindex":
        engine.reindex()
    else:
        (docs / "bus.txt").unlink()
        engine.index()
    assert answer_cache.count(engine.store.db) == 0, "the answer citing the old passage is removed"
    assert ask(engine)[1].cached is False and server.streamed() == 2
    engine.close()


def test_another_model_or_endpoint_never_replays_this_answer(tmp_path, server, docs):
    engine = open_engine(tmp_path, server)
    engine.index([docs])
    ask(engine)
    engine.close()
    server.models.append("other-model")
    engine = open_engine(tmp_path, server, llm_model="other-model")
    server.reply = "Every thirty minutes [2]."
    done = ask(engine)[1]
    assert not done.cached and done.answer.startswith("Every thirty") and server.streamed() == 2
    engine.close()
    with run_openai_server() as other:  # the same model name at another endpoint
        other.reply = "Hourly [2]."
        engine = open_engine(tmp_path, other)
        done = ask(engine)[1]
        assert not done.cached and done.answer.startswith("Hourly") and other.streamed() == 1
        engine.close()


def test_failed_cut_and_stopped_answers_are_never_stored(tmp_path, server, docs):
    engine = open_engine(tmp_path, server)
    engine.index([docs])
    server.fail_next(400, message="bad request")
    assert isinstance(ask(engine)[1], ErrorEvent)
    server.cut_after = 2
    assert isinstance(ask(engine)[1], ErrorEvent)
    server.cut_after = None
    stop = threading.Event()
    for event in engine.ask(QUESTION, cancel=stop):
        if isinstance(event, TokenEvent):
            stop.set()
        last = event
    assert isinstance(last, DoneEvent) and last.notice == STOPPED
    assert answer_cache.count(engine.store.db) == 0
    assert ask(engine)[1].cached is False  # a complete answer, now stored
    assert answer_cache.count(engine.store.db) == 1
    engine.close()


def test_the_off_switch(tmp_path, server, docs):
    engine = open_engine(tmp_path, server, answer_cache=False)
    engine.index([docs])
    ask(engine)
    assert ask(engine)[1].cached is False and server.streamed() == 2
    assert answer_cache.count(engine.store.db) == 0
    engine.close()


def test_a_question_repeated_in_its_conversation_is_replayed_without_a_rewrite_call(tmp_path, server, docs):
    engine = open_engine(tmp_path, server)
    engine.index([docs])
    conversation = engine.new_conversation()
    ask(engine, conversation_id=conversation)
    done = ask(engine, conversation_id=conversation)[1]  # it stands alone: no follow-up rewrite by the model
    assert done.cached and len(server.chat_requests()) == 1
    assert [t.role for t in engine.messages(conversation)] == ["user", "assistant"] * 2
    engine.close()


def test_a_saved_turn_keeps_the_spans_that_were_sent(tmp_path, server, docs):
    engine = open_engine(tmp_path, server, context_compression="always")
    engine.index([docs])
    conversation = engine.new_conversation()
    sources = ask(engine, conversation_id=conversation)[0][0].hits
    assert any(h.focus for h in sources)
    assert engine.messages(conversation)[1].sources == sources  # focus included: the viewer highlights the same
    engine.close()


def test_turning_the_setting_off_empties_the_cache_and_clear_removes_every_answer(tmp_path, server, docs):
    engine = open_engine(tmp_path, server)
    engine.index([docs])
    ask(engine)
    ask(engine, "Is green tea brewed with boiling water?")
    assert answer_cache.count(engine.store.db) == 2
    assert engine.forget_answers() == 2 and answer_cache.count(engine.store.db) == 0
    assert ask(engine)[1].cached is False and answer_cache.count(engine.store.db) == 1
    engine.apply_settings(engine.settings.replace(answer_cache=False), save=False)  # the Settings dialog's way
    assert answer_cache.count(engine.store.db) == 0
    engine.apply_settings(engine.settings.replace(answer_cache=True), save=False)
    ask(engine)
    engine.close()
    engine = open_engine(tmp_path, server, answer_cache=False)  # turned off in the settings file
    assert answer_cache.count(engine.store.db) == 1
    ask(engine)
    assert answer_cache.count(engine.store.db) == 0
    engine.close()


def test_regenerate_in_a_conversation_drops_the_stored_answer_and_keeps_none(tmp_path, server, docs):
    engine = open_engine(tmp_path, server)
    engine.index([docs])
    conversation = engine.new_conversation()
    ask(engine, conversation_id=conversation)
    assert ask(engine, conversation_id=conversation)[1].cached
    server.reply = "Every thirty minutes at night [2]."
    assert not ask(engine, conversation_id=conversation, refresh=True)[1].cached
    assert answer_cache.count(engine.store.db) == 0, "what the history shaped is not kept, the rejected one goes"
    done = ask(engine)[1]
    assert not done.cached and done.answer.startswith("Every thirty")
    engine.close()


def test_an_answer_whose_conversation_was_deleted_meanwhile_is_not_kept(tmp_path, server, docs):
    engine = open_engine(tmp_path, server)
    engine.index([docs])
    conversation = engine.new_conversation()
    events = engine.ask(QUESTION, conversation_id=conversation)
    next(events)  # the passages: the model is being asked
    engine.delete_conversation(conversation)
    try:
        list(events)
    except sqlite3.IntegrityError:  # the turns of a deleted conversation cannot be saved; the cache is the point
        pass
    assert answer_cache.count(engine.store.db) == 0
    engine.close()


def test_a_cache_from_before_conversations_were_recorded_is_dropped(tmp_path, server, docs):
    engine = open_engine(tmp_path, server)
    engine.index([docs])
    ask(engine)
    with engine.store.transaction() as db:  # the layout of the previous version, which keyed answers without history
        db.execute("DROP TABLE answer_cache_chunks")
        db.execute("DROP TABLE answer_cache")
        db.execute("CREATE TABLE answer_cache (key TEXT PRIMARY KEY, answer TEXT NOT NULL, mode TEXT NOT NULL, "
                   "passages_json TEXT NOT NULL, cited_json TEXT NOT NULL, created_at REAL NOT NULL)")
        db.execute("INSERT INTO answer_cache VALUES ('k', 'My passport number is X1234567', 'llm', '[]', '[]', 0)")
    engine.close()
    engine = open_engine(tmp_path, server)
    assert answer_cache.count(engine.store.db) == 0
    assert ask(engine)[1].cached is False and answer_cache.count(engine.store.db) == 1
    engine.close()


STORED_THINKING = "Okay, [1] is about tea, so:\n</think>\n\nAt night they run every half hour [2]."


def test_an_answer_stored_with_its_thinking_is_replayed_and_read_back_without_it(tmp_path, server, docs):
    """Answers stored (and conversation turns kept) before thinking was told from the answer replayed it."""
    engine = open_engine(tmp_path, server)
    engine.index([docs])
    conversation = engine.new_conversation()
    first = ask(engine, conversation_id=conversation)[1]
    with engine.store.transaction() as db:  # as an earlier version kept them
        db.execute("UPDATE answer_cache SET answer = ?, cited_json = '[1, 2]'", (STORED_THINKING,))
        db.execute("UPDATE messages SET content = ? WHERE role = 'assistant'", (STORED_THINKING,))
    events, done = ask(engine)
    assert done.cached and events[1].text == done.answer == first.answer == "At night they run every half hour [2]."
    assert done.cited == first.cited  # the thinking's [1] is not among them
    assert engine.messages(conversation)[1].content == first.answer
    engine.close()


def test_an_answer_logged_with_its_thinking_is_read_back_for_review_without_it(tmp_path, server, docs):
    """The review log's answers logged before thinking was told from the answer: shown, spot-checked and exported
    without it; an extractive answer quoting the tag (a document's) keeps every word."""
    engine = open_engine(tmp_path, server)
    engine.index([docs])
    first = ask(engine)[1]
    quoted = ask(engine, "What does the timetable say?", refresh=True)[1]
    with engine.store.transaction() as db:  # as an earlier version logged it
        db.execute("UPDATE answer_log SET answer = ? WHERE id = ?", (STORED_THINKING, first.answer_id))
        db.execute("UPDATE answer_log SET answer = ?, mode = 'extractive' WHERE id = ?",
                   (STORED_THINKING, quoted.answer_id))
    clean = "At night they run every half hour [2]."
    [logged, extractive] = engine.review.logged_answers([first.answer_id, quoted.answer_id])
    assert logged.answer == clean and extractive.answer == STORED_THINKING
    assert {a.answer for a in engine.review.spot_check(10)} == {clean, STORED_THINKING}
    engine.review.set_grade(first.answer_id, "right")
    engine.review.export(tmp_path / "graded.jsonl")
    assert json.loads((tmp_path / "graded.jsonl").read_text(encoding="utf-8").splitlines()[0])["answer"] == clean
    engine.close()


def test_an_answer_whose_passages_an_edit_left_unchanged_is_replayed_under_their_new_ids(tmp_path, server):
    replayed_after_an_edit(tmp_path, server)

def test_an_edit_inside_a_merged_passage_drops_its_stored_answer(tmp_path, server):
    """The answer is linked to every chunk of its passage (the night buses' merged with the next paragraph): an edit
    of the second removes it, as one of the first would. Before, only a passage's first chunk was linked and the
    answer stayed, never replayed again (its key hashes the passage's text) but taking one of the cache's places."""
    engine, _, was, _ = edited_elsewhere(tmp_path, server, edited=1)
    try:
        assert "Bicycles" in was.text and answer_cache.count(engine.store.db) == 0
        events, done = ask(engine)
        assert not done.cached and "(Edited.)" in events[0].hits[0].text and server.streamed() == 2
    finally:
        engine.close()


def test_an_answer_is_not_replayed_when_the_search_finds_other_passages_after_an_edit(tmp_path, server):
    """A file added that answers better: the question's passage is another, so the stored answer is not the one to
    give (it stays, for the passages it was made from)."""
    engine, bus, _, _ = edited_elsewhere(tmp_path, server)
    try:
        write(bus.parent / "night.md", [f"{QUESTION} Every ten minutes at night on weekends."])
        assert engine.index().added == 1
        events, done = ask(engine)
        assert not done.cached and "weekends" in events[0].hits[0].text and server.streamed() == 2
    finally:
        engine.close()
