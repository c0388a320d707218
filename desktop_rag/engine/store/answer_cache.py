"""The answer cache in the library: an answer by its key, and the chunks it was given (survives a restart; on a
server, each role has its own).

Written by the thread that answered (one short transaction, like the turns of a conversation: the cache is not
part of the index, so it does not move the library version nor take the writer lock). A trigger removes every
answer one of whose passages' chunks is deleted or changed (a re-index of the file, its removal, a new chunking);
chunk ids are never reused, so an answer never comes back for other text. An answer made in a conversation
keeps its conversation's id, and a trigger removes it when the conversation is deleted (issue 35).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_rag.engine.store.library import Connection

MAX_ANSWERS = 2000  # the oldest go beyond this


@dataclass(frozen=True)
class StoredAnswer:
    answer: str
    mode: str
    passages: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # per passage sent: its index among the hits, focus
    cited: tuple[int, ...]  # the passage numbers ([n]) the answer cites
    sent: str | None = None  # what the request sent (answer/sent.py JSON; issue 40), None before it was kept


def get(db: Connection, key: str) -> StoredAnswer | None:
    row = db.execute("SELECT answer, mode, passages_json, cited_json, sent_json FROM answer_cache WHERE key = ?",
                     (key,)).fetchone()
    if row is None:
        return None
    passages = tuple((int(i), tuple((int(a), int(b)) for a, b in focus)) for i, focus in json.loads(row[2]))
    return StoredAnswer(row[0], row[1], passages, tuple(int(n) for n in json.loads(row[3])), row[4])


def put(db: Connection, key: str, stored: StoredAnswer, chunk_ids: Sequence[int],
        conversation_id: int | None = None) -> None:
    """Keep an answer (replacing one under the same key), linked to its passages' chunks (`chunk_ids`: every chunk
    of each) and the conversation it was made in (call it inside a transaction: `with store.transaction() as db`).
    Nothing is kept for a conversation deleted meanwhile."""
    if conversation_id is not None and db.execute("SELECT 1 FROM conversations WHERE id = ?",
                                                  (conversation_id,)).fetchone() is None:
        return
    passages = json.dumps([[i, [list(span) for span in focus]] for i, focus in stored.passages])
    db.execute("DELETE FROM answer_cache WHERE key = ?", (key,))
    db.execute("INSERT INTO answer_cache (key, answer, mode, passages_json, cited_json, created_at, "
               "conversation_id, sent_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               (key, stored.answer, stored.mode, passages, json.dumps(list(stored.cited)), time.time(),
                conversation_id, stored.sent))
    db.executemany("INSERT INTO answer_cache_chunks (key, chunk_id) VALUES (?, ?)",
                   [(key, c) for c in sorted(set(chunk_ids))])
    db.execute("DELETE FROM answer_cache WHERE created_at < (SELECT created_at FROM answer_cache "
               "ORDER BY created_at DESC LIMIT 1 OFFSET ?)", (MAX_ANSWERS - 1,))


def forget(db: Connection, key: str) -> None:
    """Remove the answer under `key` (a Regenerate whose new answer is not kept)."""
    db.execute("DELETE FROM answer_cache WHERE key = ?", (key,))


def clear(db: Connection) -> int:
    """Remove every stored answer (inside a transaction); how many there were."""
    return db.execute("DELETE FROM answer_cache").rowcount


def count(db: Connection) -> int:
    return db.execute("SELECT count(*) FROM answer_cache").fetchone()[0]
