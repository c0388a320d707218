"""Stored summaries of a document's sections and of whole documents (issue 40), by a hash of their chunks' text.

The key is made by `answer.summarising` from the chunks' text (never their ids, which a re-index renews), the
model and the language, so a second summary, or one of an edited document, asks the model only for the sections
whose text changed. A row keeps its file's id: removing the file (or its source, or collection) removes its
summaries (trigger); "Clear stored answers" empties the table with the answer cache.
"""

from __future__ import annotations

import sqlite3
import time

MAX_SUMMARIES = 5000  # the oldest go beyond this
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS summary_cache (key TEXT PRIMARY KEY, file_id INTEGER NOT NULL, text TEXT NOT NULL, "
    "created_at REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS summary_cache_file ON summary_cache(file_id)",
    "CREATE TRIGGER IF NOT EXISTS summary_cache_file_deleted AFTER DELETE ON files BEGIN "
    "DELETE FROM summary_cache WHERE file_id = old.id; END",
)


def install(db: sqlite3.Connection) -> None:
    """Create the table and trigger (inside the caller's migration transaction)."""
    for statement in SCHEMA:
        db.execute(statement)


def get(db: sqlite3.Connection, key: str) -> str | None:
    try:
        row = db.execute("SELECT text FROM summary_cache WHERE key = ?", (key,)).fetchone()
    except sqlite3.OperationalError:  # a library opened read-only that predates the table
        return None
    return row[0] if row else None


def put(db: sqlite3.Connection, key: str, file_id: int, text: str) -> None:
    """Keep a summary (inside a transaction); nothing for a file removed meanwhile."""
    if db.execute("SELECT 1 FROM files WHERE id = ?", (file_id,)).fetchone() is None:
        return
    db.execute("INSERT OR REPLACE INTO summary_cache VALUES (?, ?, ?, ?)", (key, file_id, text, time.time()))
    db.execute("DELETE FROM summary_cache WHERE key IN (SELECT key FROM summary_cache ORDER BY created_at DESC "
               "LIMIT -1 OFFSET ?)", (MAX_SUMMARIES,))


def clear(db: sqlite3.Connection) -> int:
    """Remove every stored summary (inside a transaction); how many there were."""
    try:
        return db.execute("DELETE FROM summary_cache").rowcount
    except sqlite3.OperationalError:
        return 0


def count(db: sqlite3.Connection) -> int:
    try:
        return db.execute("SELECT count(*) FROM summary_cache").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
