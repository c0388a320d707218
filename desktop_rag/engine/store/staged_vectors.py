"""Vectors of the model a library is switching to, staged beside the ones in use (ingest/reembed.py), and the
one transaction that swaps them in.

The switch's mark (`staged_model`) names the model of every staged row. A switch to another model, dropping one
and the swap empty the table under the store's lock for switching (`hold_staged_vectors`): each waits for every
transaction writing staged rows (a batch staged, an edited file's rows copied: store/kept_vectors.py) and holds new
ones back until it commits, so none of the old model's rows is left under the new mark, or with no mark; a batch
checks the mark under the lock for writing. (On SQLite every write transaction is the only writer already.)
"""

from __future__ import annotations

import numpy as np

from desktop_rag.engine.endpoint import model_id_shown
from desktop_rag.engine.store.library import Store

def model(store: Store) -> str | None:
    """The model being staged, or None."""
    return store.get_meta("staged_model")


def count(store: Store) -> int:
    return store.db.execute("SELECT count(*) FROM staged_vectors").fetchone()[0]


def begin(store: Store, model_id: str) -> None:
    """Stage for `model_id` (a different target drops what was staged for another model)."""
    if model(store) == model_id:
        return
    with store.transaction() as db:
        store.hold_staged_vectors(switching=True)
        if store.get_meta("staged_model") != model_id:
            db.execute("DELETE FROM staged_vectors")
            store.set_meta("staged_model", model_id)


def abandon(store: Store) -> None:
    """Forget a staged switch."""
    with store.transaction() as db:
        store.hold_staged_vectors(switching=True)
        db.execute("DELETE FROM staged_vectors")
        db.execute("DELETE FROM meta WHERE key = 'staged_model'")


def stage(store: Store, model_id: str, ids: list[int], matrix: np.ndarray) -> bool:
    """One batch of `model_id`'s vectors, committed (a chunk deleted meanwhile gets none); False, nothing staged,
    when the library is no longer switching to `model_id` (a switch to another model began while it was embedded)."""
    with store.transaction():
        store.hold_staged_vectors()
        if model(store) != model_id:
            return False
        store.add_vectors(ids, matrix, staged=True)
    return True


def swap(store: Store, model_id: str, dimension: int) -> bool:
    """Replace the vectors with the staged ones in one transaction; False if chunks arrived meanwhile, or another
    client swapped them in (the switch's mark is taken first: a second client's swap waits for the first's and
    then finds no switch, where it would have replaced the new vectors with the staged ones it emptied). The
    store's swap holds the staged vectors as a switch's start does: a batch being staged is swapped in with the
    rest, or finds no switch after it (never committed after the swap emptied the table, left staged with no
    switch)."""
    with store.transaction() as db:
        missing = db.execute(
            "SELECT EXISTS (SELECT 1 FROM chunks c LEFT JOIN staged_vectors s ON s.chunk_id = c.id "
            "WHERE s.chunk_id IS NULL)").fetchone()[0]
        mark = db.execute("SELECT value FROM meta WHERE key = 'staged_model'").fetchone()  # as stored (maybe with
        # an address's user:password@, by an earlier version), matched as shown: `endpoint.model_id_shown`
        if missing or not mark or model_id_shown(mark[0]) != model_id or not db.execute(
                "DELETE FROM meta WHERE key = 'staged_model' AND value = ?", (mark[0],)).rowcount:
            return False
        store.swap_staged_vectors()
        store.set_meta("embedding_model", model_id)
        store.set_meta("dimension", str(dimension))
    return True
