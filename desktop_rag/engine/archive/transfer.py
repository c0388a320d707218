"""A whole library copied to another location (`desktop-rag move-library`: this computer's to a server, or back):
every collection with its sources, files, passages and vectors, in one transaction of the target, so nothing is
embedded again. Sources keep whether they are linked to this computer; the source library is left as it was."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

import numpy as np

from desktop_rag.engine.errors import ModelMismatchError, UsageError
from desktop_rag.engine.store import archive_rows, chunking, collections
from desktop_rag.engine.store.library import Store


class Loaded(Protocol):
    """What a copy takes from the target library's runtime (engine/runtime.py)."""

    def writing(self) -> AbstractContextManager[None]: ...
    def add_loaded_vectors(self, chunk_ids: np.ndarray, matrix: np.ndarray) -> None: ...
    def save_vectors(self) -> None: ...


def copy_library(source: Store, loaded: Loaded, target: Store) -> dict:
    """Copy `source` into `target` (which must hold none of its collections' names with content, nor its sources'
    paths, nor vectors of another model), its new vectors into the target's dense index. Returns what was
    copied."""
    with loaded.writing():
        totals = _copy_rows(source, target)
        for ids, matrix in totals.pop("new_vectors"):
            loaded.add_loaded_vectors(ids, matrix)
        loaded.save_vectors()
    return totals


def _copy_rows(source: Store, target: Store) -> dict:
    """The rows of every collection, in one transaction of the target; what was copied, with the new (chunk ids,
    vectors) per collection."""
    model, dimension = source.get_meta("embedding_model"), source.get_meta("dimension")
    held = target.get_meta("embedding_model")
    if source.has_vectors() and target.has_vectors() and held != model:
        raise ModelMismatchError.coded("library_copy_model", model=model, library_model=held)
    settings = chunking.recorded(source) or {}  # none when what is recorded cannot cut text
    totals = {"collections": 0, "files": 0, "chunks": 0, "vectors": 0, "to": target.location, "new_vectors": []}
    existing = {c.name.lower(): c for c in collections.listing(target)}
    with target.transaction():
        for collection in collections.listing(source):
            clash = existing.get(collection.name.lower())
            if clash is not None and (clash.sources or clash.files):
                raise UsageError.coded("library_copy_clash", name=collection.name)
            if clash is not None:
                collections.drop_empty(target, clash.id)  # an empty one of the same name (a new library's "Default")
            sources, files, chunks, ids, vectors = archive_rows.collection_rows(source, collection.id)
            for s in sources:
                if target.source_by_path(s["path"]) is not None:
                    raise UsageError.coded("library_copy_path", path=s["path"])
            linked = {s.id: s.detached for s in source.sources(collection.id)}
            _, new_ids = archive_rows.insert_collection(
                target, collection.name, sources, files, chunks, {s["id"]: s["path"] for s in sources},
                {f["id"]: f["path"] for f in files}, linked,
                (ids, vectors, model, int(dimension) if dimension else None) if len(ids) else None, settings)
            totals["collections"] += 1
            totals["files"] += len(files)
            totals["chunks"] += len(chunks)
            totals["vectors"] += len(new_ids)
            totals["new_vectors"].append((new_ids, vectors))
    return totals
