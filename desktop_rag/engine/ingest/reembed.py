"""A model switch without losing search: new vectors are staged beside the old ones, then swapped in.

The old vectors keep answering (with the old model) until every chunk has a staged vector from
the new one; then one transaction replaces the vectors, records the new model and dimension and
bumps the vectors generation, so the FAISS cache is rebuilt from the store. Staged vectors are
committed batch by batch and deleted with their chunk, so a crash or cancel resumes where it
stopped and nothing finished is embedded twice. Keyword search is untouched throughout.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np

from desktop_rag.engine.models.embedding import Embedder, batch_size_for, embedding_text
from desktop_rag.engine.store.store import Store
from desktop_rag.engine.types import Progress

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS staged_vectors ("
    " chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE, vector BLOB NOT NULL)"
)


def ensure_schema(store: Store) -> None:
    store.db.execute(_SCHEMA)


def staged_model(store: Store) -> str | None:
    return store.get_meta("staged_model")


def staged_counts(store: Store) -> tuple[int, int]:
    """(chunks with a staged vector, all chunks)."""
    ensure_schema(store)
    done = store.db.execute("SELECT count(*) FROM staged_vectors").fetchone()[0]
    return done, store.count_chunks()


def begin(store: Store, model_id: str) -> None:
    """Start staging for `model_id` (a different target drops what was staged for another model)."""
    ensure_schema(store)
    with store.transaction() as db:
        if store.get_meta("staged_model") != model_id:
            db.execute("DELETE FROM staged_vectors")
            store.set_meta("staged_model", model_id)


def abandon(store: Store) -> None:
    """Forget a staged switch (the user went back to the model the library has)."""
    ensure_schema(store)
    with store.transaction() as db:
        db.execute("DELETE FROM staged_vectors")
        db.execute("DELETE FROM meta WHERE key = 'staged_model'")


def _pending(store: Store, limit: int, after_id: int) -> list[tuple[int, str, str]]:
    return store.db.execute(
        "SELECT c.id, c.heading, c.text FROM chunks c LEFT JOIN staged_vectors s ON s.chunk_id = c.id "
        "WHERE s.chunk_id IS NULL AND c.id > ? ORDER BY c.id LIMIT ?", (after_id, limit),
    ).fetchall()


def _stage(store: Store, ids: list[int], matrix: np.ndarray) -> None:
    with store.transaction() as db:
        for chunk_id, vec in zip(ids, matrix):
            db.execute(
                "INSERT OR REPLACE INTO staged_vectors (chunk_id, vector) SELECT id, ? FROM chunks WHERE id = ?",
                (np.asarray(vec, dtype=np.float32).tobytes(), chunk_id),
            )


def run(
    store: Store,
    embedder: Embedder,
    cancel: threading.Event,
    on_progress: Callable[[Progress], None],
    deadline: float | None = None,
) -> bool:
    """Stage vectors for every chunk still without one; True when complete (ready to swap).

    Stops at `cancel`, or after the batch that passes `deadline` (time.monotonic(); at least one batch
    per call, so a run in slices always moves on). A SIGKILL loses at most the batch in flight.
    """
    begin(store, embedder.model_id)
    done, total = staged_counts(store)
    started, embedded, last_id = time.monotonic(), 0, 0
    batch = batch_size_for(embedder)
    on_progress(Progress("reembed", chunks_embedded=done, chunks_total=total))
    while not cancel.is_set():
        if embedded and deadline is not None and time.monotonic() >= deadline:
            return False
        rows = _pending(store, batch, last_id)
        if not rows:
            return True
        last_id = rows[-1][0]
        matrix = embedder.embed([embedding_text(h, t) for _, h, t in rows])
        _stage(store, [r[0] for r in rows], matrix)
        embedded += len(rows)
        rate = embedded / max(time.monotonic() - started, 1e-6)
        done, total = done + len(rows), max(total, done + len(rows))
        on_progress(Progress("reembed", chunks_embedded=done, chunks_total=total, rate=rate,
                             eta_seconds=max(total - done, 0) / rate if rate else None))
    return False


def swap(store: Store, model_id: str, dimension: int) -> bool:
    """Replace the vectors with the staged ones in one transaction; False if chunks arrived meanwhile."""
    with store.transaction() as db:
        missing = db.execute(
            "SELECT EXISTS (SELECT 1 FROM chunks c LEFT JOIN staged_vectors s ON s.chunk_id = c.id "
            "WHERE s.chunk_id IS NULL)").fetchone()[0]
        if missing or store.get_meta("staged_model") != model_id:
            return False
        db.execute("DELETE FROM vectors")
        db.execute("INSERT INTO vectors (chunk_id, vector) SELECT chunk_id, vector FROM staged_vectors")
        db.execute("DELETE FROM staged_vectors")
        db.execute("DELETE FROM meta WHERE key = 'staged_model'")
        store.set_meta("embedding_model", model_id)
        store.set_meta("dimension", str(dimension))
        db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vectors_generation'")
    return True
