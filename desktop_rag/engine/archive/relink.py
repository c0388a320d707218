"""Linking a source imported without its documents ("not linked") to a folder or file the user chose.

Until then such a source is never scanned, watched or opened: its path came from someone else's computer.
Linking moves the source and each of its files below the chosen place and marks every file for one hash
check, so a file whose content is what the archive indexed keeps its passages and any other is read anew.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.file_types import is_supported, supported_types
from desktop_rag.engine.paths import attachment_part, attachment_path, is_inside, normalise_path
from desktop_rag.engine.store import archive_rows, collections, sources
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import SourceRecord


def relink(store: Store, source: SourceRecord, chosen: str | Path) -> SourceRecord:
    """Point the not-linked `source` at `chosen` (a folder, or a file for a file source); UsageError if that
    is not possible (wrong kind, missing, or overlapping another source). The caller indexes it afterwards."""
    if not source.detached:
        raise UsageError.coded("already_linked", path=source.path)
    if not str(chosen).strip():  # not the current folder
        raise UsageError.coded("empty_path")
    target = normalise_path(chosen)
    if source.kind == "folder" and not os.path.isdir(target):
        raise UsageError.coded("link_not_folder", path=source.path, chosen=chosen)
    if source.kind == "file" and not (os.path.isfile(target) and is_supported(target)):
        raise UsageError.coded("link_not_document", types=supported_types(), path=source.path, chosen=chosen)
    for other in store.sources():
        if other.id != source.id and (is_inside(target, other.path) or is_inside(other.path, target)):
            raise UsageError.coded("link_overlaps", target=target, other=other.path,
                                   collection=collections.name_of(store, other.collection_id))
    sources.refuse_hidden_overlap(store, target)
    files = store.files(source.id)
    moved = {f.id: target if source.kind == "file" else os.path.join(target, *_below(f.path, source.path))
             for f in files if f.parent_id is None}
    paths = {f.id: f.path for f in files}  # an attachment follows its message
    moved.update({f.id: attachment_path(moved[f.parent_id], attachment_part(paths[f.parent_id], f.path))
                  for f in files if f.parent_id in moved})
    if len(set(moved.values())) != len(moved):
        raise UsageError.coded("link_collision", path=source.path, target=target)
    archive_rows.relink_rows(store, source.id, target, moved)  # the next run checks each file's hash
    return store.source_by_path(target)


def _below(path: str, root: str) -> list[str]:
    """The parts of `path` below `root`, as written on any system (the archive's rows keep files inside)."""
    trimmed = root.rstrip("/\\")
    rest = path[len(trimmed) + 1:] if path.startswith(trimmed) else re.split(r"[/\\]", path)[-1]
    return [part for part in re.split(r"[/\\]", rest) if part not in ("", ".", "..")] or ["document"]


def relink_path(store: Store, path: str, chosen: str | Path, collection: int | None = None) -> SourceRecord:
    """`relink` for the source at `path` (of `collection`, if given); UsageError when there is no such source."""
    source = store.source_by_path(path)
    if source is None or (collection is not None and source.collection_id != collection):
        raise UsageError.coded("not_a_source", path=path)
    return relink(store, source, chosen)
