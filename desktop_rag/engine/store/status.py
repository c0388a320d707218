"""The library's state as the status line and `desktop-rag status` show it (`store.values.IndexStatus`)."""

from __future__ import annotations

from desktop_rag.engine.store import staged_vectors
from desktop_rag.engine.store.skipped import skipped_counts
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import IndexStatus


def library_status(store: Store, collection: int | None, model: str, dimension: int | None,
                   multilingual_missing: bool) -> IndexStatus:
    """The library's state, or one collection's (its files, chunks and sources; `model`, its `dimension` when the
    library has none stored, and `multilingual_missing` are the library's)."""
    counts = store.file_counts(collection)
    chunks = store.count_chunks(collection)
    stored = store.get_meta("dimension")
    staged = staged_vectors.model(store)
    done, total = (staged_vectors.count(store), store.count_chunks()) if staged else (0, 0)
    sources = store.sources(collection)
    return IndexStatus(
        embedding_model=model,
        dimension=int(stored) if stored else dimension,
        chunks=chunks,
        chunks_pending_embedding=chunks - store.count_vectors(collection),
        files_total=sum(counts.values()),
        files_indexed=counts.get("indexed", 0),
        files_failed=counts.get("failed", 0),
        files_pending=counts.get("pending", 0),
        files_attachments=store.count_attachments(collection),
        failed_files=tuple(store.failed_files(collection)),
        sources=tuple(s.path for s in sources),
        not_linked=tuple(s.path for s in sources if s.detached),
        reembed_model=staged or "",
        reembed_done=done,
        reembed_total=total,
        multilingual_missing=multilingual_missing,
        skipped=skipped_counts(store, (s.id for s in sources if not s.detached)),
    )


def files_mark(store: Store) -> tuple:
    """What differs once any process (the CLI's `index`, an MCP client, another window, another computer on a
    server) added, read again, failed or removed a document, embedded passages or added a source: the library version
    (moved by the schema's triggers on chunks, vectors, a file moved or deleted, a source moved or deleted), the
    files' count and the sum of their `indexed_at` (stamped by every file written, a failure too; a sum, not a max,
    so another computer's clock behind this one's still moves it), and the newest source's id. One pass over
    `files` (about 15 ms at 100k files, read off the GUI thread after a change). Not SQLite's `PRAGMA data_version`:
    it moves on every commit to any table (each answer's turns, the caches) and does not exist on a server."""
    with store.read_snapshot():
        count, stamps = store.db.execute("SELECT count(*), coalesce(sum(indexed_at), 0) FROM files").fetchone()
        newest = store.db.execute("SELECT coalesce(max(id), 0) FROM sources").fetchone()[0]
        return store.library_version(), int(count), float(stamps), int(newest)


def switch_mark(store: Store) -> tuple[str | None, int]:
    """A model switch's model and how many vectors it has staged ((None, 0): none): what another process's
    re-embedding moves, a batch at a time, and its swap ends (the vectors swapped in move `files_mark`). The count is
    read only during a switch, as the status line reads it."""
    staged = staged_vectors.model(store)
    return staged, staged_vectors.count(store) if staged else 0
