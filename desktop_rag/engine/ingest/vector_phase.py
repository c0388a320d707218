"""An index run's second phase (ingest.py's Ingestor is one): the chunks still without a vector embedded in large
batches across files, committed batch by batch; each batch claimed while it is embedded (another client embedding
the same library is given other chunks); a file the model cannot embed fails alone (`embed_isolation`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from desktop_rag.config import Settings
from desktop_rag.engine.errors import PASS_THROUGH, DesktopRagError, ModelMismatchError
from desktop_rag.engine.heap import release_freed_memory
from desktop_rag.engine.ingest.embed_isolation import embed, embed_by_file
from desktop_rag.engine.ingest.failures import step_failure
from desktop_rag.engine.ingest.reports import Progress
from desktop_rag.engine.models.embedding import Embedder, batch_size_for
from desktop_rag.engine.store.library import Store

if TYPE_CHECKING:
    import numpy as np


class VectorPhase:
    """Embeds the pending queue for the run (the Ingestor supplies its store, settings, embedder, vectors, cancel,
    progress, tally and `_fail`)."""

    store: Store
    settings: Settings
    cancel: threading.Event
    on_progress: Callable[[Progress], None]
    tally: Any
    _embedder: Callable[[], Embedder]
    _vectors: Any
    _fail: Callable[..., None]

    def embed_pending(self) -> int:
        """Embed queued chunks in large batches across files, committing batch by batch."""
        total = self.store.count_chunks() - self.store.count_vectors()
        if total <= 0:
            return 0
        embedder = self._embedder()
        dimension = self._vectors.vectors_for_writing()
        batch = batch_size_for(embedder)
        started = time.monotonic()
        done = last_id = 0
        self.on_progress(Progress("embed", chunks_embedded=0, chunks_total=total))
        while not self.cancel.is_set():
            # claimed until stored: another client embedding the same library meanwhile is given other chunks
            with self.store.claim_pending(batch, after_id=last_id) as rows:  # resumes: linear, not quadratic
                if not rows:
                    break
                last_id = rows[-1][0]
                done += self._embed_batch(embedder, rows, dimension)
            del rows
            release_freed_memory()
            rate = done / max(time.monotonic() - started, 1e-6)
            remaining = max(total - done, 0)
            self.on_progress(Progress("embed", chunks_embedded=done, chunks_total=max(total, done), rate=rate,
                                      eta_seconds=remaining / rate if rate else None))
        if done < total and not self.cancel.is_set():  # the rest was another client's (or went with a failed file)
            self.on_progress(Progress("embed", chunks_embedded=done, chunks_total=done))
        self.tally.embedded += done
        return done

    def _embed_batch(self, embedder: Embedder, rows: list, dimension: int) -> int:
        """Embed and store one batch of pending chunks; how many were embedded (a file that failed leaves `rows`)."""
        matrix = self._embed(embedder, rows)
        if matrix is None:
            return 0
        if matrix.shape[1] != dimension:  # e.g. an endpoint now serving another model under one name
            raise ModelMismatchError.coded("dimension_changed", model=embedder.model_id, now=matrix.shape[1],
                                           held=dimension)
        ids = [r[0] for r in rows]
        stored = set(self.store.add_vectors(ids, matrix))
        keep = [i for i, cid in enumerate(ids) if cid in stored]
        self._vectors.add_loaded_vectors([ids[i] for i in keep], matrix[keep])
        return len(rows)

    def _embed(self, embedder: Embedder, rows: list) -> np.ndarray | None:
        """The vectors of `rows`; when the batch fails, each file's passages alone (`embed_isolation`): a file
        the model cannot embed fails with the reason, its rows leave `rows`, the others are kept."""
        try:
            return embed(embedder, rows, self.settings.embed_batch_size)
        except PASS_THROUGH:
            raise
        except DesktopRagError:
            raise
        except BaseException as exc:  # noqa: BLE001 - which file, if any, is found next
            kept, matrix, failed = embed_by_file(self.store, embedder, rows, self.settings.embed_batch_size, exc)
        rows[:] = kept
        for record, error in failed:
            self._fail(record.source_id, record.path, record.size, record.mtime_ns, record.sha256,
                       step_failure(error, "embedding_failed"), attachment=record.id if record.parent_id else None)
        return matrix
