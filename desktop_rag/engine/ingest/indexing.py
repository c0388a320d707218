"""One index run, start to end: the chunking settings checked, the sources added or chosen, both phases over them
(ingest.py: text per file, then the vectors), the library moved to another embedding model when the settings ask
for one (reembed.py), and the vector cache saved; and a full re-index.

`Engine.index` only delegates; what is loaded (the file reader, the embedders, the vectors, the writing lock)
comes from the runtime, passed in as `Loaded`, and the library is reached through the store it is given: neither
the vector index nor SQLite is touched here, so another storage backend changes nothing in this flow.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

from desktop_rag.config import INDEX_SETTINGS, Settings
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.ingest import reembed
from desktop_rag.engine.ingest.ingest import FileCallback, Ingestor, ProgressCallback, Vectors
from desktop_rag.engine.ingest.parsing import SafeParser
from desktop_rag.engine.ingest.reports import IndexReport
from desktop_rag.engine.models.embedding import Embedder
from desktop_rag.engine.paths import is_inside, normalise_path
from desktop_rag.engine.store import chunking
from desktop_rag.engine.store import sources as library_sources
from desktop_rag.engine.store.library import Store


class Loaded(Vectors, Protocol):
    """What an index run takes from the runtime (engine/runtime.py)."""

    settings: Settings

    def writing(self) -> AbstractContextManager[None]: ...
    def parser(self) -> SafeParser: ...
    def embedder(self, model_id: str | None = None) -> Embedder: ...
    def target_model(self, settings: Settings | None = None, more_text: Iterable[str] = ()) -> str: ...
    def drop_vectors(self, delete_file: bool = False, reload: bool = False) -> None: ...
    def save_vectors(self) -> None: ...


def index(loaded: Loaded, store: Store, paths: Iterable[str | Path] | None = None, *,
          cancel: threading.Event | None = None, on_progress: ProgressCallback | None = None,
          on_file: FileCallback | None = None, embed: bool = True, force: Sequence[str | Path] = (),
          reembed_budget_s: float | None = None, collection: int | None = None) -> IndexReport:
    """Add `paths` as sources (if given) and reconcile them; None reconciles every linked source (of `collection`
    if given; new paths join `collection`, or the first collection). `force`: files read again even if unchanged.
    A model switch the settings ask for runs after the text (for at most `reembed_budget_s`, None: to the end).
    ModelMismatchError when the library was chunked with other settings (`reindex`)."""
    settings = loaded.settings
    with loaded.writing():
        chunking.record(store, settings.index_params)
        if paths is not None:
            sources = library_sources.add(store, paths, collection)
        else:  # sources imported without their documents wait until they are linked to a folder
            sources = [s for s in store.sources(collection) if not s.detached]
        ingestor = Ingestor(store, settings, loaded.embedder, loaded, loaded.parser(), cancel, on_progress, on_file)
        try:
            report = ingestor.run(sources, embed=embed, force=[normalise_path(p) for p in force])
            if embed and not report.cancelled:
                report = dataclasses.replace(report, reembed_remaining=_switch_model(
                    loaded, store, cancel, on_progress, reembed_budget_s))
            return report
        finally:
            loaded.save_vectors()


def _switch_model(loaded: Loaded, store: Store, cancel: threading.Event | None,
                  on_progress: ProgressCallback | None, budget_s: float | None) -> int:
    """The library moved towards the model the settings ask for; the chunks still to re-embed."""
    deadline = None if budget_s is None else time.monotonic() + budget_s
    return reembed.switch_model(store, loaded.target_model(), loaded.embedder,
                                lambda: loaded.drop_vectors(reload=True), cancel or threading.Event(),
                                on_progress or (lambda _p: None), deadline)


def reindex(loaded: Loaded, store: Store, **kwargs) -> IndexReport:
    """Drop every chunk and vector and index all sources again with the current settings (`index`'s options). On a
    shared library only its administrator may: a member would clear its own collections and record its settings
    and model over the others' chunks."""
    if not store.sees_everything():
        raise UsageError.coded("reindex_shared")
    with loaded.writing():
        store.clear_index()
        loaded.drop_vectors(delete_file=True)
        reembed.abandon(store)
        with store.transaction():
            store.delete_meta(*INDEX_SETTINGS, "dimension")
        return index(loaded, store, **kwargs)


def reembed_plan(loaded: Loaded, store: Store, settings: Settings) -> tuple[str, int, float] | None:
    """(target model, chunks to embed, estimated seconds) when `settings` switch the model, else None (also for a
    member of a shared library: the model is its administrator's to switch)."""
    target = loaded.target_model(settings)
    current = store.get_meta("embedding_model")
    if current is None or current == target or not store.has_vectors() or not store.sees_everything():
        return None
    done, total = reembed.staged_counts(store) if reembed.staged_model(store) == target else (0, 0)
    chunks = (total or store.count_chunks()) - done
    return target, chunks, chunks / max(loaded.embedder(target).speed, 1e-6)


def set_password(loaded: Loaded, password: str, path: str | Path | None = None) -> None:
    """Use `password` for a locked PDF at `path` (None: any PDF that needs one) until the reader closes; kept in
    memory only."""
    parser = loaded.parser()
    if path is None:
        parser.password = password
    else:
        parser.passwords[normalise_path(path)] = password


def locked_files(store: Store, under: Iterable[str | Path] | None = None) -> list[str]:
    """Files that failed because they need a PDF password (inside `under`, or anywhere)."""
    from desktop_rag.engine.ingest.loaders.pdf import needs_password

    roots = [normalise_path(p) for p in under] if under is not None else None
    return [f.path for f in store.files() if f.status == "failed" and needs_password(f.error)
            and (roots is None or any(is_inside(f.path, r) for r in roots))]
