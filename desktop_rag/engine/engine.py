"""The facade the GUI and CLI use: sources, index runs, status, search, answers, conversations."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from desktop_rag.config import AppPaths, Settings, load_settings, save_settings
from desktop_rag.engine import conversations
from desktop_rag.engine.embedding import Embedder, create_embedder, known_dimension
from desktop_rag.engine.errors import ModelMismatchError, UsageError
from desktop_rag.engine.ingest import FileCallback, Ingestor, ProgressCallback
from desktop_rag.engine.parsing import SafeParser
from desktop_rag.engine.scanning import is_supported, normalise_path
from desktop_rag.engine.store import FileRecord, SourceRecord, Store
from desktop_rag.engine.types import (
    AnswerEvent, ChatTurn, DoneEvent, ErrorEvent, Hit, IndexReport, IndexStatus, SourcesEvent,
)
from desktop_rag.engine.vector_index import VectorIndex, open_vector_index

log = logging.getLogger(__name__)

_INDEX_META = ("embedding_model", "chunk_size", "chunk_overlap")


class Engine:
    """One library (a data dir). Safe to call from several threads: each gets its own SQLite connection;
    writes (index runs, source changes, settings) are serialised by a lock."""

    def __init__(self, paths: AppPaths, settings: Settings | None = None) -> None:
        self.paths = paths.ensure()
        self.settings = settings or load_settings(paths)
        self._local = threading.local()
        self._stores: list[Store] = []
        self._lock = threading.RLock()  # guards lazy members and the store list
        self._write_lock = threading.RLock()
        self._embedder: Embedder | None = None
        self._vectors: VectorIndex | None = None
        self._vectors_dirty = False
        self._parser: SafeParser | None = None

    # ---- lazily opened parts -----------------------------------------------

    @property
    def store(self) -> Store:
        """This thread's connection to the library."""
        store = getattr(self._local, "store", None)
        if store is None:
            store = Store(self.paths.database)
            self._local.store = store
            with self._lock:
                self._stores.append(store)
        return store

    @property
    def index_model(self) -> str:
        """The embedding model of the stored vectors (the settings' model for an empty library)."""
        return self.store.get_meta("embedding_model") or self.settings.embedding_model

    def embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None or self._embedder.model_id != self.index_model:
                self._embedder = create_embedder(self.index_model)
            return self._embedder

    def vectors(self) -> VectorIndex:
        with self._lock:
            if self._vectors is None:
                stored = self.store.get_meta("dimension")
                dimension = int(stored) if stored else known_dimension(self.index_model)
                if dimension is None:
                    dimension = self.embedder().dimension
                self._vectors = open_vector_index(self.paths.vector_index, self.store, dimension)
            return self._vectors

    def parser(self) -> SafeParser:
        """The file reader (a long-lived child process for PDF/DOCX), with the current limits."""
        with self._lock:
            if self._parser is None:
                self._parser = SafeParser()
            self._parser.timeout_s = self.settings.parse_timeout_s
            self._parser.max_bytes = int(self.settings.max_file_mb * 1024 * 1024)
            return self._parser

    def warm_up(self) -> None:
        """Load the embedding model and the vector index now (the GUI calls this in the background)."""
        self.embedder().embed(["warm up"])
        if self.store.count_vectors():
            self.vectors()

    # ---- sources -----------------------------------------------------------

    def add_sources(self, paths: Iterable[str | Path]) -> list[SourceRecord]:
        """Register folders/files as sources (no indexing yet). Raises UsageError for bad paths."""
        added = []
        with self._write_lock:
            for raw in paths:
                path = Path(normalise_path(raw))
                if not path.exists():
                    raise UsageError(f"No such file or folder: {raw}")
                if path.is_file() and not is_supported(path):
                    raise UsageError(f"Not a supported file type: {raw} (PDF, Word .docx, .txt, .md)")
                added.append(self._add_source(str(path), "folder" if path.is_dir() else "file"))
        return added

    def _add_source(self, path: str, kind: str) -> SourceRecord:
        store = self.store
        for existing in store.sources():
            if existing.path == path or (existing.kind == "folder" and _inside(path, existing.path)):
                return existing
        store.add_source(path, kind)
        new = store.source_by_path(path)
        if kind == "folder":  # absorb sources inside the new folder
            with store.transaction() as db:
                for inner in store.sources():
                    if inner.id != new.id and _inside(inner.path, path):
                        db.execute("UPDATE files SET source_id = ? WHERE source_id = ?", (new.id, inner.id))
                        db.execute("DELETE FROM sources WHERE id = ?", (inner.id,))
        return new

    def remove_source(self, path: str | Path) -> bool:
        """Forget a source with its files, chunks and vectors. False if it was not a source."""
        with self._write_lock:
            source = self.store.source_by_path(normalise_path(path))
            if source is None:
                return False
            dropped = self.store.remove_source(source.id)
            if dropped:
                self.vectors().remove(dropped)
                self._vectors_dirty = True
            self.save_vectors()
            return True

    def sources(self) -> list[SourceRecord]:
        return self.store.sources()

    def files(self, source_id: int | None = None) -> list[FileRecord]:
        return self.store.files(source_id)

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
    ) -> IndexReport:
        """Add `paths` as sources (if given) and reconcile them; None reconciles every source.

        `force` re-reads those files even if unchanged. Raises ModelMismatchError if the library
        was built with other index settings (see `reindex`).
        """
        with self._write_lock:
            self._check_index_settings()
            sources = self.add_sources(paths) if paths is not None else self.store.sources()
            ingestor = Ingestor(self.store, self.settings, self.embedder, self._vectors_for_writing,
                                self.parser(), cancel, on_progress, on_file)
            try:
                return ingestor.run(sources, embed=embed, force=[normalise_path(p) for p in force])
            finally:
                self.save_vectors()

    def reindex(self, **kwargs) -> IndexReport:
        """Drop every chunk and vector and index all sources again with the current settings."""
        with self._write_lock:
            self.store.clear_index()
            with self._lock:
                self._vectors = None
                self.paths.vector_index.unlink(missing_ok=True)
            with self.store.transaction():
                for key in (*_INDEX_META, "dimension"):
                    self.store.db.execute("DELETE FROM meta WHERE key = ?", (key,))
            return self.index(**kwargs)

    def needs_reindex(self, settings: Settings | None = None) -> bool:
        """True when the library holds chunks made with other embedding/chunking settings."""
        settings = settings or self.settings
        if self.store.count_chunks() == 0:
            return False
        stored = {k: self.store.get_meta(k) for k in _INDEX_META}
        wanted = {k: str(v) for k, v in settings.index_params.items()}
        return any(stored[k] is not None and stored[k] != wanted[k] for k in _INDEX_META)

    def _check_index_settings(self) -> None:
        if self.needs_reindex():
            stored = ", ".join(f"{k}={self.store.get_meta(k)}" for k in _INDEX_META)
            raise ModelMismatchError(
                f"This library was indexed with {stored}, but the settings now ask for "
                f"{', '.join(f'{k}={v}' for k, v in self.settings.index_params.items())}. Vectors of two models "
                "are never mixed: re-index everything (`desktop-rag index --reindex`, or Re-index in Settings) "
                "or change the settings back."
            )
        with self.store.transaction():
            for key, value in self.settings.index_params.items():
                self.store.set_meta(key, str(value))

    def _vectors_for_writing(self) -> VectorIndex:
        vectors = self.vectors()
        if not self.store.get_meta("dimension"):
            with self.store.transaction():
                self.store.set_meta("dimension", str(vectors.dimension))
        self._vectors_dirty = True
        return vectors

    def save_vectors(self) -> None:
        """Write the FAISS cache if it changed, stamped with the store's generation."""
        with self._lock:
            if self._vectors is not None and self._vectors_dirty:
                self._vectors.save(self.paths.vector_index, self.store.vectors_generation())
                self._vectors_dirty = False

    # ---- reading -------------------------------------------------------------

    def status(self) -> IndexStatus:
        store = self.store
        counts = store.file_counts()
        chunks = store.count_chunks()
        dimension = store.get_meta("dimension")
        return IndexStatus(
            embedding_model=self.index_model,
            dimension=int(dimension) if dimension else known_dimension(self.index_model),
            chunks=chunks,
            chunks_pending_embedding=chunks - store.count_vectors(),
            files_total=sum(counts.values()),
            files_indexed=counts.get("indexed", 0),
            files_failed=counts.get("failed", 0),
            files_pending=counts.get("pending", 0),
            failed_files=tuple(store.failed_files()),
            sources=tuple(s.path for s in store.sources()),
        )

    def search(self, query: str, k: int | None = None) -> list[Hit]:
        """Hybrid search; keyword-only while no vector has been stored yet."""
        from desktop_rag.engine.retrieval import hybrid_search

        has_vectors = self.store.has_vectors()
        return hybrid_search(
            query, k or self.settings.top_k, self.store,
            self.embedder if has_vectors else None, self.vectors if has_vectors else None,
            self.settings.min_score,
        )

    def answerer(self):
        from desktop_rag.engine.answering import Answerer
        from desktop_rag.engine.llm import LLMClient, resolve_llm_config

        config = resolve_llm_config(self.settings)
        return Answerer(self.settings, self.search, LLMClient(config) if config else None)

    def ask(
        self, question: str, conversation_id: int | None = None, cancel: threading.Event | None = None
    ) -> Iterator[AnswerEvent]:
        """Answer events for a question; with a conversation, history is used and both turns are saved.

        The saved answer keeps every passage it was given, in order, so its `[n]` is `sources[n - 1]`.
        """
        history = self.messages(conversation_id) if conversation_id else []
        passages: tuple[Hit, ...] = ()
        answer: str | None = None
        for event in self.answerer().answer(question, history, cancel):
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

    def new_conversation(self, title: str = "New conversation") -> int:
        return conversations.create(self.store, title)

    def conversations(self) -> list[conversations.Conversation]:
        return conversations.listing(self.store)

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        conversations.rename(self.store, conversation_id, title)

    def delete_conversation(self, conversation_id: int) -> None:
        conversations.delete(self.store, conversation_id)

    def messages(self, conversation_id: int) -> list[ChatTurn]:
        return conversations.messages(self.store, conversation_id)

    # ---- settings and shutdown ---------------------------------------------------

    def apply_settings(self, settings: Settings, save: bool = True) -> bool:
        """Use new settings; returns True when the library now needs a re-index (ask the user first)."""
        self.settings = settings
        if save:
            save_settings(self.paths, settings)
        return self.needs_reindex()

    def close(self) -> None:
        """Save the vector cache, stop the parser and close every thread's connection (stop readers first)."""
        with self._write_lock:
            self.save_vectors()
            with self._lock:
                if self._parser is not None:
                    self._parser.close()
                    self._parser = None
                for store in self._stores:
                    store.close()
                self._stores.clear()
                self._local = threading.local()


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/\\") + ("\\" if "\\" in folder else "/"))


def open_engine(data_dir: str | Path | None = None, settings: Settings | None = None) -> Engine:
    """An engine for the data dir (override, $DESKTOP_RAG_HOME or the platform default)."""
    from desktop_rag.config import resolve_paths

    return Engine(resolve_paths(data_dir), settings)


__all__ = ["Engine", "open_engine"]
