"""Stored summaries of a document's sections and of whole documents (issue 40), by a hash of their chunks' text.

The key is made by `answer.summarising` from the chunks' text (never their ids, which a re-index renews), the
model and the language, so a second summary, or one of an edited document, asks the model only for the sections
whose text changed. A row keeps its file's id: removing the file (or its source, or collection) removes its
summaries (trigger); "Clear stored answers" empties the table with the answer cache.
"""

from __future__ import annotations

import time

from desktop_rag.engine.store.library import Connection

MAX_SUMMARIES = 5000  # the oldest go beyond this


def get(db: Connection, key: str) -> str | None:
    row = db.execute("SELECT text FROM summary_cache WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def put(db: Connection, key: str, file_id: int, text: str) -> None:
    """Keep a summary (inside a transaction); nothing for a file removed meanwhile."""
    if db.execute("SELECT 1 FROM files WHERE id = ?", (file_id,)).fetchone() is None:
        return
    db.execute("DELETE FROM summary_cache WHERE key = ?", (key,))
    db.execute("INSERT INTO summary_cache (key, file_id, text, created_at) VALUES (?, ?, ?, ?)",
               (key, file_id, text, time.time()))
    db.execute("DELETE FROM summary_cache WHERE created_at < (SELECT created_at FROM summary_cache "
               "ORDER BY created_at DESC LIMIT 1 OFFSET ?)", (MAX_SUMMARIES - 1,))


def clear(db: Connection) -> int:
    """Remove every stored summary (inside a transaction); how many there were."""
    return db.execute("DELETE FROM summary_cache").rowcount


def count(db: Connection) -> int:
    return db.execute("SELECT count(*) FROM summary_cache").fetchone()[0]
