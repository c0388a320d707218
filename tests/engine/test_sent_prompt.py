"""What was sent (issue 40): the SourcesEvent's prompt is byte-for-byte the messages the local chat server received
(system, history, numbered passages after compression, the question), with token counts and the compression's
saving; a replayed answer shows what was sent when it was made, across a restart; an older cache gains the column.
"""

from __future__ import annotations

import sqlite3

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.models.tokens import count_tokens
from desktop_rag.engine.store import answer_cache
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent
from desktop_rag.engine.store.values import SentPrompt
from tests.support.openai_server import run_openai_server

LONG = " ".join(f"Sentence {n} talks about unrelated weather and gardens in spring number {n}." for n in range(60))


@pytest.fixture
def server():
    with run_openai_server() as srv:
        srv.reply = "Buses run every half hour at night [1]."
        yield srv


@pytest.fixture
def docs(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "bus.txt").write_text("City buses run every ten minutes during the day. " + LONG +
                                    " At night the city buses run every half hour.", "utf-8")
    (folder / "tea.txt").write_text("Green tea is brewed with water at about eighty degrees. 茶用八十度的水冲泡。", "utf-8")
    return folder


def _engine(tmp_path, server, **changes) -> Engine:
    values = dict(embedding_model="hash:64", llm_base_url=server.base_url, llm_model="fake-model",
                  translate_queries=False, context_compression="always", chunk_size=4000)
    values.update(changes)
    return Engine(resolve_paths(tmp_path / "home"), Settings(**values))


def _received(server) -> tuple[tuple[str, str], ...]:
    body = [r for r in server.chat_requests() if r.body.get("stream")][-1].body
    return tuple((m["role"], m["content"]) for m in body["messages"])


def _prompt(events):
    return next(e for e in events if isinstance(e, SourcesEvent)).prompt


def test_the_prompt_is_what_the_server_received_with_tokens_and_the_saving(tmp_path, server, docs):
    engine = _engine(tmp_path, server)
    engine.index([docs])
    events = list(engine.ask("How often do city buses run at night?"))
    prompt = _prompt(events)
    assert isinstance(events[-1], DoneEvent) and not events[-1].cached
    assert prompt is not None and prompt.messages == _received(server)  # every byte of every message
    assert [role for role, _ in prompt.messages] == ["system", "user"] and prompt.model == "fake-model"
    assert prompt.tokens == tuple(count_tokens(c) for _, c in prompt.messages) and prompt.total_tokens > 0
    assert "[1]" in prompt.messages[-1][1] and "How often do city buses run at night?" in prompt.messages[-1][1]
    assert 0 < prompt.passages_after < prompt.passages_before  # "always" compression saved tokens
    engine.close()


def test_history_is_in_the_prompt_as_sent(tmp_path, server, docs):
    engine = _engine(tmp_path, server)
    engine.index([docs])
    conversation = engine.new_conversation("buses")
    list(engine.ask("How often do city buses run at night?", conversation))
    server.queue_reply("City buses at night")  # the follow-up's rewrite (a separate request)
    events = list(engine.ask("And during the day?", conversation))
    prompt = _prompt(events)
    assert prompt.messages == _received(server)
    roles = [role for role, _ in prompt.messages]
    assert roles[0] == "system" and "assistant" in roles and roles[-1] == "user"
    assert any("Buses run every half hour at night" in content for role, content in prompt.messages
               if role == "assistant")
    engine.close()


def test_a_cached_answer_shows_what_was_sent_when_it_was_made(tmp_path, server, docs):
    engine = _engine(tmp_path, server)
    engine.index([docs])
    first = _prompt(list(engine.ask("How often do city buses run at night?")))
    sent_then = _received(server)
    engine.close()
    engine = _engine(tmp_path, server)
    events = list(engine.ask("How often do city buses run at night?"))
    assert events[-1].cached and len(server.chat_requests()) == 1
    assert _prompt(events) == first and _prompt(events).messages == sent_then  # the documents tag included
    engine.close()


def test_an_older_cache_gains_the_column_and_a_damaged_prompt_shows_none(tmp_path):
    from desktop_rag.engine.store.sqlite.store import SqliteStore

    SqliteStore(tmp_path / "old.sqlite3").close()  # a library, whose answer cache is then made as before issue 40
    db = sqlite3.connect(tmp_path / "old.sqlite3")
    db.executescript("DROP TABLE answer_cache_chunks; DROP TABLE answer_cache; "
                     "CREATE TABLE answer_cache (key TEXT PRIMARY KEY, answer TEXT NOT NULL, mode TEXT NOT NULL, "
                     "passages_json TEXT NOT NULL, cited_json TEXT NOT NULL, created_at REAL NOT NULL, "
                     "conversation_id INTEGER); "
                     "INSERT INTO answer_cache VALUES ('k', 'an answer', 'llm', '[]', '[]', 0, NULL);")
    db.commit()
    db.close()
    store = SqliteStore(tmp_path / "old.sqlite3")  # opened again: migrated in place
    stored = answer_cache.get(store.db, "k")
    store.close()
    assert stored is not None and stored.answer == "an answer" and stored.sent is None  # kept, without a prompt
    for damaged in ("{", '{"messages": 3}', "[]", '{"messages": [["system"]], "tokens": []}'):
        assert SentPrompt.from_json(damaged) is None
