"""An answer that ended short (stopped, cut at its size limit, cut off by the server) is kept in its conversation with
how it ended, on this computer's library (tests/support/unfinished_turns.py; the same on a server:
tests/postgres/test_unfinished_turns.py). Before, a reopened conversation showed a stopped answer's partial text as if
whole (no note), a thinking model's stopped answer not at all, and the next question sent the partial text as a whole
answer."""

from __future__ import annotations

import sqlite3

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.store.sqlite.schema import SCHEMA_VERSION
from desktop_rag.engine.store.values import Ending
from tests.support.unfinished_turns import SCENARIOS, indexed, run, serving


@pytest.fixture
def server(monkeypatch):
    yield from serving(monkeypatch)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
def test_an_unfinished_answer_is_kept_with_how_it_ended(server, tmp_path, scenario):
    run(scenario, tmp_path / "home", tmp_path / "docs", server)


def test_an_older_librarys_answers_read_as_whole_and_its_schema_moves_on(tmp_path):
    """A library of schema 4 (no `messages.ended`) opens and migrates; its answers read as whole ones."""
    home = resolve_paths(tmp_path / "home")
    engine = Engine(home)
    conversation = engine.new_conversation()
    engine.close()
    db = sqlite3.connect(home.data_dir / "library.sqlite3")
    with db:
        db.execute("ALTER TABLE messages DROP COLUMN ended")
        db.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
        db.execute("INSERT INTO messages (conversation_id, role, content, created_at) VALUES (?, 'assistant', "
                   "'Twenty-five days.', 0)", (conversation,))
    db.close()
    engine = Engine(home)
    try:
        assert engine.store.get_meta("schema_version") == str(SCHEMA_VERSION) == "7"
        assert [(t.content, t.ending) for t in engine.messages(conversation)] == [("Twenty-five days.", None)]
    finally:
        engine.close()


@pytest.mark.parametrize("stored", ['{"state": "exploded", "text": "x", "reason": ""}', "[1, 2]", "not json",
                                    '{"state": "stopped"}', "x" * 50_000])
def test_a_damaged_ending_reads_as_none(stored):
    assert Ending.from_json(stored) is None


def test_a_failed_question_the_library_cannot_keep_still_raises_its_own_error(tmp_path):
    """Keeping the failed turn fails too (the library refuses the write: here its connection made query-only): the
    question's own error is the one raised, not the library's."""
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    try:
        indexed(engine, tmp_path / "docs")
        conversation = engine.new_conversation()
        engine.store.db.execute("PRAGMA query_only = ON")
        with pytest.raises(UsageError) as caught:
            list(engine.ask("How much leave?", conversation, files=[str(tmp_path / "docs" / "gone.md")]))
        assert caught.value.code is not None and "gone.md" in str(caught.value)
        engine.store.db.execute("PRAGMA query_only = OFF")
        assert engine.messages(conversation) == []
    finally:
        engine.close()
