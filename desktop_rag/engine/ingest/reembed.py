"""A model switch without losing search: new vectors are staged beside the old ones, then swapped in.

The old vectors keep answering (with the old model) until every chunk has a staged vector from
the new one; then one transaction replaces the vectors, records the new model and dimension and
bumps the vectors generation, so the FAISS cache is rebuilt from the store. Staged vectors are
committed batch by batch and deleted with their chunk, so a crash or cancel resumes where it
stopped and nothing finished is embedded twice. Keyword search is untouched throughout.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from desktop_rag.engine.models.embedding import Embedder, batch_size_for, embedding_text
from desktop_rag.engine.store import staged_vectors
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.ingest.reports import Progress

log = logging.getLogger(__name__)


def staged_model(store: Store) -> str | None:
    return staged_vectors.model(store)


def staged_counts(store: Store) -> tuple[int, int]:
    """(chunks with a staged vector, all chunks)."""
    return staged_vectors.count(store), store.count_chunks()


def abandon(store: Store) -> None:
    """Forget a staged switch (the user went back to the model the library has)."""
    staged_vectors.abandon(store)


def run(
    store: Store,
    embedder: Embedder,
    cancel: threading.Event,
    on_progress: Callable[[Progress], None],
    deadline: float | None = None,
) -> int | None:
    """Stage vectors for every chunk still without one that no other client holds; how many it staged once none
    is left (ready to swap when no other client holds any), None when stopped before (or when a switch to another
    model began meanwhile: what it embedded is not staged).

    Stops at `cancel`, or after the batch that passes `deadline` (time.monotonic(); at least one batch
    per call, so a run in slices always moves on). A SIGKILL loses at most the batch in flight.
    """
    staged_vectors.begin(store, embedder.model_id)
    done, total = staged_counts(store)
    started, embedded, last_id = time.monotonic(), 0, 0
    batch = batch_size_for(embedder)
    on_progress(Progress("reembed", chunks_embedded=done, chunks_total=total))
    while not cancel.is_set():
        if embedded and deadline is not None and time.monotonic() >= deadline:
            return None
        # claimed until staged: another client switching the same library meanwhile is given other chunks
        with store.claim_pending(batch, last_id, staged=True) as rows:
            if not rows:
                if done < total:  # the rest was another client's: this one's bar ends full
                    on_progress(Progress("reembed", chunks_embedded=done, chunks_total=done))
                return embedded
            last_id = rows[-1][0]
            matrix = embedder.embed([embedding_text(h, t) for _, h, t in rows])
            if not staged_vectors.stage(store, embedder.model_id, [r[0] for r in rows], matrix):
                return None  # another switch began meanwhile: its rows are not this model's to stage
        embedded += len(rows)
        rate = embedded / max(time.monotonic() - started, 1e-6)
        done, total = done + len(rows), max(total, done + len(rows))
        on_progress(Progress("reembed", chunks_embedded=done, chunks_total=total, rate=rate,
                             eta_seconds=max(total - done, 0) / rate if rate else None))
    return None


def switch_model(store: Store, target: str, embedder: Callable[[str], Embedder], swapped: Callable[[], None],
                 cancel: threading.Event, on_progress: Callable[[Progress], None], deadline: float | None) -> int:
    """Move the library to the `target` model if it has another; returns the chunks still to re-embed.
    `embedder` gives a model's embedder; `swapped` is called once the new vectors are in (reload the cache).
    Only a role that sees every collection moves a shared library: a member would re-embed its own collections
    alone and leave the others' vectors under the new model's name (nor does it drop a switch in progress)."""
    if not store.sees_everything():
        return 0
    current = store.get_meta("embedding_model")
    if current is None or target == current:
        if staged_model(store):
            abandon(store)
        return 0
    if not store.has_vectors():  # nothing to keep serving: start over with the target model
        with store.transaction():
            store.delete_meta("embedding_model", "dimension")
        return 0
    new = embedder(target)
    for _ in range(3):  # chunks written by another process between staging and the swap: stage those too
        staged = run(store, new, cancel, on_progress, deadline)
        if staged is None:
            done, total = staged_counts(store)
            return max(total - done, 1)
        if staged_vectors.swap(store, target, new.dimension):
            log.info("Embedding model switched from %s to %s", current, target)
            swapped()
            return 0
        if not staged or store.get_meta("embedding_model") == target:
            return 0  # the rest is another client's, which swaps the vectors in (or has)
    return 1
