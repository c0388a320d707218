"""The library version: a counter that every committed write able to change search results moves.

SQLite triggers bump `meta.library_version` on any change to chunks or vectors (files added, changed, removed,
embedding progress, a model switch's swap, an import) and to what decides a chunk's scope (a file moved, a
source changed collection, a collection deleted), whichever code path or process writes. Conversations, the
translation cache and the answer cache do not move it. A result cache keyed by it never serves a stale result.
"""

from __future__ import annotations

import sqlite3

VERSION_KEY = "library_version"
_WATCHED = (  # (table, event): each gets one AFTER trigger
    ("chunks", "INSERT"), ("chunks", "DELETE"), ("chunks", "UPDATE"),
    ("vectors", "INSERT"), ("vectors", "DELETE"), ("vectors", "UPDATE"),
    ("files", "UPDATE OF path, source_id"), ("files", "DELETE"),
    ("sources", "UPDATE OF path, collection_id"), ("sources", "DELETE"),
    ("collections", "DELETE"),
)


def _trigger(table: str, event: str) -> str:
    name = f"library_version_{table}_{event.split()[0].lower()}"
    return (f"CREATE TRIGGER IF NOT EXISTS {name} AFTER {event} ON {table} BEGIN "
            f"UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = '{VERSION_KEY}'; END")


def install(db: sqlite3.Connection) -> None:
    """Create the counter and its triggers (inside the caller's migration transaction)."""
    db.execute("INSERT OR IGNORE INTO meta VALUES (?, '0')", (VERSION_KEY,))
    for table, event in _WATCHED:
        db.execute(_trigger(table, event))


def library_version(db: sqlite3.Connection) -> int | None:
    """The current version; None for a library opened read-only that predates the counter (then nothing may
    be cached, since its writers would not move it)."""
    row = db.execute("SELECT value FROM meta WHERE key = ?", (VERSION_KEY,)).fetchone()
    return int(row[0]) if row else None
