"""Building a checked search scope: folders and files known to the library, known types."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.file_types import TYPE_NAMES
from desktop_rag.engine.paths import display_text, is_inside, normalise_path, subtree_range
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.system_errors import foreign_reason

if TYPE_CHECKING:
    from desktop_rag.engine.store.library import Store

MAX_FOLDERS = 32
MAX_FILES = 32
_SHOWN_CHARS = 300


def build(store: Store, collection: int | None = None, folders: Iterable[str] = (),
          types: Iterable[str] = (), files: Iterable[str] = ()) -> Restriction:
    """A checked Restriction: each folder and file normalised and known to the library, each type known (or
    UsageError)."""
    kinds = tuple(dict.fromkeys(str(t).strip().lower().lstrip(".") for t in types))
    for kind in kinds:
        if kind not in TYPE_NAMES:
            raise UsageError.coded("unknown_type", kind=_shown(kind), types=", ".join(TYPE_NAMES))
    folders = list(folders)
    if len(folders) > MAX_FOLDERS:
        raise UsageError.coded("too_many_folders", n=MAX_FOLDERS)
    chosen: list[str] = []
    for raw in folders:
        if not str(raw).strip():
            raise UsageError.coded("empty_folder_name")
        try:
            folder = display_text(normalise_path(raw))  # undecodable bytes: as a stored name has them
        except (OSError, ValueError) as exc:
            raise UsageError.coded("bad_folder_path", path=_shown(str(raw)), detail=foreign_reason(exc)) from exc
        if not _known_folder(store, folder):
            raise _unknown_folder(store, folder)
        chosen.append(folder)
    return Restriction(collection, tuple(dict.fromkeys(chosen)), kinds, _files(store, files))


def _files(store: Store, files: Iterable[str]) -> tuple[str, ...]:
    """Each file normalised and indexed in the library (a file of any source; UsageError otherwise)."""
    files = list(files)
    if len(files) > MAX_FILES:
        raise UsageError.coded("too_many_files_scope", n=MAX_FILES)
    chosen: list[str] = []
    for raw in files:
        if not str(raw).strip():
            raise UsageError.coded("empty_file_name")
        try:
            path = display_text(normalise_path(raw))
        except (OSError, ValueError) as exc:
            raise UsageError.coded("bad_file_path", path=_shown(str(raw)), detail=foreign_reason(exc)) from exc
        if store.db.execute("SELECT 1 FROM files WHERE path = ?", (path,)).fetchone() is None:
            raise UsageError.coded("not_a_library_file", path=_shown(path))
        chosen.append(path)
    return tuple(dict.fromkeys(chosen))


def _known_folder(store: Store, folder: str) -> bool:
    """The library has a file under `folder`, a source inside it, or a source containing it as a real folder."""
    under = subtree_range(folder)
    row = store.db.execute(
        "SELECT EXISTS (SELECT 1 FROM sources WHERE path = ? OR (path >= ? AND path < ?)) "
        "OR EXISTS (SELECT 1 FROM files WHERE path = ? OR (path >= ? AND path < ?))", under + under).fetchone()
    if row[0]:
        return True
    inside = any(s.kind == "folder" and is_inside(folder, s.path) for s in store.sources())
    return inside and os.path.isdir(folder)  # an (as yet) empty folder of a source; a mistyped one is not


def _unknown_folder(store: Store, folder: str) -> UsageError:
    folders = [s.path for s in store.sources() if s.kind == "folder"]
    listed = ", ".join(f"“{_shown(p)}”" for p in folders[:10]) + (" …" if len(folders) > 10 else "")
    if folders:
        return UsageError.coded("unknown_folder", folder=_shown(folder), folders=listed)
    return UsageError.coded("unknown_folder_none", folder=_shown(folder))


def _shown(text: str) -> str:
    return "".join(ch if ch.isprintable() else "?" for ch in text)[:_SHOWN_CHARS]
