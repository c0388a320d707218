"""One file whose passages the model cannot embed fails alone: the batch is embedded again file by file.

The vector phase embeds passages of many files in one batch. When a batch fails with an error that is not the
model's own user-facing one (a `DesktopRagError`: an endpoint down, a model missing, which no file causes and
which ends the run), each file's passages are embedded alone; the files that fail again are returned with their
error, the others' vectors are kept. When every file fails, a one-word text is embedded: if that fails too, the
model itself is broken and the batch's error ends the run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from desktop_rag.engine.errors import PASS_THROUGH, DesktopRagError
from desktop_rag.engine.models.embedding import Embedder, embedding_text
from desktop_rag.engine.store.passages import chunk_files
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import FileRecord

Row = tuple[int, str, str]  # a pending chunk: (id, heading, text)


def embed(embedder: Embedder, rows: Sequence[Row], batch_size: int) -> np.ndarray:
    return embedder.embed([embedding_text(heading, text) for _, heading, text in rows], batch_size=batch_size)


Failed = list[tuple[FileRecord, BaseException]]  # a file whose passages the model refused, and its error


def embed_by_file(store: Store, embedder: Embedder, rows: Sequence[Row], batch_size: int,
                  failure: BaseException) -> tuple[list[Row], np.ndarray | None, Failed]:
    """After `rows` failed together with `failure`: (the rows embedded, their vectors or None, the files that
    failed alone with their error). Raises `failure` when the model fails on any text."""
    files = chunk_files(store, [row[0] for row in rows])
    groups: dict[int, list[Row]] = {}
    for row in rows:
        if row[0] in files:  # a chunk gone meanwhile (its file re-read): nothing to embed
            groups.setdefault(files[row[0]].id, []).append(row)
    kept: list[Row] = []
    parts: list[np.ndarray] = []
    failed: Failed = []
    for group in groups.values():
        try:
            parts.append(embed(embedder, group, batch_size))
        except PASS_THROUGH:
            raise
        except DesktopRagError:
            raise
        except BaseException as exc:  # noqa: BLE001 - a native library's panic too
            failed.append((files[group[0][0]], exc))
            continue
        kept.extend(group)
    if failed and not kept:
        try:
            embedder.embed(["a"], batch_size=1)
        except PASS_THROUGH:
            raise
        except BaseException:  # noqa: BLE001 - the model, not a file
            raise failure from None
    return kept, (np.vstack(parts) if parts else None), failed
