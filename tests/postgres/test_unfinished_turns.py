"""An answer that ended short (stopped, cut at its size limit, cut off by the server) is kept in its conversation with
how it ended on a library on a server as on this computer's (tests/support/unfinished_turns.py): a real PostgreSQL
server with pgvector and the real local OpenAI-protocol server, no stand-in. Each person's turns stay their own."""

from __future__ import annotations

import contextlib

import pytest

from desktop_rag.config import resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.postgres.schema import SCHEMA_VERSION
from tests.support.unfinished_turns import SCENARIOS, a_stopped_answer_is_kept_and_sent_marked_unfinished
from tests.support.unfinished_turns import indexed, run, serving, settings


@pytest.fixture
def server(monkeypatch):
    yield from serving(monkeypatch)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
def test_an_unfinished_answer_is_kept_with_how_it_ended(pg_library, server, tmp_path, scenario):
    run(scenario, tmp_path / "home", tmp_path / "docs", server, pg_library)


def test_a_members_stopped_answer_is_hers_alone(pg_server, server, tmp_path):
    """alice (granted the collection) stops an answer: it is kept with its ending in her conversation, which bob,
    granted the same collection, never sees (the messages view: each role's own rows)."""
    database = pg_server.new_database("unfinished")
    pg_server.role("alice", "alice-password-1")
    pg_server.role("bob", "bob-password-22")
    admin = Engine(resolve_paths(tmp_path / "admin"), settings(server), library=pg_server.url(database))
    alice = Engine(resolve_paths(tmp_path / "alice"), settings(server),
                   library=pg_server.url(database, "alice", "alice-password-1"))
    bob = Engine(resolve_paths(tmp_path / "bob"), settings(server),
                 library=pg_server.url(database, "bob", "bob-password-22"))
    try:
        indexed(admin, tmp_path / "docs")
        default = admin.collection_names()[0][0]
        admin.library.grant(default, "alice")
        admin.library.grant(default, "bob")
        a_stopped_answer_is_kept_and_sent_marked_unfinished(alice, server)
        assert alice.store.db.execute("SELECT count(*) FROM messages WHERE ended IS NOT NULL").fetchone()[0] == 1
        assert bob.store.db.execute("SELECT count(*) FROM messages").fetchone()[0] == 0
        assert bob.conversations() == []
    finally:
        for engine in (alice, bob, admin):
            engine.close()


def test_a_library_of_version_8_gets_the_column(pg_server, server, tmp_path):
    """The migration: a library made before answers kept how they ended (no `messages_all.ended`) gets the column
    and the view its administrator's next open; its answers read as whole ones."""
    database = pg_server.new_database("v8")
    admin = Engine(resolve_paths(tmp_path / "admin"), settings(server), library=pg_server.url(database))
    conversation = admin.new_conversation()
    admin.close()
    raw = pg_server.admin(database)
    with contextlib.closing(raw):
        raw.run("DROP VIEW desktop_rag.messages")
        raw.run("ALTER TABLE desktop_rag.messages_all DROP COLUMN ended")
        raw.run("CREATE VIEW desktop_rag.messages AS SELECT id, conversation_id, role, content, sources_json, "
                "created_at, sent_json FROM desktop_rag.messages_all WHERE owner = current_user "
                "WITH CASCADED CHECK OPTION")
        raw.run("INSERT INTO desktop_rag.messages (conversation_id, role, content, created_at) "
                "VALUES (:c, 'assistant', 'Twenty-five days.', 0)", c=conversation)
        raw.run("UPDATE desktop_rag.meta SET value = '8' WHERE key = 'schema_version'")  # (its ocr_lines kept)
        admin = Engine(resolve_paths(tmp_path / "admin"), settings(server), library=pg_server.url(database))
        try:
            assert [(t.content, t.ending) for t in admin.messages(conversation)] == [("Twenty-five days.", None)]
            assert raw.run("SELECT value FROM desktop_rag.meta WHERE key = 'schema_version'") == [[str(SCHEMA_VERSION)]]
        finally:
            admin.close()
