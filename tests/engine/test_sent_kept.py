"""What was sent, kept (issue 40): a conversation's answers keep their prompt across a restart (an older library
gains the column, its messages show none); the requests made before an answer (a follow-up's rewrite, the
question's translation) are listed with it, byte-for-byte as the local server received them; a conversation
deleted while its answer streamed takes the turns with it, quietly."""

from __future__ import annotations

import sqlite3

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store import conversations
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent
from desktop_rag.engine.store.values import ChatTurn
from tests.support.openai_server import run_openai_server


@pytest.fixture
def server():
    with run_openai_server() as srv:
        srv.reply = "Buses run every half hour at night [1]."
        yield srv


@pytest.fixture
def docs(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "bus.txt").write_text("City buses run every ten minutes during the day. At night the city buses run "
                                    "every half hour.", "utf-8")
    (folder / "tea.txt").write_text("绿茶用八十度的水冲泡，泡两到三分钟。乌龙茶用沸水冲泡。", "utf-8")
    return folder


def _engine(tmp_path, server, **changes) -> Engine:
    values = dict(embedding_model="hash:64", llm_base_url=server.base_url, llm_model="fake-model",
                  translate_queries=False)
    values.update(changes)
    return Engine(resolve_paths(tmp_path / "home"), Settings(**values))


def _received(request) -> tuple[tuple[str, str], ...]:
    return tuple((m["role"], m["content"]) for m in request.body["messages"])


def _prompt(events):
    return next(e for e in events if isinstance(e, SourcesEvent)).prompt


def test_a_conversation_keeps_what_each_answer_sent_across_a_restart(tmp_path, server, docs):
    engine = _engine(tmp_path, server)
    engine.index([docs])
    conversation = engine.new_conversation("buses")
    sent = _prompt(list(engine.ask("How often do city buses run at night?", conversation)))
    engine.close()
    engine = _engine(tmp_path, server)
    turns = engine.messages(conversation)
    assert [t.role for t in turns] == ["user", "assistant"]
    assert turns[0].prompt is None and turns[1].prompt == sent  # token counts and saving too
    assert turns[1].prompt.messages == _received(server.chat_requests()[-1])
    engine.close()


def _follow_up(tmp_path, server, docs):
    """(engine, conversation, the follow-up's events): "And during the day?" after a question about night buses, the
    server rewriting it to stand alone."""
    engine = _engine(tmp_path, server)
    engine.index([docs])
    conversation = engine.new_conversation("buses")
    list(engine.ask("How often do city buses run at night?", conversation))
    server.queue_reply("How often do city buses run during the day")  # the rewrite (not streamed)
    return engine, conversation, list(engine.ask("And during the day?", conversation))


def test_a_follow_ups_rewrite_is_listed_before_the_answer_as_the_server_received_it(tmp_path, server, docs):
    engine, conversation, events = _follow_up(tmp_path, server, docs)
    prompt = _prompt(events)
    rewrite, answer = server.chat_requests()[-2:]
    assert not rewrite.body.get("stream") and answer.body.get("stream")
    assert [e.purpose for e in prompt.earlier] == ["rewrite"] and prompt.purpose == "answer"
    assert prompt.earlier[0].messages == _received(rewrite) and prompt.messages == _received(answer)
    assert prompt.earlier[0].tokens[-1] > 0
    assert engine.messages(conversation)[-1].prompt.earlier == prompt.earlier  # kept with the turn
    engine.close()


def test_a_translation_request_is_listed_and_a_cached_translation_is_not(tmp_path, server, docs):
    engine = _engine(tmp_path, server, translate_queries=True)
    engine.index([docs])
    server.queue_reply("绿茶用多少度的水冲泡？")  # the question in the library's other language
    events = list(engine.ask("What water temperature for green tea?"))
    assert isinstance(events[-1], DoneEvent)
    translation, answer = server.chat_requests()
    prompt = _prompt(events)
    assert [e.purpose for e in prompt.earlier] == ["translation"]
    assert prompt.earlier[0].messages == _received(translation) and prompt.messages == _received(answer)
    assert "Simplified Chinese" in prompt.earlier[0].messages[0][1]
    server.reply = "Eighty degrees [1]."
    again = _prompt(list(engine.ask("What water temperature for green tea?", refresh=True)))
    assert len(server.chat_requests()) == 3 and again.earlier == ()  # the translation came from the library
    engine.close()


def test_turns_of_a_conversation_deleted_mid_answer_are_dropped_quietly(tmp_path, server, docs):
    engine = _engine(tmp_path, server)
    engine.index([docs])
    conversation = engine.new_conversation("soon gone")
    events = engine.ask("How often do city buses run at night?", conversation)
    next(events)  # the answer is under way
    engine.delete_conversation(conversation)
    rest = list(events)  # saving its turns does not fail
    assert isinstance(rest[-1], DoneEvent) and rest[-1].answer.startswith("Buses run")
    assert engine.messages(conversation) == [] and engine.conversations() == []
    assert not conversations.add_message(engine.store, conversation, ChatTurn("user", "late"))
    assert engine.store.db.execute("SELECT count(*) FROM messages").fetchone()[0] == 0
    engine.close()


def test_an_older_library_gains_the_column_and_its_messages_show_nothing_sent(tmp_path, server, docs):
    engine = _engine(tmp_path, server)
    conversation = engine.new_conversation("old")
    conversations.add_message(engine.store, conversation, ChatTurn("user", "an old question"))
    engine.close()
    path = engine.store.path
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE messages DROP COLUMN sent_json")  # as a library written before issue 40
    db.commit()
    db.close()
    engine = _engine(tmp_path, server)
    assert [(t.content, t.prompt) for t in engine.messages(conversation)] == [("an old question", None)]
    assert "sent_json" in {r[1] for r in engine.store.db.execute("PRAGMA table_info(messages)")}
    engine.close()


def test_a_question_keeps_what_it_was_also_searched_as_across_a_restart(tmp_path, server, docs):
    engine = _engine(tmp_path, server, translate_queries=True)
    engine.index([docs])
    conversation = engine.new_conversation("tea")
    server.queue_reply("绿茶用多少度的水冲泡？")
    list(engine.ask("What water temperature for green tea?", conversation))
    damaged = engine.new_conversation("damaged")
    conversations.add_message(engine.store, damaged, ChatTurn("user", "a question"))
    with engine.store.transaction() as db:  # a question's row an older or damaged app wrote
        db.execute("UPDATE messages SET sent_json = '{\"translations\": 5}' WHERE conversation_id = ?", (damaged,))
    engine.close()
    engine = _engine(tmp_path, server, translate_queries=True)
    question, answer = engine.messages(conversation)
    assert question.translations == (("zh", "绿茶用多少度的水冲泡？"),) and question.prompt is None
    assert answer.translations == () and answer.prompt is not None
    assert [(t.content, t.translations) for t in engine.messages(damaged)] == [("a question", ())]
    engine.close()


def _searched(events) -> str:
    return next(e for e in events if isinstance(e, SourcesEvent)).query


def test_a_follow_up_keeps_the_words_it_was_searched_with(tmp_path, server, docs):
    """The follow-up "And during the day?" was searched as the question made to stand alone: kept with it, so the
    reopened conversation's sources are highlighted as they were (by "And during the day?" alone before)."""
    engine, conversation, events = _follow_up(tmp_path, server, docs)
    searched = _searched(events)
    assert searched == "How often do city buses run during the day"
    engine.close()
    engine = _engine(tmp_path, server)
    turns = engine.messages(conversation)
    assert [(t.role, t.query) for t in turns] == [("user", ""), ("assistant", ""), ("user", searched),
                                                  ("assistant", "")]
    engine.close()
