"""One archive import, start to end: the archive read and checked (archive_file.py), whether its vectors can serve
this library, its rows written as a new collection in one transaction (importer.py), its vectors added to the
loaded cache and the cache saved.

`Engine.import_archive` only delegates; what is loaded (the writing lock, the model the library uses, the vector
cache) comes from the runtime, passed in as `Loaded`, and the library is reached through the store it is given.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

import numpy as np

from desktop_rag.engine.archive.archive_file import ArchiveContent, read_archive
from desktop_rag.engine.archive.importer import ImportReport, documents_folder_free, import_content, model_problem
from desktop_rag.engine.errors import ModelMismatchError
from desktop_rag.engine.paths import normalise_path
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.library import Store


class Loaded(Protocol):
    """What an import takes from the runtime (engine/runtime.py)."""

    index_model: str

    def writing(self) -> AbstractContextManager[None]: ...
    def target_model(self, settings=None, more_text: Iterable[str] = ()) -> str: ...
    def add_loaded_vectors(self, chunk_ids: np.ndarray, matrix: np.ndarray) -> None: ...
    def save_vectors(self) -> None: ...


def vectors_problem(loaded: Loaded, store: Store, content: ArchiveContent) -> Reason | None:
    """Why the archive's vectors cannot serve this library (its passages would then be embedded again), or None."""
    dimension = store.get_meta("dimension")  # no vectors yet: the model the settings ask for, "auto"
    model = store.get_meta("embedding_model") or loaded.target_model(  # counting the archive's text
        more_text=(c["text"] for c in content.chunks))
    return model_problem(content, model, int(dimension) if dimension else None)


def import_archive(loaded: Loaded, store: Store, path: str | Path, *, name: str | None = None,
                   documents_dir: str | Path | None = None, reembed: bool = False,
                   content: ArchiveContent | None = None) -> ImportReport:
    """Import the archive at `path` (or its `content`, already read) as a new collection. Its vectors are used
    when they come from this library's model; otherwise ModelMismatchError, unless `reembed` (its chunks then
    wait for the vector phase). Included documents go to `documents_dir` (default: a new folder beside the archive)."""
    path = Path(path)
    with loaded.writing():
        content = content or read_archive(path)
        problem = vectors_problem(loaded, store, content)
        if problem and not reembed:
            raise ModelMismatchError.coded("archive_model", model=content.model, library_model=loaded.index_model,
                                           count=len(content.chunks))
        folder = (Path(documents_dir) if documents_dir else _beside(path)) if content.documents else None
        report, ids, matrix = import_content(
            store, content, name=name, use_vectors=problem is None,
            documents_dir=Path(normalise_path(folder)) if folder is not None else None, zip_path=path)
        loaded.add_loaded_vectors(ids, matrix)
        loaded.save_vectors()
        return report


def _beside(archive: Path) -> Path:
    """The documents' default folder: "NAME documents" beside the archive, or "NAME documents (2)", (3), ... when
    that one holds an earlier import's (the archive imported again, into this or another library)."""
    folder, n = archive.with_name(f"{archive.stem} documents"), 2
    while not documents_folder_free(folder):
        folder, n = archive.with_name(f"{archive.stem} documents ({n})"), n + 1
    return folder
