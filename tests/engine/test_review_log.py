"""The review log (issue 39): every answer logged with an id, grades and marked passages that survive a restart,
the two online signals (a source opened, a question asked again), deletion with the conversation unless kept,
the spot check, the JSONL export and forgetting every grade."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent
from tests.support.review_docs import TEA, three_docs

@pytest.fixture
def docs(tmp_path):
    return three_docs(tmp_path / "docs")


def open_engine(tmp_path, **changes) -> Engine:
    return Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64", **changes))


def ask(engine: Engine, question: str = TEA, **kwargs) -> tuple[tuple, DoneEvent]:
    events = list(engine.ask(question, **kwargs))
    sources = next(e.hits for e in events if isinstance(e, SourcesEvent))
    return sources, events[-1]


def test_a_graded_answer_and_its_marked_passages_survive_a_restart(tmp_path, docs):
    engine = open_engine(tmp_path)
    engine.index([docs])
    sources, done = ask(engine)
    assert isinstance(done, DoneEvent) and done.answer_id is not None
    engine.review.set_grade(done.answer_id, "partly")
    engine.review.set_grade(done.answer_id, "right")  # changeable
    engine.review.mark_passage(done.answer_id, sources[0].chunk_id, right=True)
    engine.review.mark_passage(done.answer_id, sources[-1].chunk_id, right=False)
    engine.close()

    engine = open_engine(tmp_path)
    [logged] = engine.review.logged_answers([done.answer_id])
    assert logged.grade == "right" and logged.question == TEA and logged.query == TEA
    assert logged.answer == done.answer and logged.mode == "extractive"
    assert logged.sources == tuple(h.__class__(**{**h.__dict__, "focus": (), "ocr": False}) for h in sources)
    assert logged.right_chunk == sources[0].chunk_id and logged.wrong_chunks == (sources[-1].chunk_id,)
    stats = engine.review.stats()
    assert stats.answers == 1 and dict(stats.grades)["right"] == 1 and stats.ungraded == 0 and stats.labelled == 1
    engine.review.mark_passage(done.answer_id, None)  # "none of them": the right mark goes
    [logged] = engine.review.logged_answers([done.answer_id])
    assert logged.none_right and logged.right_chunk is None and engine.review.stats().labelled == 0
    with pytest.raises(UsageError):
        engine.review.set_grade(done.answer_id, "excellent")
    with pytest.raises(UsageError):
        engine.review.set_grade(done.answer_id + 99, "wrong")
    engine.close()


def test_the_log_keeps_the_question_scope_passage_hashes_model_and_settings(tmp_path, docs):
    engine = open_engine(tmp_path)
    engine.index([docs])
    sources, done = ask(engine, folders=[str(docs)])
    row = sqlite3.connect(engine.paths.database).execute(
        "SELECT scope, passages_json, settings_json FROM answer_log WHERE id = ?", (done.answer_id,)).fetchone()
    scope, passages, settings = json.loads(row[0]), json.loads(row[1]), json.loads(row[2])
    assert scope[1] == [str(docs.resolve())]
    assert [p["chunk_id"] for p in passages] == [h.chunk_id for h in sources]
    assert all(len(p["hash"]) == 64 for p in passages)
    assert settings["embedding_model"] == "hash:64" and settings["top_k"] == 5
    engine.close()


def test_the_two_online_signals(tmp_path, docs):
    engine = open_engine(tmp_path)
    engine.index([docs])
    conversation = engine.new_conversation()
    sources, first = ask(engine, conversation_id=conversation)
    assert engine.review.record_source_opened(first.answer_id, sources[0].chunk_id)
    _, second = ask(engine, "how hot should the water be for green tea", conversation_id=conversation)  # again
    _, third = ask(engine, "When do the city buses run?", conversation_id=conversation)  # another question
    _, fourth = ask(engine, "Are you sure?", conversation_id=conversation)  # doubts the third
    _, fifth = ask(engine, "你确定吗？", conversation_id=conversation)  # doubts the fourth
    ask(engine, "How hot should the water be for green tea?")  # no conversation: no re-ask of anything
    stats = engine.review.stats()
    assert stats.answers == 6 and stats.opened == 1 and stats.reasked == 3
    reasked = {r[0] for r in sqlite3.connect(engine.paths.database).execute(
        "SELECT answer_id FROM answer_signals WHERE kind = 'reasked'")}
    assert reasked == {first.answer_id, third.answer_id, fourth.answer_id}
    week = stats.weeks[-1]
    assert week.answers == 6 and week.opened_rate == pytest.approx(1 / 6) and week.reasked_rate == 0.5
    engine.close()


def test_deleting_a_conversation_deletes_its_log_unless_the_user_keeps_the_grades(tmp_path, docs):
    engine = open_engine(tmp_path)
    engine.index([docs])
    dropped, kept = engine.new_conversation(), engine.new_conversation()
    _, a = ask(engine, conversation_id=dropped)
    engine.review.set_grade(a.answer_id, "wrong")
    _, graded = ask(engine, conversation_id=kept)
    _, ungraded = ask(engine, "When do the city buses run?", conversation_id=kept)
    engine.review.set_grade(graded.answer_id, "right")
    engine.delete_conversation(dropped)
    engine.delete_conversation(kept, keep_grades=True)
    assert engine.review.logged_answers([a.answer_id, graded.answer_id, ungraded.answer_id])[0].id == graded.answer_id
    assert len(engine.review.logged_answers([a.answer_id, graded.answer_id, ungraded.answer_id])) == 1
    assert engine.review.logged_answers([graded.answer_id])[0].conversation_id is None
    engine.close()


def test_spot_check_export_and_forget(tmp_path, docs):
    engine = open_engine(tmp_path)
    engine.index([docs])
    conversation = engine.new_conversation()
    ids = [ask(engine, q, conversation_id=conversation)[1].answer_id for q in
           (TEA, "When do the city buses run?", "Where does the office move?")]
    assert [a.id for a in engine.review.logged_answers(conversation_id=conversation)] == ids
    engine.review.set_grade(ids[0], "refused")
    sample = engine.review.spot_check(50)
    assert sorted(a.id for a in sample) == ids[1:] and all(a.answer and a.sources for a in sample)
    assert len(engine.review.spot_check(1)) == 1
    engine.review.mark_passage(ids[1], engine.review.logged_answers([ids[1]])[0].sources[0].chunk_id)
    target = tmp_path / "grades.jsonl"
    assert engine.review.export(target) == 2
    lines = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert [line["id"] for line in lines] == ids[:2] and lines[0]["grade"] == "refused"
    assert lines[1]["right_passage"] == lines[1]["passages"][0]["chunk_id"] and lines[0]["question"] == TEA
    assert engine.review.forget() == 2
    assert engine.review.stats().labelled == 0 and dict(engine.review.stats().grades)["refused"] == 0
    assert engine.review.stats().answers == 3  # the answers and signals stay
    engine.close()


def test_an_export_that_cannot_be_written_says_why_in_either_language(tmp_path, docs):
    """The Review view said "导出失败：[Errno 21] Is a directory: '…'" (the system's English words, in Python's form)."""
    from desktop_rag.engine import error_text

    engine = open_engine(tmp_path)
    engine.index([docs])
    engine.review.set_grade(ask(engine)[1].answer_id, "right")
    (tmp_path / "a file").write_text("not a folder", encoding="utf-8")
    for target in (tmp_path, tmp_path / "a file" / "grades.jsonl"):  # a folder; below a file
        with pytest.raises(UsageError) as raised:
            engine.review.export(target)
        assert raised.value.code == "review_export_failed"
        assert error_text(raised.value, "zh").startswith(f"无法把已评价的问题写入 {target}（")
        assert str(raised.value).startswith(f"The graded questions cannot be written to {target} (")
    engine.close()


def test_a_read_only_library_logs_nothing(tmp_path, docs):
    engine = open_engine(tmp_path)
    engine.index([docs])
    engine.close()
    reader = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"), read_only=True)
    assert ask(reader)[1].answer_id is None
    reader.close()
    engine = open_engine(tmp_path)
    assert engine.review.stats().answers == 0
    engine.close()


def test_an_answer_with_no_text_is_neither_logged_nor_gradable_but_a_refusal_is(tmp_path, docs):
    """An answer stopped before its first word (through the real local server) was logged with empty text and
    offered for grading; a refusal says something and is graded like any answer."""
    from desktop_rag.engine.answer.events import STOPPED, TokenEvent
    from tests.support.openai_server import run_openai_server

    with run_openai_server() as server:
        engine = open_engine(tmp_path, llm_base_url=server.base_url, llm_model="fake-model", translate_queries=False)
        try:
            engine.index([docs])
            server.tokens, server.token_delay = ["The documents", " do not say."], 0.3
            cancel, events = threading.Event(), []
            for event in engine.ask(TEA, cancel=cancel):
                events.append(event)
                if isinstance(event, SourcesEvent):
                    cancel.set()  # Stop, before a word of the answer
            assert not any(isinstance(e, TokenEvent) for e in events)
            assert events[-1].answer == "" and events[-1].notice == STOPPED and events[-1].answer_id is None
            assert engine.review.stats().answers == 0
            server.token_delay = 0.0
            _, refusal = ask(engine, refresh=True)
            assert refusal.answer == "The documents do not say." and refusal.answer_id is not None
            assert engine.review.stats().answers == 1 and engine.review.spot_check()[0].answer == refusal.answer
        finally:
            engine.close()
