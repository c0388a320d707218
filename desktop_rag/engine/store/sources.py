"""Registering folders and files as sources of a collection (no indexing yet): what may be added, and where."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.file_types import is_supported, supported_types
from desktop_rag.engine.paths import display_text, is_inside, normalise_path
from desktop_rag.engine.store import collections
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import SourceRecord


def add(store: Store, paths: Iterable[str | Path], collection: int | None = None) -> list[SourceRecord]:
    """Register `paths` as sources of `collection` (None: the first one). UsageError for a bad path, or for a
    path already in another collection, or an empty one (it would mean the current folder: a script's unset
    variable must not add it), or for a collection that is gone (deleted by another process since it was chosen)."""
    if collection is not None and collections.name_of(store, collection) is None:
        raise UsageError.coded("collection_gone")
    added = []
    for raw in paths:
        if not str(raw).strip():
            raise UsageError.coded("empty_path")
        path = Path(normalise_path(raw))
        if not path.exists():
            raise UsageError.coded("no_such_path", path=raw)
        if not path.is_dir() and not path.is_file():
            raise UsageError.coded("not_regular_path", path=raw)
        if path.is_file() and not is_supported(path):
            raise UsageError.coded("unsupported_source_type", path=raw, types=supported_types())
        added.append(_add(store, str(path), "folder" if path.is_dir() else "file", collection))
    return added


def _add(store: Store, path: str, kind: str, collection: int | None = None) -> SourceRecord:
    """A path already covered by a source is that source (in its own collection when none is named)."""
    named = collection is not None
    collection = store.first_collection_id() if collection is None else collection
    for existing in store.sources():
        overlaps = existing.path == path or (existing.kind == "folder" and is_inside(path, existing.path))
        if existing.detached and (overlaps or is_inside(existing.path, path)):
            raise UsageError.coded("overlaps_not_linked", path=path, other=existing.path)
        if overlaps and not named:
            return existing
        if overlaps or (kind == "folder" and is_inside(existing.path, path)):
            if existing.collection_id != collection:  # a file is in one collection only
                raise UsageError.coded("overlaps_collection", path=path, other=existing.path,
                                       collection=collections.name_of(store, existing.collection_id))
            if overlaps:
                return existing
    refuse_hidden_overlap(store, path)
    store.add_source(path, kind, collection)
    new = store.source_by_path(path)
    if kind == "folder":  # absorb sources inside the new folder
        with store.transaction() as db:
            for inner in store.sources():
                if inner.id != new.id and is_inside(inner.path, path):
                    db.execute("UPDATE files SET source_id = ? WHERE source_id = ?", (new.id, inner.id))
                    db.execute("DELETE FROM sources WHERE id = ?", (inner.id,))
    return new


def refuse_hidden_overlap(store: Store, path: str) -> None:
    """UsageError when `path` is, holds or lies inside a source of a collection this role may not see (on a server:
    its own check above cannot see those sources), without saying which (a file or folder is in one collection)."""
    if store.overlaps_hidden_source(path):
        raise UsageError.coded("source_not_granted", path=display_text(path))


def remove(store: Store, path: str | Path, collection: int | None = None) -> list[int] | None:
    """Forget the source at `path` (of `collection`, if given) with its files and chunks: the chunk ids whose
    vectors went with them, or None when it is not such a source."""
    source = store.source_by_path(normalise_path(path))
    if source is None or (collection is not None and source.collection_id != collection):
        return None
    return store.remove_source(source.id)
