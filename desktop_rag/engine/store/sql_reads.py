"""What the two backends' stores read the same way (sql_store.SqlStore's reads): counts of chunks, vectors, files and
attachments, the failed files, and chunks as passages (`Hit`) with their provenance."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.library import Connection
from desktop_rag.engine.store.values import FailedFile, Hit

IN_COLLECTION = "f.source_id IN (SELECT id FROM sources WHERE collection_id = ?)"


class SqlReads:
    """One connection's reads that both SQL engines run; the backend supplies `iter_vectors`."""

    db: Connection

    def iter_vectors(self, batch: int = 20000, chunk_ids: Sequence[int] | None = None,
                     collection_id: int | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """The stored vectors in batches of (ids, matrix): the backend's."""
        raise NotImplementedError

    def count_chunks(self, collection_id: int | None = None) -> int:
        if collection_id is None:
            return self.db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        return self.db.execute(f"SELECT count(*) FROM chunks c JOIN files f ON f.id = c.file_id WHERE {IN_COLLECTION}",
                               (collection_id,)).fetchone()[0]

    def count_vectors(self, collection_id: int | None = None) -> int:
        if collection_id is None:
            return self.db.execute("SELECT count(*) FROM vectors").fetchone()[0]
        return len(self.collection_vector_ids(collection_id))

    def collection_vector_ids(self, collection_id: int) -> np.ndarray:
        """The sorted ids of a collection's chunks that have a vector."""
        cursor = self.db.execute(
            "SELECT v.chunk_id FROM sources s JOIN files f ON f.source_id = s.id JOIN chunks c ON c.file_id = f.id "
            "JOIN vectors v ON v.chunk_id = c.id WHERE s.collection_id = ?", (collection_id,))
        return np.sort(np.fromiter((r[0] for r in cursor), dtype=np.int64))

    def stored_vectors(self, chunk_ids: Sequence[int]) -> dict[int, np.ndarray]:
        """The stored vectors of these chunks, by chunk id."""
        found: dict[int, np.ndarray] = {}
        for ids, matrix in self.iter_vectors(chunk_ids=chunk_ids):
            found.update(zip(ids.tolist(), matrix))
        return found

    def has_vectors(self) -> bool:
        """Whether any vector is stored (constant time, unlike a count)."""
        return self.db.execute("SELECT EXISTS (SELECT 1 FROM vectors)").fetchone()[0] == 1

    def file_counts(self, collection_id: int | None = None) -> dict[str, int]:
        if collection_id is None:
            return dict(self.db.execute("SELECT status, count(*) FROM files GROUP BY status").fetchall())
        return dict(self.db.execute(f"SELECT status, count(*) FROM files f WHERE {IN_COLLECTION} GROUP BY status",
                                    (collection_id,)).fetchall())

    def count_attachments(self, collection_id: int | None = None) -> int:
        """How many files are attachments of another (e-mail attachments, documents of their own)."""
        where, args = (f" AND {IN_COLLECTION}", (collection_id,)) if collection_id is not None else ("", ())
        return self.db.execute(f"SELECT count(*) FROM files f WHERE parent_id IS NOT NULL{where}", args).fetchone()[0]

    def failed_files(self, collection_id: int | None = None) -> list[FailedFile]:
        where, args = (f" AND {IN_COLLECTION}", (collection_id,)) if collection_id is not None else ("", ())
        rows = self.db.execute(f"SELECT path, error, reason FROM files f WHERE status = 'failed'{where} ORDER BY path",
                               args).fetchall()
        return [FailedFile(p, Reason.stored(e, r)) for p, e, r in rows]

    def hits_for(self, scored: Sequence[tuple[int, float]]) -> list[Hit]:
        """Turn (chunk_id, score) pairs into Hits with provenance, keeping the order; unknown ids are skipped."""
        if not scored:
            return []
        ids = [cid for cid, _ in scored]
        marks = ",".join("?" * len(ids))
        rows = self.db.execute(
            "SELECT c.id, f.path, c.page, c.heading, c.text, c.file_id, c.ordinal, c.char_start, c.char_end, c.ocr "
            f"FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id IN ({marks})",
            ids,
        ).fetchall()
        by_id = {r[0]: r for r in rows}
        hits = []
        for cid, score in scored:
            r = by_id.get(cid)
            if r:
                hits.append(Hit(cid, float(score), r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], bool(r[9])))
        return hits

