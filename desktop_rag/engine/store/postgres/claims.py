"""The embedding queues of a library on a server, shared by its clients: each chunk committed as text but without a
vector yet is embedded by one client, and so is each chunk still without a staged vector while the library moves to
another model (ingest/reembed.py). A client claims a batch with a session advisory lock per chunk, which another
client's claim skips (never waits for) and which the server lets go with the session: a client killed or cut off
mid-batch leaves its chunks for the next run. No transaction stays open while a batch is embedded."""

from __future__ import annotations

import contextlib
from typing import Literal

from desktop_rag.engine.store.postgres.connection import Connection, ServerGoneError

Row = tuple[int, str, str]  # a pending chunk: (id, heading, text)
Queue = Literal["vectors", "staged_vectors"]  # the table a chunk's vector goes to

# a chunk's lock in each queue, the two-key form the app uses for nothing else: its id's two halves, the first one
# negative in the model switch's queue (pg_locks shows a chunk below 2^31 as objid = its id, objsubid 2, classid 0
# for the embedding queue, 4294967295 for the switch's), so the two queues never hold each other back
_KEYS = {"vectors": "(id >> 31)::int", "staged_vectors": "(-1 - (id >> 31))::int"}


def _key(queue: Queue) -> str:
    return f"{_KEYS[queue]}, (id & 2147483647)::int"


def claim(db: Connection, limit: int, after_id: int, queue: Queue = "vectors") -> list[Row]:
    """Up to `limit` chunks without a row in `queue` above `after_id` that no other session holds, by id, now held by
    this one (`give_back` them); [] when none is left."""
    no_vector = f"NOT EXISTS (SELECT 1 FROM {queue} v WHERE v.chunk_id = c.id)"
    while True:
        candidates = db.execute(
            f"SELECT id, pg_try_advisory_lock({_key(queue)}) FROM (SELECT c.id FROM chunks c WHERE c.id > ? AND "
            f"{no_vector} ORDER BY c.id LIMIT ?) AS pending", (after_id, limit)).fetchall()
        if not candidates:
            return []
        held = [int(r[0]) for r in candidates if r[1]]
        # read again once held: another client may have stored a chunk's vector and let it go after the candidates
        # were read
        rows = db.execute(f"SELECT c.id, c.heading, c.text FROM chunks c WHERE c.id = ANY (?::bigint[]) "
                          f"AND {no_vector} ORDER BY c.id", (held,)).fetchall() if held else []
        give_back(db, sorted(set(held) - {r[0] for r in rows}), queue)
        if rows:
            return rows
        after_id = int(candidates[-1][0])


def give_back(db: Connection, chunk_ids: list[int], queue: Queue = "vectors") -> None:
    """Let other clients have these chunks of `queue` again (a lost connection's session let them go already)."""
    if not chunk_ids or db.broken:
        return
    with contextlib.suppress(ServerGoneError):
        db.execute(f"SELECT pg_advisory_unlock({_key(queue)}) FROM unnest(?::bigint[]) AS held(id)", (chunk_ids,))
