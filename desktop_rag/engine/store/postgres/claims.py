"""The embedding queue of a library on a server, shared by its clients: each chunk committed as text but without a
vector yet is embedded by one client. A client claims a batch with a session advisory lock per chunk, which another
client's claim skips (never waits for) and which the server lets go with the session: a client killed or cut off
mid-batch leaves its chunks for the next run. No transaction stays open while a batch is embedded."""

from __future__ import annotations

import contextlib

from desktop_rag.engine.store.postgres.connection import Connection, ServerGoneError

Row = tuple[int, str, str]  # a pending chunk: (id, heading, text)

_NO_VECTOR = "NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)"
# a chunk's lock: its id's two halves, the two-key form the app uses for nothing else (pg_locks shows a chunk below
# 2^31 as objid = its id, objsubid 2)
_KEY = "(id >> 31)::int, (id & 2147483647)::int"


def claim(db: Connection, limit: int, after_id: int) -> list[Row]:
    """Up to `limit` chunks without a vector above `after_id` that no other session holds, by id, now held by this
    one (`give_back` them); [] when none is left."""
    while True:
        candidates = db.execute(
            f"SELECT id, pg_try_advisory_lock({_KEY}) FROM (SELECT c.id FROM chunks c WHERE c.id > ? AND {_NO_VECTOR} "
            "ORDER BY c.id LIMIT ?) AS pending", (after_id, limit)).fetchall()
        if not candidates:
            return []
        held = [int(r[0]) for r in candidates if r[1]]
        # read again once held: another client may have stored a chunk's vector and let it go after the candidates
        # were read
        rows = db.execute(f"SELECT c.id, c.heading, c.text FROM chunks c WHERE c.id = ANY (?::bigint[]) "
                          f"AND {_NO_VECTOR} ORDER BY c.id", (held,)).fetchall() if held else []
        give_back(db, sorted(set(held) - {r[0] for r in rows}))
        if rows:
            return rows
        after_id = int(candidates[-1][0])


def give_back(db: Connection, chunk_ids: list[int]) -> None:
    """Let other clients have these chunks again (a lost connection's session let them go already)."""
    if not chunk_ids or db.broken:
        return
    with contextlib.suppress(ServerGoneError):
        db.execute(f"SELECT pg_advisory_unlock({_KEY}) FROM unnest(?::bigint[]) AS held(id)", (chunk_ids,))
