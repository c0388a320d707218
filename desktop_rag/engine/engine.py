"""The facade the GUI and CLI use: sources, index runs, status, search, answers, conversations."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from desktop_rag.config import (
    AUTO_MODEL,
    BUNDLED_MODEL,
    CHUNKING_SETTINGS,
    INDEX_SETTINGS,
    AppPaths,
    Settings,
    load_settings,
    save_settings,
)
from desktop_rag.engine.errors import ModelMismatchError, UsageError, disk_full_guard
from desktop_rag.engine.file_types import is_supported, supported_types
from desktop_rag.engine.ingest import reembed
from desktop_rag.engine.ingest.ingest import FileCallback, Ingestor, ProgressCallback
from desktop_rag.engine.ingest.parsing import SafeParser
from desktop_rag.engine.models.download_types import DownloadProgress
from desktop_rag.engine.models.embedding import Embedder, create_embedder, default_model, known_dimension
from desktop_rag.engine.paths import is_inside, normalise_path
from desktop_rag.engine.search.cache import query_vector_cache, result_cache
from desktop_rag.engine.store import collections, conversations
from desktop_rag.engine.store.languages import library_has_cjk, library_languages
from desktop_rag.engine.store.pool import StorePool, WriterLock
from desktop_rag.engine.store.skipped import skipped_counts
from desktop_rag.engine.store.store import FileRecord, SourceRecord, Store
from desktop_rag.engine.store.vector_index import VectorIndex, open_vector_index, save_cache
from desktop_rag.engine.text.language import interface_is_chinese
from desktop_rag.engine.text.lexicon import Lexicon, open_lexicon
from desktop_rag.engine.types import (
    AnswerEvent,
    ChatTurn,
    DoneEvent,
    ErrorEvent,
    Hit,
    IndexReport,
    IndexStatus,
    SourcesEvent,
)

log = logging.getLogger(__name__)


class Engine:
    """One library (a data dir). Safe to call from several threads: each gets its own SQLite connection;
    writes (index runs, source changes, settings) are serialised by a lock."""

    def __init__(self, paths: AppPaths, settings: Settings | None = None, read_only: bool = False) -> None:
        self.paths = paths.ensure()
        self.settings = settings or load_settings(paths)
        self.read_only = read_only  # the MCP server: SQLite opened mode=ro, no cache written, no writer lock
        self._local = threading.local()
        # a thread's connection goes back when the thread ends
        self._stores = StorePool(self.paths.database, read_only=read_only)
        self._writer = WriterLock(self.paths.database.with_name("library.lock"))  # one writing process at a time
        self._lock = threading.RLock()  # guards lazy members and the store list
        self._write_lock = threading.RLock()
        self._embedders: dict[str, Embedder] = {}
        # a model's first-use preparation (the bundled e5's conversion, an ONNX export), from the loading thread
        self.on_model_progress: Callable[[DownloadProgress], None] | None = None
        self._vectors: VectorIndex | None = None
        self._vectors_model: str | None = None
        self.interface_language: str | None = None  # the GUI's language ("zh", "en"); None: settings/locale
        self._vectors_dirty = False
        self._parser: SafeParser | None = None
        self._loaders = 0  # threads loading the model and vectors in the background (`warm_up`): searches meanwhile
        self._loaders_lock = threading.Lock()  # are keyword-only rather than wait (SearchHits.keyword_only)
        self._results = result_cache()  # ranked hits by query and library version (search.cache)
        self._query_vectors = query_vector_cache()  # question vectors by model id
        self._lexicon: Lexicon | None | bool = None  # the Chinese-English word list once opened; False: unavailable
        self._lexicon_lock = threading.Lock()  # its first build takes seconds: not under the lazy members' lock

    # ---- lazily opened parts -----------------------------------------------

    @property
    def store(self) -> Store:
        """This thread's connection to the library."""
        lease = getattr(self._local, "lease", None)
        if lease is None:
            lease = self._local.lease = self._stores.lease()
        return lease.store

    @property
    def index_model(self) -> str:
        """The embedding model of the stored vectors (the target model for a library without vectors)."""
        return self.store.get_meta("embedding_model") or self.target_model()

    def target_model(self, settings: Settings | None = None) -> str:
        """The model the settings ask for; "auto" is the multilingual model for a Chinese library or interface."""
        settings = settings or self.settings
        if settings.embedding_model != AUTO_MODEL:
            return settings.embedding_model
        chinese_ui = interface_is_chinese(self.interface_language or settings.ui_language)
        return default_model(library_has_cjk(self.store), chinese_ui)

    def embedder(self, model_id: str | None = None) -> Embedder:
        """The embedder of the stored vectors (or of `model_id`), created once per model."""
        model_id = model_id or self.index_model
        with self._lock:
            if model_id not in self._embedders:
                self._embedders = {k: v for k, v in self._embedders.items() if k == self.index_model}
                self._embedders[model_id] = create_embedder(model_id, self.paths.data_dir, self.settings.embed_runtime,
                                                            self._model_progress)
            return self._embedders[model_id]

    def _model_progress(self, progress: DownloadProgress) -> None:
        listener = self.on_model_progress
        if listener is not None:
            listener(progress)

    def vectors(self) -> VectorIndex:
        """The FAISS cache of the stored vectors (reopened when a model switch swapped them)."""
        with self._lock:
            model = self.index_model
            if self._vectors is None or self._vectors_model != model or self._vectors_stale():
                stored = self.store.get_meta("dimension")
                dimension = int(stored) if stored else known_dimension(model)
                if dimension is None:
                    dimension = self.embedder(model).dimension
                self._vectors = open_vector_index(self.paths.vector_index, self.store, dimension,
                                                  save=not self.read_only)
                self._vectors_model = model
            return self._vectors

    def _vectors_stale(self, writing: bool = False) -> bool:
        """Another process changed the stored vectors since this cache was loaded (our own writes in progress
        move the generation too, so it is only checked outside them)."""
        vectors = self._vectors
        if vectors is None or (self._writer.held and not writing):
            return False
        return vectors.generation != self.store.vectors_generation()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Change the library: this thread alone in the process, this process alone on the library (or
        LibraryBusyError), the vector cache current, and a full disk reported as a DiskFullError."""
        if self.read_only:
            raise UsageError("This library is open read-only here (the MCP server): nothing can be changed.")
        with self._write_lock:
            outermost = not self._writer.held
            self._writer.acquire()
            try:
                with self._lock:
                    if outermost and self._vectors_stale(writing=True):  # another process wrote: never save over it
                        self._vectors = None
                        self._vectors_dirty = False
                with disk_full_guard(self.paths.data_dir):
                    yield
            finally:
                self._writer.release()

    def parser(self) -> SafeParser:
        """The file reader (a long-lived child process for PDF/DOCX), with the current limits."""
        with self._lock:
            if self._parser is None:
                self._parser = SafeParser()
            self._parser.timeout_s = self.settings.parse_timeout_s
            self._parser.max_bytes = int(self.settings.max_file_mb * 1024 * 1024)
            self._parser.ocr = self.settings.ocr_enabled
            self._parser.table_chars = self.settings.chunk_size
            return self._parser

    def set_password(self, password: str, path: str | Path | None = None) -> None:
        """Use `password` for a locked PDF at `path` (None: any PDF that needs one) until the engine closes.

        Kept in memory only, never written to the library or the settings.
        """
        parser = self.parser()
        if path is None:
            parser.password = password
        else:
            parser.passwords[normalise_path(path)] = password

    def locked_files(self, under: Iterable[str | Path] | None = None) -> list[str]:
        """Files that failed because they need a PDF password (inside `under`, or anywhere)."""
        from desktop_rag.engine.ingest.loaders.pdf import needs_password

        roots = [normalise_path(p) for p in under] if under is not None else None
        return [f.path for f in self.store.files() if f.status == "failed" and needs_password(f.error)
                and (roots is None or any(is_inside(f.path, r) for r in roots))]

    def warm_up(self) -> None:
        """Load the embedding model, the vector index and (for a bilingual library) the word list now (the GUI
        calls this in the background). While it runs, searches on other threads answer from keyword search at
        once instead of waiting for it."""
        with self._loaders_lock:
            self._loaders += 1
        try:
            self.embedder().embed_queries(["warm up"])
            if self.store.count_vectors():
                self.vectors()
            if len(library_languages(self.store)) > 1:
                self.lexicon()  # a bilingual library's searches use it (built once per data folder)
        finally:
            with self._loaders_lock:
                self._loaders -= 1

    def load_in_background(self) -> threading.Thread:
        """`warm_up` on a daemon thread (opening a large library: loading or rebuilding the vector cache)."""
        thread = threading.Thread(target=self.warm_up, name="desktop-rag-warm-up", daemon=True)
        thread.start()
        return thread

    def dense_ready(self) -> bool:
        """Whether the model and the current vectors are loaded (a dense search would not wait). Never blocks."""
        vectors, model = self._vectors, self._vectors_model
        return (vectors is not None and model is not None and model == self.index_model
                and model in self._embedders and not self._vectors_stale())

    # ---- sources -----------------------------------------------------------

    def add_sources(self, paths: Iterable[str | Path], collection: int | None = None) -> list[SourceRecord]:
        """Register folders/files as sources of a collection (None: the first one; no indexing yet).
        Raises UsageError for bad paths, or for a path already in another collection."""
        added = []
        with self._writing():
            for raw in paths:
                path = Path(normalise_path(raw))
                if not path.exists():
                    raise UsageError(f"No such file or folder: {raw}")
                if not path.is_dir() and not path.is_file():
                    raise UsageError(f"Not a regular file or folder: {raw} (a pipe, device or socket is never read)")
                if path.is_file() and not is_supported(path):
                    raise UsageError(f"Not a supported file type: {raw} ({supported_types()})")
                added.append(self._add_source(str(path), "folder" if path.is_dir() else "file", collection))
        return added

    def _add_source(self, path: str, kind: str, collection: int | None = None) -> SourceRecord:
        """A path already covered by a source is that source (in its own collection when none is named)."""
        store = self.store
        named = collection is not None
        collection = store.first_collection_id() if collection is None else collection
        for existing in store.sources():
            overlaps = existing.path == path or (existing.kind == "folder" and is_inside(path, existing.path))
            if existing.detached and (overlaps or is_inside(existing.path, path)):
                raise UsageError(
                    f"{path} overlaps {existing.path}, a source imported from an archive and not linked to this "
                    "computer yet: link it to a folder first (`desktop-rag link`, or Link to a folder… in the "
                    "library), or remove it.")
            if overlaps and not named:
                return existing
            if overlaps or (kind == "folder" and is_inside(existing.path, path)):
                if existing.collection_id != collection:  # a file is in one collection only
                    raise UsageError(
                        f"{path} overlaps {existing.path}, which is in the collection "
                        f"“{collections.name_of(store, existing.collection_id)}”: a file or folder can be in "
                        "one collection only (remove it there first).")
                if overlaps:
                    return existing
        store.add_source(path, kind, collection)
        new = store.source_by_path(path)
        if kind == "folder":  # absorb sources inside the new folder
            with store.transaction() as db:
                for inner in store.sources():
                    if inner.id != new.id and is_inside(inner.path, path):
                        db.execute("UPDATE files SET source_id = ? WHERE source_id = ?", (new.id, inner.id))
                        db.execute("DELETE FROM sources WHERE id = ?", (inner.id,))
        return new

    def relink_source(self, path: str, chosen: str | Path, collection: int | None = None) -> SourceRecord:
        """Link a source imported without its documents (shown as not linked) to a folder or file the user
        chose; it is indexed by the next run. UsageError if it is not such a source or `chosen` does not fit."""
        from desktop_rag.engine.archive.relink import relink

        with self._writing():
            source = self.store.source_by_path(path)
            if source is None or (collection is not None and source.collection_id != collection):
                raise UsageError(f"{path} is not a source in this library (see `desktop-rag status`).")
            return relink(self.store, source, chosen)

    def remove_source(self, path: str | Path, collection: int | None = None) -> bool:
        """Forget a source with its files, chunks and vectors. False if it was not a source (of `collection`)."""
        with self._writing():
            source = self.store.source_by_path(normalise_path(path))
            if source is None or (collection is not None and source.collection_id != collection):
                return False
            dropped = self.store.remove_source(source.id)
            if dropped:
                self.vectors().remove(dropped)
                self._vectors_dirty = True
            self.save_vectors()
            return True

    def sources(self, collection: int | None = None) -> list[SourceRecord]:
        return self.store.sources(collection)

    # ---- collections ---------------------------------------------------------

    def collections(self) -> list[collections.Collection]:
        return collections.listing(self.store)

    def collection_id(self, name: str | None) -> int | None:
        """The id of the collection called `name` (None: all collections); UsageError if there is none."""
        return None if name is None else collections.resolve(self.store, name)

    def create_collection(self, name: str) -> int:
        with self._writing():
            return collections.create(self.store, name)

    def rename_collection(self, collection_id: int, name: str) -> None:
        with self._writing():
            collections.rename(self.store, collection_id, name)

    def delete_collection(self, collection_id: int) -> None:
        """Forget a collection's sources, files, chunks and vectors (the documents on disk stay)."""
        with self._writing():
            dropped = collections.delete(self.store, collection_id)
            if dropped:
                self.vectors().remove(dropped)
                self._vectors_dirty = True
            self.save_vectors()

    def files(self, source_id: int | None = None) -> list[FileRecord]:
        return self.store.files(source_id)

    # ---- export and import ----------------------------------------------------

    def export_collection(self, collection: int, target: str | Path, with_documents: bool = False):
        """Write one collection (metadata, chunks, vectors, optionally the documents) to one archive file."""
        from desktop_rag import __version__
        from desktop_rag.engine.archive.archive_file import export_collection

        return export_collection(self.store, collection, Path(target), app_version=__version__,
                                 with_documents=with_documents)

    def read_archive(self, path: str | Path):
        """A fully validated archive (ArchiveError if corrupt, truncated or foreign); nothing is written."""
        from desktop_rag.engine.archive.archive_file import read_archive

        return read_archive(Path(path))

    def archive_model_problem(self, content) -> str | None:
        """Why the archive's vectors cannot serve this library (so its passages would be embedded again)."""
        from desktop_rag.engine.archive.importer import model_problem

        model = self.store.get_meta("embedding_model")
        dimension = self.store.get_meta("dimension")
        if model is None:  # no vectors yet: the model the settings ask for, counting the archive's text
            model = self.settings.embedding_model
            if model == AUTO_MODEL:
                from desktop_rag.engine.text.language import text_languages

                cjk = library_has_cjk(self.store) or any("zh" in text_languages(c["text"]) for c in content.chunks)
                model = default_model(cjk, interface_is_chinese(self.interface_language or self.settings.ui_language))
        return model_problem(content, model, int(dimension) if dimension else None)

    def import_archive(self, path: str | Path, *, name: str | None = None, documents_dir: str | Path | None = None,
                       reembed: bool = False, content=None):
        """Import an archive as a new collection. Its vectors are used when they come from this library's
        model; otherwise ModelMismatchError, unless `reembed` (its chunks then wait for the vector phase).
        Included documents go to `documents_dir` (default: a folder beside the archive)."""
        from desktop_rag.engine.archive.importer import import_content

        path = Path(path)
        with self._writing():
            content = content or self.read_archive(path)
            problem = self.archive_model_problem(content)
            if problem and not reembed:
                raise ModelMismatchError(problem)
            folder = Path(documents_dir) if documents_dir else path.with_name(f"{path.stem} documents")
            report, ids, matrix = import_content(
                self.store, content, name=name, use_vectors=problem is None,
                documents_dir=Path(normalise_path(folder)) if content.documents else None, zip_path=path)
            with self._lock:
                if len(ids) and self._vectors is not None:  # an unloaded cache is rebuilt from the store
                    self._vectors.add(ids, matrix)
                    self._vectors_dirty = True
            self.save_vectors()
            return report

    # ---- index runs --------------------------------------------------------

    def index(
        self,
        paths: Iterable[str | Path] | None = None,
        *,
        cancel: threading.Event | None = None,
        on_progress: ProgressCallback | None = None,
        on_file: FileCallback | None = None,
        embed: bool = True,
        force: Sequence[str | Path] = (),
        reembed_budget_s: float | None = None,
        collection: int | None = None,
    ) -> IndexReport:
        """Add `paths` as sources (if given) and reconcile them; None reconciles every source (of `collection`
        if given; new paths join `collection`, or the first collection). Sources imported without their
        documents are never scanned until they are linked to a folder (`relink_source`).

        `force` re-reads those files even if unchanged. When the settings ask for another embedding
        model, the library is re-embedded in the background of this run (for at most
        `reembed_budget_s`, None = to the end) while the old vectors keep answering. Raises
        ModelMismatchError if the library was chunked with other settings (see `reindex`).
        """
        with self._writing():
            self._check_index_settings()
            if paths is not None:
                sources = self.add_sources(paths, collection)
            else:
                sources = [s for s in self.store.sources(collection) if not s.detached]
            ingestor = Ingestor(self.store, self.settings, self.embedder, self._vectors_for_writing,
                                self.parser(), cancel, on_progress, on_file)
            try:
                report = ingestor.run(sources, embed=embed, force=[normalise_path(p) for p in force])
                if embed and not report.cancelled:
                    remaining = self._switch_model(cancel or threading.Event(), on_progress, reembed_budget_s)
                    report = dataclasses.replace(report, reembed_remaining=remaining)
                return report
            finally:
                self.save_vectors()

    def _switch_model(self, cancel: threading.Event, on_progress: ProgressCallback | None,
                      budget_s: float | None) -> int:
        """Move the library to the target model if it differs; returns the chunks still to re-embed."""
        target, current = self.target_model(), self.store.get_meta("embedding_model")
        if current is None or target == current:
            if reembed.staged_model(self.store):
                reembed.abandon(self.store)
            return 0
        if not self.store.has_vectors():  # nothing to keep serving: start over with the target model
            with self.store.transaction() as db:
                db.execute("DELETE FROM meta WHERE key IN ('embedding_model', 'dimension')")
            return 0
        deadline = None if budget_s is None else time.monotonic() + budget_s
        embedder = self.embedder(target)
        for _ in range(3):  # chunks written by another process between staging and the swap: stage those too
            if not reembed.run(self.store, embedder, cancel, on_progress or (lambda _p: None), deadline):
                done, total = reembed.staged_counts(self.store)
                return max(total - done, 1)
            if reembed.swap(self.store, target, embedder.dimension):
                log.info("Embedding model switched from %s to %s", current, target)
                with self._lock:
                    self._vectors = None
                self._vectors_dirty = False
                self.vectors()
                self._vectors_dirty = True
                return 0
        return 1

    def reindex(self, **kwargs) -> IndexReport:
        """Drop every chunk and vector and index all sources again with the current settings."""
        with self._writing():
            self.store.clear_index()
            with self._lock:
                self._vectors = None
                self.paths.vector_index.unlink(missing_ok=True)
            reembed.abandon(self.store)
            with self.store.transaction():
                for key in (*INDEX_SETTINGS, "dimension"):
                    self.store.db.execute("DELETE FROM meta WHERE key = ?", (key,))
            return self.index(**kwargs)

    def needs_reindex(self, settings: Settings | None = None) -> bool:
        """True when the library holds chunks made with other chunking settings (every file is read again)."""
        settings = settings or self.settings
        if self.store.count_chunks() == 0:
            return False
        wanted = {k: str(v) for k, v in settings.index_params.items()}
        return any(self.store.get_meta(k) not in (None, wanted[k]) for k in CHUNKING_SETTINGS)

    def reembed_plan(self, settings: Settings | None = None) -> tuple[str, int, float] | None:
        """(target model, chunks to embed, estimated seconds) when the settings switch the model, else None."""
        target = self.target_model(settings)
        current = self.store.get_meta("embedding_model")
        if current is None or current == target or not self.store.has_vectors():
            return None
        done, total = reembed.staged_counts(self.store) if reembed.staged_model(self.store) == target else (0, 0)
        chunks = (total or self.store.count_chunks()) - done
        return target, chunks, chunks / max(self.embedder(target).speed, 1e-6)

    def _check_index_settings(self) -> None:
        if self.needs_reindex():
            stored = ", ".join(f"{k}={self.store.get_meta(k)}" for k in CHUNKING_SETTINGS)
            wanted = ", ".join(f"{k}={self.settings.index_params[k]}" for k in CHUNKING_SETTINGS)
            raise ModelMismatchError(
                f"This library was chunked with {stored}, but the settings now ask for {wanted}: "
                "re-index everything (`desktop-rag index --reindex`, or Re-index in Settings) "
                "or change the settings back."
            )
        with self.store.transaction():
            for key in CHUNKING_SETTINGS:
                self.store.set_meta(key, str(self.settings.index_params[key]))

    def _vectors_for_writing(self) -> VectorIndex:
        vectors = self.vectors()
        if not self.store.get_meta("dimension") or not self.store.get_meta("embedding_model"):
            with self.store.transaction():
                self.store.set_meta("dimension", str(vectors.dimension))
                self.store.set_meta("embedding_model", self._vectors_model or self.index_model)
        self._vectors_dirty = True
        return vectors

    def save_vectors(self) -> None:
        """Write the FAISS cache if it changed, stamped with the store's generation."""
        with self._lock:
            if self._vectors is not None and self._vectors_dirty:  # a failed save (full disk) is logged, retried
                generation = self.store.vectors_generation()
                self._vectors_dirty = not save_cache(self._vectors, self.paths.vector_index, generation)

    # ---- reading -------------------------------------------------------------

    def multilingual_missing(self) -> bool:
        """The library holds Chinese but "auto" can only mean the English-only model here (the bundled
        multilingual one cannot load on this platform): a downloaded multilingual model would serve it."""
        return (self.settings.embedding_model == AUTO_MODEL
                and default_model(library_has_cjk=True, interface_chinese=False) == BUNDLED_MODEL
                and library_has_cjk(self.store))

    def status(self, collection: int | None = None) -> IndexStatus:
        """The library's state, or one collection's (its files, chunks and sources; the model is the library's)."""
        store = self.store
        counts = store.file_counts(collection)
        chunks = store.count_chunks(collection)
        dimension = store.get_meta("dimension")
        staged = reembed.staged_model(store)
        done, total = reembed.staged_counts(store) if staged else (0, 0)
        sources = store.sources(collection)
        return IndexStatus(
            embedding_model=self.index_model,
            dimension=int(dimension) if dimension else known_dimension(self.index_model),
            chunks=chunks,
            chunks_pending_embedding=chunks - store.count_vectors(collection),
            files_total=sum(counts.values()),
            files_indexed=counts.get("indexed", 0),
            files_failed=counts.get("failed", 0),
            files_pending=counts.get("pending", 0),
            failed_files=tuple(store.failed_files(collection)),
            sources=tuple(s.path for s in sources),
            not_linked=tuple(s.path for s in sources if s.detached),
            reembed_model=staged or "",
            reembed_done=done,
            reembed_total=total,
            multilingual_missing=self.multilingual_missing(),
            skipped=skipped_counts(store, (s.id for s in sources if not s.detached)),
        )

    def search(self, query: str, k: int | None = None, collection: int | None = None,
               folders: Sequence[str] = (), types: Sequence[str] = (),
               cancel: threading.Event | None = None, files: Sequence[str] = ()) -> list[Hit]:
        """Hybrid search (keyword-only while no vector is stored) within one collection (its id) or all (None),
        and within `folders` / `files` / file `types` if given (UsageError for a folder, file or type the library
        lacks),
        also in the library's other language when a language model is configured and query translation is on
        (`cancel` stops waiting for that translation: the question is then searched as asked)."""
        from desktop_rag.engine.search.cache import hits_size
        from desktop_rag.engine.search.retrieval import hybrid_search
        from desktop_rag.engine.search.translation import translations

        within = self.restriction(collection, folders, types, files)
        query = " ".join(query.split())
        stored = self.store.has_vectors()
        dense = self._dense_source() if stored else None
        translator = None if self.read_only else self._translator()  # its cache is a write
        translated = tuple(translations(query, self.store, translator, cancel))
        versions = tuple(text for _, text in translated)
        k = k or self.settings.top_k
        keyword_only = stored and dense is None
        key = self._result_key(query, versions, within, k, dense is not None)
        cached = None if key is None or keyword_only else self._results.get(key)
        if cached is not None:
            return SearchHits(cached, keyword_only=False, translations=translated)
        lexicon = self.lexicon() if dense is not None and len(library_languages(self.store)) > 1 else None
        hits = hybrid_search(query, k, self.store, dense, self.settings.min_score, versions, within=within,
                             lexicon=lexicon)
        if key is not None and not keyword_only and key == self._result_key(query, versions, within, k, True):
            self._results.put(key, tuple(hits), hits_size(hits))  # (nothing changed while it searched)
        return SearchHits(hits, keyword_only=keyword_only, translations=translated)

    def lexicon(self) -> Lexicon | None:
        """The Chinese-English word list for cross-language keyword evidence (built in the data folder on first
        use, about 2 s); None when it cannot be built or read (search then goes on without it; said once)."""
        with self._lexicon_lock:
            if self._lexicon is None:
                try:
                    self._lexicon = open_lexicon(self.paths.data_dir / "lexicon.sqlite3")
                except (OSError, sqlite3.Error, ValueError) as exc:
                    log.warning("Cross-language keyword matching is off: the word list is unavailable (%s)", exc)
                    self._lexicon = False
            return self._lexicon or None

    def _result_key(self, query: str, versions: tuple[str, ...], within, k: int, dense: bool) -> tuple | None:
        """What a search's result depends on (`search.cache`), or None when it cannot be cached (a read-only
        library without the version counter). The in-memory vector count is in it: the FAISS cache follows a
        commit a moment later, and a search in between must not be kept."""
        version = self.store.library_version()
        if version is None:
            return None
        vectors = self._vectors.size if dense and self._vectors is not None else -1
        return (version, vectors, query, versions, within, k, self.settings.min_score, self.index_model, dense)

    def _dense_source(self):
        """`dense_pair`, or None while a background `warm_up` is still loading the model or the vectors."""
        if self._loaders and not self.dense_ready():
            log.info("Vectors still loading: answering from keyword search only")
            return None
        return self.dense_pair

    def restriction(self, collection: int | None = None, folders: Sequence[str] = (), types: Sequence[str] = (),
                    files: Sequence[str] = ()):
        """Where a search looks (`restriction.Restriction`); UsageError for a folder, file or file type the library
        lacks."""
        from desktop_rag.engine.store.restriction import build
        from desktop_rag.engine.store.scope import Restriction

        if not folders and not types and not files:
            return Restriction(collection)
        return build(self.store, collection, folders, types, files)

    def dense_pair(self) -> tuple[Embedder, VectorIndex]:
        """The embedder and the vectors of one model, taken together (a model switch may swap them)."""
        from desktop_rag.engine.search.cache import CachedQueries

        with self._lock:
            vectors = self.vectors()
            model = self._vectors_model or self.index_model
            return CachedQueries(self.embedder(model), model, self._query_vectors), vectors

    def _translator(self):
        if not self.settings.translate_queries:
            return None
        from desktop_rag.engine.answer.llm import LLMClient

        config = self._llm_config()
        return LLMClient(config) if config else None

    def _llm_config(self):
        """The configured model (answer/llm_config.py), its client's messages in the interface's language."""
        from desktop_rag.engine.answer.llm_config import resolve_llm_config

        config = resolve_llm_config(self.settings)
        chinese = interface_is_chinese(self.interface_language or self.settings.ui_language)
        return dataclasses.replace(config, language="zh" if chinese else "en") if config else None

    def answerer(self, collection: int | None = None, folders: Sequence[str] = (), types: Sequence[str] = (),
                 cancel: threading.Event | None = None, extractive: bool = False,
                 conversation_id: int | None = None, files: Sequence[str] = ()):
        """An answerer that searches within `collection` (None: all collections), `folders`, `files` and file `types`
        (its searches stop waiting for a query translation on `cancel`); `extractive`: never call a model;
        `conversation_id`: the conversation its stored answers belong to (deleted with it)."""
        from desktop_rag.engine.answer.answering import Answerer
        from desktop_rag.engine.answer.llm import LLMClient

        config = self._llm_config()

        def search(query: str, k: int | None = None) -> list[Hit]:
            return self._with_feedback(query, self.search(query, k, collection, folders, types, cancel, files),
                                       collection, folders, types, files)

        client = LLMClient(config) if config and not extractive else None
        if not self.settings.answer_cache:
            self._forget_answers_when_off()
        replay = self._replay(config, conversation_id) if client is not None and self.settings.answer_cache else None
        return Answerer(self.settings, search, client, self.sentence_similarity, self.compress_passages, replay)

    def _replay(self, config, conversation_id: int | None = None):
        """Stored answers for this model, endpoint and these answer settings (answer/replay.py)."""
        from desktop_rag.engine.answer.replay import AnswerReplay

        return AnswerReplay(lambda: self.store, self._fingerprint(config), writable=not self.read_only,
                            conversation_id=conversation_id, feedback=self.settings.feedback)

    def _fingerprint(self, config) -> dict:
        """Whatever besides the passages shapes a stored answer or summary: model, endpoint, settings."""
        from desktop_rag.engine.answer.compression import compression_mode

        settings = self.settings
        return {"model": config.model, "endpoint": config.base_url, "provider": config.provider,
                "temperature": config.temperature, "max_tokens": config.max_tokens,
                "budget_chars": settings.context_budget_chars, "budget_tokens": settings.context_budget_tokens,
                "compression": compression_mode(settings.context_compression),
                "embedding_model": self.index_model}

    # ---- one document: summaries (issue 40) ----

    def summariser(self, extractive: bool = False):
        """Summaries of one document (answer/summarising.py) with the configured model (`extractive` or none:
        the document's most central sentences by the library's embedding model)."""
        from desktop_rag.engine.answer.llm import LLMClient
        from desktop_rag.engine.answer.summarising import Summariser

        config = self._llm_config()
        client = LLMClient(config) if config and not extractive else None
        if not self.settings.answer_cache:
            self._forget_answers_when_off()
        return Summariser(lambda: self.store, self.settings, client, self._fingerprint(config) if client else {},
                          lambda texts: self.embedder().embed(texts), self._stored_vectors,
                          cache=self.settings.answer_cache, writable=not self.read_only)

    def summary_plan(self, path: str | Path, language: str | None = None, extractive: bool = False):
        """What summarising the library's file at `path` takes (`types.SummaryPlan`): the estimate shown first."""
        return self.summariser(extractive).plan(str(path), language)

    def summarise(self, path: str | Path, language: str | None = None, cancel: threading.Event | None = None,
                  extractive: bool = False, conversation_id: int | None = None,
                  question: str = "") -> Iterator[AnswerEvent]:
        """A summary of the library's file at `path` as answer events (UsageError first if it is not one), in
        `language` ("en"/"zh"; None: the document's); with a conversation, `question` and the summary (with its
        sections as sources) are saved as its two turns."""
        events = self.summariser(extractive).summarise(str(path), language, cancel)
        first = next(events, None)  # the checks run before anything is yielded
        if first is None:
            return
        summary, sections = "", ()
        for event in itertools.chain((first,), events):
            if isinstance(event, SourcesEvent):
                sections = event.hits
            elif isinstance(event, DoneEvent):
                summary = event.answer
            elif isinstance(event, ErrorEvent):
                summary = event.partial
            yield event
        if conversation_id:
            conversations.add_message(self.store, conversation_id, ChatTurn("user", question or str(path)))
            if summary:
                conversations.add_message(self.store, conversation_id, ChatTurn("assistant", summary, sections))

    def _summary_target(self, question: str, within) -> str | None:
        """The file a summary question names (answer/summary_intent.py): among the files in `within` that have
        text, or the one file in scope for "this document"."""
        from desktop_rag.engine.answer.summary_intent import summary_target

        def names() -> Iterator[str]:  # read only when the question has a summary's shape
            where, args = within.files_sql("f")
            for (path,) in self.store.db.execute(f"SELECT f.path FROM files f WHERE {where} AND f.chunk_count > 0",
                                                 args):
                yield path

        return summary_target(question, names(), within.files[0] if len(within.files) == 1 else None)

    def _stored_vectors(self, chunk_ids: list[int]) -> dict:
        """The stored vectors of these chunks (they are the embedder's: `embedder()` is the library's model)."""
        import numpy as np

        found = {}
        for start in range(0, len(chunk_ids), 500):
            batch = chunk_ids[start:start + 500]
            rows = self.store.db.execute(
                f"SELECT chunk_id, vector FROM vectors WHERE chunk_id IN ({','.join('?' * len(batch))})", batch)
            found.update((cid, np.frombuffer(blob, dtype=np.float32)) for cid, blob in rows)
        return found

    def forget_answers(self) -> int:
        """Remove every stored answer and summary (Settings' "Clear stored answers", `desktop-rag clear-answers`);
        how many answers there were."""
        from desktop_rag.engine.store import answer_cache, summary_cache

        with self.store.transaction() as db:
            summary_cache.clear(db)  # stored summaries go with them (not counted)
            return answer_cache.clear(db)

    def _forget_answers_when_off(self) -> None:
        """With `Settings.answer_cache` off nothing stays stored (the setting may have been turned off in the file)."""
        from desktop_rag.engine.store import answer_cache, summary_cache

        if not self.read_only and (answer_cache.count(self.store.db) or summary_cache.count(self.store.db)):
            self.forget_answers()

    def compress_passages(self, query: str, hits: Sequence[Hit]) -> list[Hit]:
        """The hits with `focus` on the sentences to send (answer/compression.py, by the settings' mode and
        token budget; sentence meaning from the library's model when its vectors are loaded)."""
        from desktop_rag.engine.answer.compression import compress, compression_mode
        from desktop_rag.engine.search.fusion import dense_weight

        mode = compression_mode(self.settings.context_compression)
        dense = self.store.has_vectors() and not (self._loaders and not self.dense_ready())
        weight = dense_weight(query, self.embedder().languages) if dense and mode != "off" else 0.0
        return compress(query, hits, mode, int(self.settings.context_budget_tokens), self.sentence_similarity,
                        weight)

    def context(self, question: str, collection: int | None = None, folders: Sequence[str] = (),
                types: Sequence[str] = (), files: Sequence[str] = ()) -> dict:
        """What an answer to `question` would send the model: the numbered passages after compression, and the
        passages' tokens before and after it (`desktop-rag context`)."""
        from desktop_rag.engine.answer.compression import sent_text
        from desktop_rag.engine.answer.prompting import build_messages
        from desktop_rag.engine.models.tokens import count_tokens

        hits = self.search(question, None, collection, folders, types, files=files)
        budget = int(self.settings.context_budget_chars)
        whole = build_messages(question, hits, (), budget)[1]
        sent = build_messages(question, self.compress_passages(question, hits), (), budget)[1]
        return {
            "question": question,
            "passages": [{"n": n, "chunk_id": h.chunk_id, "path": h.path, "page": h.page, "heading": h.heading,
                          "text": sent_text(h), "focus": [list(span) for span in h.focus]}
                         for n, h in enumerate(sent, 1)],
            "tokens_before": sum(count_tokens(h.text) for h in whole),
            "tokens_after": sum(count_tokens(sent_text(h)) for h in sent),
        }

    def sentence_similarity(self, question: str, sentences: list[str]) -> list[float]:
        """Cosine similarity of sentences to a question with the library's model (extractive answers)."""
        if not sentences or not self.store.has_vectors() or (self._loaders and not self.dense_ready()):
            return [0.0] * len(sentences)  # (while a background load runs, an answer does not wait for it)
        embedder, _ = self.dense_pair()
        question_vector = embedder.embed_queries([question])[0]
        return [float(x) for x in embedder.embed(sentences) @ question_vector]

    def ask(
        self, question: str, conversation_id: int | None = None, cancel: threading.Event | None = None,
        collection: int | None = None, folders: Sequence[str] = (), types: Sequence[str] = (),
        refresh: bool = False, files: Sequence[str] = (),
    ) -> Iterator[AnswerEvent]:
        """Answer events for a question; with a conversation, history is used and both turns are saved.
        A stored answer to the same question and passages is replayed (`DoneEvent.cached`) unless `refresh`.

        The question is asked within `collection`, else within the conversation's collection, else in all;
        and within `folders` / `files` / file `types` if given (checked first: UsageError before any event).
        The saved answer keeps every passage it was given, in order, so its `[n]` is `sources[n - 1]`.
        """
        history = self.messages(conversation_id) if conversation_id else []
        if collection is None and conversation_id:
            collection = collections.conversation_collection(self.store, conversation_id)
        within = self.restriction(collection, folders, types, files)  # a bad folder, file or type fails here
        target = self._summary_target(question, within)
        if target is not None:  # "summarise X", "what is X about", "总结一下 X": the document's summary
            from desktop_rag.engine.text.terms import has_han

            asked = question.replace(Path(target).stem, "")  # the question's own language, not the name's
            yield from self.summarise(target, "zh" if has_han(asked) else "en", cancel,
                                      conversation_id=conversation_id, question=question)
            return
        passages: tuple[Hit, ...] = ()
        answer: str | None = None
        answerer = self.answerer(collection, folders, types, cancel, conversation_id=conversation_id, files=files)
        events = answerer.answer(question, history, cancel, refresh)
        for event in self._recorded(events, question, within, conversation_id, answerer):
            if isinstance(event, SourcesEvent):
                passages = event.hits
            elif isinstance(event, DoneEvent):
                answer = event.answer
            elif isinstance(event, ErrorEvent) and event.partial:
                answer = event.partial
            yield event
        if conversation_id:
            conversations.add_message(self.store, conversation_id, ChatTurn("user", question))
            if answer:
                conversations.add_message(self.store, conversation_id, ChatTurn("assistant", answer, passages))

    # ---- conversations ---------------------------------------------------------

    def new_conversation(self, title: str = "New conversation", collection: int | None = None) -> int:
        """A new conversation that asks within `collection` (None: all collections)."""
        conversation_id = conversations.create(self.store, title)
        if collection is not None:
            collections.set_conversation_collection(self.store, conversation_id, collection)
        return conversation_id

    def conversation_collection(self, conversation_id: int) -> int | None:
        return collections.conversation_collection(self.store, conversation_id)

    def set_conversation_collection(self, conversation_id: int, collection: int | None) -> None:
        collections.set_conversation_collection(self.store, conversation_id, collection)

    def conversations(self) -> list[conversations.Conversation]:
        return conversations.listing(self.store)

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        conversations.rename(self.store, conversation_id, title)

    def delete_conversation(self, conversation_id: int, keep_grades: bool = False) -> None:
        """Delete a conversation with its turns and its answers' review log (`keep_grades`: keep its graded ones)."""
        if keep_grades:
            self._keep_graded(conversation_id)
        conversations.delete(self.store, conversation_id)

    def messages(self, conversation_id: int) -> list[ChatTurn]:
        return conversations.messages(self.store, conversation_id)

    # ---- settings and shutdown ---------------------------------------------------

    def apply_settings(self, settings: Settings, save: bool = True) -> bool:
        """Use new settings; returns True when the library now needs a re-index (ask the user first)."""
        self.settings = settings
        if save:
            save_settings(self.paths, settings)
        if not settings.answer_cache:  # turned off: the stored answers go now
            self._forget_answers_when_off()
        return self.needs_reindex()

    def close(self) -> None:
        """Save the vector cache, stop the parser, close the word list and every thread's connection (stop readers
        first)."""
        with self._write_lock:
            self.save_vectors()
            with self._lock:
                if self._parser is not None:
                    self._parser.close()
                    self._parser = None
                with self._lexicon_lock:
                    if self._lexicon:
                        self._lexicon.close()
                    self._lexicon = None
                self._local = threading.local()
                self._stores.close()

    # ---- the review log: grades, signals, the user's own test set (issue 39; engine/review/) ----

    def _recorded(self, events: Iterator[AnswerEvent], question: str, within, conversation_id: int | None,
                  answerer) -> Iterator[AnswerEvent]:
        """The answer events, the DoneEvent with its review log id (`answer_id`; none in a read-only library)."""
        if self.read_only:
            return events
        from desktop_rag.engine.review.recording import record

        llm = answerer.llm
        settings = self._fingerprint(llm.config) if llm else {"embedding_model": self.index_model}
        return record(lambda: self.store, events, question, within, conversation_id,
                      llm.config.model if llm else "", {**settings, "top_k": self.settings.top_k})

    def _with_feedback(self, query: str, hits: "SearchHits", collection: int | None, folders: Sequence[str],
                       types: Sequence[str], files: Sequence[str]) -> "SearchHits":
        """An answer's passages after the feedback rules (search/feedback.py), unless `Settings.feedback` is off."""
        if not self.settings.feedback:
            return hits
        from desktop_rag.engine.search import feedback

        within = self.restriction(collection, folders, types, files)
        return SearchHits(feedback.apply(self.store, query, hits, within), hits.keyword_only, hits.translations)

    def _keep_graded(self, conversation_id: int) -> None:
        from desktop_rag.engine.store import grades

        with self.store.transaction() as db:
            grades.detach_graded(db, conversation_id)

    def set_grade(self, answer_id: int, grade: str | None) -> None:
        """Grade a logged answer: one of types.GRADES ("right", "partly", "wrong", "refused"), None: ungraded."""
        from desktop_rag.engine.review import grading

        grading.set_grade(self.store, answer_id, grade)

    def mark_passage(self, answer_id: int, chunk_id: int | None, right: bool | None = True) -> None:
        """Mark a source of an answer right (one per answer) or wrong (`right` False), or unmark it (None);
        `chunk_id` None: "none of them was right" (with `right` None: take that back)."""
        from desktop_rag.engine.review import grading

        grading.mark_passage(self.store, answer_id, chunk_id, right)

    def record_source_opened(self, answer_id: int, chunk_id: int | None = None) -> bool:
        """The user opened a cited source of this answer in the viewer (the "opened" signal)."""
        from desktop_rag.engine.review import grading

        return grading.record_source_opened(self.store, answer_id, chunk_id)

    def logged_answers(self, answer_ids: Sequence[int] = (), conversation_id: int | None = None) -> list:
        """The review log's answers (types.LoggedAnswer) with these ids, or of a conversation (oldest first)."""
        from desktop_rag.engine.store import grades

        ids = list(answer_ids) or (grades.conversation_answer_ids(self.store.db, conversation_id)
                                   if conversation_id is not None else [])
        return grades.answers(self.store.db, ids)

    def review_stats(self):
        """Grade counts, labelled questions and the two signals' counts, overall and by week (types.ReviewStats)."""
        from desktop_rag.engine.review import grading

        return grading.stats(self.store)

    def spot_check(self, n: int = 50) -> list:
        """Up to `n` random recent ungraded answers (types.LoggedAnswer, with answer text and sources)."""
        from desktop_rag.engine.review import grading

        return grading.spot_check(self.store, n)

    def export_grades(self, path: str | Path) -> int:
        """Write the graded or marked answers to `path` as JSONL; how many."""
        from desktop_rag.engine.review import grading

        return grading.export(self.store, path)

    def forget_grades(self) -> int:
        """Take back every grade and marked passage (`desktop-rag forget-grades`); how many answers had one."""
        from desktop_rag.engine.store import grades

        with self.store.transaction() as db:
            return grades.forget(db)

    def evaluate(self, collection: int | None = None, queries: str | Path | None = None,
                 qrels: str | Path | None = None, progress: Callable[[int, int], None] | None = None,
                 cancel: threading.Event | None = None):
        """The labelled questions (the answers with a marked right passage, or the BEIR `queries` + `qrels` files)
        against the library now: recall@5, precision@5, nDCG@10 per retrieval mode (types.EvalReport)."""
        from desktop_rag.engine.review import evaluation

        return evaluation.run(self, collection, queries, qrels, progress, cancel)


class SearchHits(list):
    """The hits of `Engine.search`, best first; `keyword_only` is True when the library has vectors but they were
    still loading (a large library just opened): the hits come from keyword search alone. `translations`: the
    (language, text) versions of the question that were searched too (a language model translated it)."""

    def __init__(self, hits: Iterable[Hit] = (), keyword_only: bool = False,
                 translations: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(hits)
        self.keyword_only = keyword_only
        self.translations = translations


def open_engine(data_dir: str | Path | None = None, settings: Settings | None = None) -> Engine:
    """An engine for the data dir (override, $DESKTOP_RAG_HOME or the platform default)."""
    from desktop_rag.config import resolve_paths

    return Engine(resolve_paths(data_dir), settings)


__all__ = ["Engine", "SearchHits", "open_engine"]
