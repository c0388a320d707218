"""The answer cache in the library: an answer by its key, and the chunks it was given (SQLite, survives a restart).

Written by the thread that answered (one short transaction, like the turns of a conversation: the cache is not
part of the index, so it does not move the library version nor take the writer lock). A trigger removes every
answer one of whose passages' chunks is deleted or changed (a re-index of the file, its removal, a new chunking);
chunk ids are never reused, so an answer never comes back for other text. An answer made in a conversation
keeps its conversation's id, and a trigger removes it when the conversation is deleted (issue 35).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass

MAX_ANSWERS = 2000  # the oldest go beyond this
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS answer_cache (key TEXT PRIMARY KEY, answer TEXT NOT NULL, mode TEXT NOT NULL, "
    "passages_json TEXT NOT NULL, cited_json TEXT NOT NULL, created_at REAL NOT NULL, conversation_id INTEGER, "
    "sent_json TEXT)",
    "CREATE TABLE IF NOT EXISTS answer_cache_chunks (key TEXT NOT NULL REFERENCES answer_cache(key) "
    "ON DELETE CASCADE, chunk_id INTEGER NOT NULL)",
    "CREATE INDEX IF NOT EXISTS answer_cache_chunk ON answer_cache_chunks(chunk_id)",
    "CREATE INDEX IF NOT EXISTS answer_cache_key ON answer_cache_chunks(key)",
    "CREATE TRIGGER IF NOT EXISTS answer_cache_chunk_deleted AFTER DELETE ON chunks BEGIN "
    "DELETE FROM answer_cache WHERE key IN (SELECT key FROM answer_cache_chunks WHERE chunk_id = old.id); END",
    "CREATE TRIGGER IF NOT EXISTS answer_cache_chunk_changed AFTER UPDATE OF text ON chunks BEGIN "
    "DELETE FROM answer_cache WHERE key IN (SELECT key FROM answer_cache_chunks WHERE chunk_id = old.id); END",
    "CREATE INDEX IF NOT EXISTS answer_cache_conversation ON answer_cache(conversation_id)",
    "CREATE TRIGGER IF NOT EXISTS answer_cache_conversation_deleted AFTER DELETE ON conversations BEGIN "
    "DELETE FROM answer_cache WHERE conversation_id = old.id; END",
)


@dataclass(frozen=True)
class StoredAnswer:
    answer: str
    mode: str
    passages: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # per passage sent: its index among the hits, focus
    cited: tuple[int, ...]  # the passage numbers ([n]) the answer cites
    sent: str | None = None  # what the request sent (answer/sent.py JSON; issue 40), None before it was kept


def install(db: sqlite3.Connection) -> None:
    """Create the tables and triggers (inside the caller's migration transaction). A cache written before answers
    knew their conversation is dropped whole: it may hold answers made with a conversation's history."""
    columns = {r[1] for r in db.execute("PRAGMA table_info(answer_cache)")}
    if columns and "conversation_id" not in columns:
        db.execute("DROP TABLE IF EXISTS answer_cache_chunks")
        db.execute("DROP TABLE answer_cache")
    elif columns and "sent_json" not in columns:  # before "What was sent" (issue 40): those answers show none
        db.execute("ALTER TABLE answer_cache ADD COLUMN sent_json TEXT")
    for statement in SCHEMA:
        db.execute(statement)


def get(db: sqlite3.Connection, key: str) -> StoredAnswer | None:
    try:
        row = db.execute("SELECT answer, mode, passages_json, cited_json, sent_json FROM answer_cache WHERE key = ?",
                         (key,)).fetchone()
    except sqlite3.OperationalError:  # a library opened read-only that predates the cache
        return None
    if row is None:
        return None
    passages = tuple((int(i), tuple((int(a), int(b)) for a, b in focus)) for i, focus in json.loads(row[2]))
    return StoredAnswer(row[0], row[1], passages, tuple(int(n) for n in json.loads(row[3])), row[4])


def put(db: sqlite3.Connection, key: str, stored: StoredAnswer, chunk_ids: Sequence[int],
        conversation_id: int | None = None) -> None:
    """Keep an answer (replacing one under the same key), linked to its passages' chunks and the conversation it
    was made in (call it inside a transaction: `with store.transaction() as db`). Nothing is kept for a
    conversation deleted meanwhile."""
    if conversation_id is not None and db.execute("SELECT 1 FROM conversations WHERE id = ?",
                                                  (conversation_id,)).fetchone() is None:
        return
    passages = json.dumps([[i, [list(span) for span in focus]] for i, focus in stored.passages])
    db.execute("INSERT OR REPLACE INTO answer_cache (key, answer, mode, passages_json, cited_json, created_at, "
               "conversation_id, sent_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               (key, stored.answer, stored.mode, passages, json.dumps(list(stored.cited)), time.time(),
                conversation_id, stored.sent))
    db.execute("DELETE FROM answer_cache_chunks WHERE key = ?", (key,))
    db.executemany("INSERT INTO answer_cache_chunks VALUES (?, ?)", [(key, c) for c in sorted(set(chunk_ids))])
    db.execute("DELETE FROM answer_cache WHERE key IN (SELECT key FROM answer_cache ORDER BY created_at DESC "
               "LIMIT -1 OFFSET ?)", (MAX_ANSWERS,))


def forget(db: sqlite3.Connection, key: str) -> None:
    """Remove the answer under `key` (a Regenerate whose new answer is not kept)."""
    db.execute("DELETE FROM answer_cache WHERE key = ?", (key,))


def clear(db: sqlite3.Connection) -> int:
    """Remove every stored answer (inside a transaction); how many there were."""
    return db.execute("DELETE FROM answer_cache").rowcount


def count(db: sqlite3.Connection) -> int:
    return db.execute("SELECT count(*) FROM answer_cache").fetchone()[0]
