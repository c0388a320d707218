"""What this process holds loaded for one library: embedders, the dense index (the backend's: a FAISS cache of the
stored vectors, or the server), question vectors, search results, the word list, the file reader, and the
process's hold on the library for writing.

Built from the library's backend (store/library.py: each thread's connection, the writer lock, the dense index)
and the settings; the facade (engine.py) owns one and never keeps state of its own. It is what each flow's typed
protocol asks for (`ingest.indexing.Loaded`, `archive.importing.Loaded`, `search.searching.Loaded`,
`review.evaluation.Searcher`); `search` binds the search flow to it. A new loaded part (a reranker's model, say)
belongs here, its stage in search/.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np

from desktop_rag.config import AUTO_MODEL, BUNDLED_MODEL, AppPaths, Settings
from desktop_rag.engine.endpoint import model_id_shown
from desktop_rag.engine.errors import UsageError, disk_full_guard
from desktop_rag.engine.ingest.parsing import SafeParser
from desktop_rag.engine.models.download_types import DownloadProgress
from desktop_rag.engine.models.embedding import Embedder, create_embedder, default_model, known_dimension
from desktop_rag.engine.search import searching
from desktop_rag.engine.search.cache import (BoundedLRU, CachedQueries, cached_vectors, query_vector_cache,
                                             result_cache, sentence_vector_cache)
from desktop_rag.engine.search.question import searched_text
from desktop_rag.engine.store.languages import library_has_cjk, library_languages
from desktop_rag.engine.store.library import Backend, Store, VectorSearch
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.values import Hit
from desktop_rag.engine.text.language import interface_is_chinese, text_languages
from desktop_rag.engine.text.lexicon import Lexicon, open_lexicon
from desktop_rag.engine.text.terms import has_han
from desktop_rag.engine.text.topics import Topics, topics

log = logging.getLogger(__name__)

DensePair = tuple[Embedder, VectorSearch]
SUMMARY_ENTRIES, SUMMARY_BYTES = 4096, 16 * 1024 * 1024  # summaries a read-only engine keeps in memory
TOPICS_ENTRIES = 256


class Kept:
    """An attribute of the facade that its runtime keeps (`Engine.settings`: the facade holds no state of its own)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, holder, owner: type | None = None):
        return self if holder is None else getattr(holder.runtime, self.name)

    def __set__(self, holder, value) -> None:
        setattr(holder.runtime, self.name, value)


class Runtime:
    """The loaded parts of one library, safe to use from several threads (`_lock` guards the lazy members; the
    word list has its own lock, as its first build takes seconds)."""

    def __init__(self, paths: AppPaths, settings: Settings, backend: Backend) -> None:
        self.paths, self.settings, self.read_only = paths, settings, backend.read_only
        self._store = backend.store
        self.interface_language: str | None = None  # the GUI's language ("zh", "en"); None: settings/locale
        # a model's first-use preparation (the bundled e5's conversion, an ONNX export), from the loading thread
        self.on_model_progress: Callable[[DownloadProgress], None] | None = None
        self._writer = backend.writer  # one writing process at a time, where the backend needs it
        self._dense = backend.dense
        self._write_lock = threading.RLock()
        self._lock = threading.RLock()
        self._embedders: dict[str, Embedder] = {}
        self._vectors_model: str | None = None
        self._parser: SafeParser | None = None
        self._loaders = 0  # threads in `warm_up`: searches meanwhile are keyword-only rather than wait
        self._loaders_lock = threading.Lock()
        self.results = result_cache()  # ranked hits by query and library version (search.cache)
        self.query_vectors = query_vector_cache()  # question vectors by model id
        self.sentence_vectors = sentence_vector_cache()  # answers' sentence vectors by model id and text
        self._passage_count: tuple[int | None, int] = (None, 0)  # (library version, chunks) for topic rarity
        self.topics = BoundedLRU(TOPICS_ENTRIES, TOPICS_ENTRIES * 4096)  # a question's topic terms by library version
        # a read-only library's section and document summaries (it cannot store them): reused by the next summary
        self.summaries = BoundedLRU(SUMMARY_ENTRIES, SUMMARY_BYTES)
        self._lexicon: Lexicon | None | bool = None  # once opened; False: unavailable
        self._lexicon_dir: Path | None = None  # a read-only engine's private copy of the word list
        self._lexicon_lock = threading.Lock()

    @property
    def store(self) -> Store:
        return self._store()

    # ---- models -----------------------------------------------------------------

    @property
    def index_model(self) -> str:
        """The embedding model of the stored vectors (the target model for a library without vectors)."""
        return self.store.get_meta("embedding_model") or self.target_model()

    def target_model(self, settings: Settings | None = None, more_text: Iterable[str] = ()) -> str:
        """The model the settings ask for (its id as stored and shown: `endpoint.model_id_shown`); "auto" is the multilingual model for a Chinese library (or `more_text`
        about to join it) or a Chinese interface."""
        settings = settings or self.settings
        if settings.embedding_model != AUTO_MODEL:
            return model_id_shown(settings.embedding_model)  # an endpoint's user:password@ is neither stored nor shown
        cjk = library_has_cjk(self.store) or any("zh" in text_languages(text) for text in more_text)
        return default_model(cjk, self.chinese_interface(settings))

    def chinese_interface(self, settings: Settings | None = None) -> bool:
        return interface_is_chinese(self.interface_language or (settings or self.settings).ui_language)

    def multilingual_missing(self) -> bool:
        """The library holds Chinese but "auto" can only mean the English-only model here (the bundled
        multilingual one cannot load on this platform): a downloaded multilingual model would serve it."""
        return (self.settings.embedding_model == AUTO_MODEL
                and default_model(library_has_cjk=True, interface_chinese=False) == BUNDLED_MODEL
                and library_has_cjk(self.store))

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

    # ---- the dense index ----------------------------------------------------------

    def vectors(self) -> VectorSearch:
        """The searchable index of the stored vectors (reopened when a model switch swapped them, or when another
        process moved them under a cache of this one)."""
        with self._lock:
            model = self.index_model
            if self._dense.loaded() is None or self._vectors_model != model or self._stale():
                stored = self.store.get_meta("dimension")
                dimension = int(stored) if stored else known_dimension(model)
                if dimension is None:
                    dimension = self.embedder(model).dimension
                self._dense.open(self.store, dimension)
                self._vectors_model = model
            return self._dense.loaded()

    def _stale(self, writing: bool = False) -> bool:
        """Another process changed the stored vectors since they were loaded (our own writes in progress move the
        generation too, so it is only checked outside them)."""
        if self._dense.loaded() is None or (self._writer.held and not writing):
            return False
        return self._dense.stale(self.store)

    def dense_ready(self) -> bool:
        """Whether the model and the current vectors are loaded (a dense search would not wait). Never blocks."""
        vectors, model = self._dense.loaded(), self._vectors_model
        return (vectors is not None and model is not None and model == self.index_model
                and model in self._embedders and not self._stale())

    def dense_now(self) -> bool:
        """Dense search can run now: vectors are stored, and no background `warm_up` is still loading them (a
        search or an answer meanwhile goes on from keyword search rather than wait)."""
        return self.store.has_vectors() and not (self._loaders and not self.dense_ready())

    def dense_pair(self) -> DensePair:
        """The embedder and the vectors of one model, taken together (a model switch may swap them)."""
        with self._lock:
            vectors = self.vectors()
            model = self._vectors_model or self.index_model
            return CachedQueries(self.embedder(model), model, self.query_vectors), vectors

    def loaded_vectors(self) -> int:
        """How many vectors the loaded index holds (-1: none loaded)."""
        vectors = self._dense.loaded()
        return vectors.size if vectors is not None else -1

    def sentence_similarity(self, question: str, sentences: list[str]) -> list[float]:
        """Cosine similarity of sentences to a question with the library's model (query and passage roles; answers'
        sentence choice): each sentence's vector is kept in memory by model and text, the missing ones embedded in
        one batch (bench/README.md, "The first line a person reads": what this costs an answer; asked again, nothing)."""
        if not sentences or not self.dense_now():
            return [0.0] * len(sentences)  # (while a background load runs, an answer does not wait for it)
        embedder, _ = self.dense_pair()
        question_vector = embedder.embed_queries([searched_text(question)])[0]
        vectors = cached_vectors(embedder.embed, self.index_model, sentences, self.sentence_vectors)
        return [float(x) for x in vectors @ question_vector]

    def question_topics(self, question: str) -> Topics:
        """The question's topic terms in this library (text/topics.py): rarity from the keyword index, renderings
        and Chinese words from the word list when the question or the library holds Chinese; kept per library
        version (the search and then the answer ask for the same question's)."""
        store = self.store
        version = store.library_version()
        key = (question, version)
        found = self.topics.get(key) if version is not None else None
        if found is not None:
            return found
        lexicon = self.lexicon() if has_han(question) or len(library_languages(store)) > 1 else None
        if version is None or self._passage_count[0] != version:
            self._passage_count = (version, store.count_chunks())
        found = topics(question, lexicon, store.document_frequency, self._passage_count[1])
        if version is not None:
            self.topics.put(key, found, 1024)
        return found

    def search(self, text: str, k: int, within: Restriction, cancel: threading.Event | None = None,
               feedback: bool = False) -> searching.SearchHits:
        """The app's search over what is loaded (search/searching.py; the configured language model translates the
        question; `feedback`: an answer's search, reordered by the feedback rules)."""
        from desktop_rag.engine.answer.assembly import translator

        return searching.search(text, k, within, self, lambda: translator(self), cancel, feedback)

    def compress_passages(self, query: str, hits: Sequence[Hit]) -> list[Hit]:
        """The hits with `focus` on the sentences to send (answer/compression.py, by the settings' mode and
        token budget; sentence meaning from the library's model when its vectors are loaded)."""
        from desktop_rag.engine.answer.compression import compress, compression_mode
        from desktop_rag.engine.search.fusion import dense_weight

        mode = compression_mode(self.settings.context_compression)
        weight = dense_weight(query, self.embedder().languages) if mode != "off" and self.dense_now() else 0.0
        return compress(query, hits, mode, int(self.settings.context_budget_tokens), self.sentence_similarity,
                        weight)

    def vectors_for_writing(self) -> int:
        """Ready the index an index run adds to (the library's model and dimension recorded first); its dimension."""
        vectors, store = self.vectors(), self.store
        if not store.get_meta("dimension") or not store.get_meta("embedding_model"):
            with store.transaction():
                store.set_meta("dimension", str(vectors.dimension))
                store.set_meta("embedding_model", self._vectors_model or self.index_model)
        self._dense.changed()
        return vectors.dimension

    def remove_vectors(self, chunk_ids: list[int]) -> None:
        self._dense.remove(chunk_ids)

    def forget_vectors(self, chunk_ids: list[int]) -> None:
        """Vectors whose chunks left the library (a source or a collection removed): out of the index, saved."""
        self.remove_vectors(chunk_ids)
        self.save_vectors()

    def add_loaded_vectors(self, chunk_ids: np.ndarray, matrix: np.ndarray) -> None:
        """Vectors just stored: into the loaded index (an unloaded one is rebuilt from the store)."""
        self._dense.add(chunk_ids, matrix)

    def add_stored_vectors(self, chunk_ids: list[int]) -> None:
        """Vectors the store gave new chunks from old ones (an edited file's unchanged passages): into the loaded
        index, read from the store (an unloaded one is rebuilt from it)."""
        self._dense.add_stored(self.store, chunk_ids)

    def drop_vectors(self, delete_file: bool = False, reload: bool = False) -> None:
        """Forget the loaded index (its cache file too with `delete_file`); `reload`: load the new vectors at once."""
        with self._lock:
            self._dense.drop(delete_file)
            if reload:
                self.vectors()
                self._dense.changed()

    def save_vectors(self) -> None:
        """Write the loaded index's cache if it changed, stamped with the store's generation."""
        with self._lock:
            self._dense.save(self._store)

    # ---- writing ------------------------------------------------------------------

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Change the library: this thread alone in the process, this process alone on the library (or
        LibraryBusyError), the vector cache current, and a full disk reported as a DiskFullError."""
        if self.read_only:
            raise UsageError.coded("read_only")
        with self._write_lock:
            outermost = not self._writer.held
            self._writer.acquire()
            try:
                with self._lock:
                    if outermost and self._stale(writing=True):  # another process wrote: never save over it
                        self._dense.drop()
                with disk_full_guard(self.paths.data_dir):
                    yield
            finally:
                self._writer.release()

    # ---- reader, word list, warm-up -----------------------------------------------------

    def parser(self) -> SafeParser:
        """The file reader (a long-lived child process for PDF/DOCX), with the current limits."""
        with self._lock:
            if self._parser is None:
                self._parser = SafeParser()
            self._parser.configure(self.settings)
            return self._parser

    def lexicon(self) -> Lexicon | None:
        """The Chinese-English word list for cross-language keyword evidence (built in the data folder on first
        use, about 2 s; a read-only engine never writes there: it builds a private copy in a temporary folder when
        the data folder has none); None when it cannot be built or read (search goes on without it; said once)."""
        with self._lexicon_lock:
            if self._lexicon is None:
                try:
                    self._lexicon = self._open_lexicon(self.paths.data_dir / "lexicon.sqlite3")
                except (OSError, sqlite3.Error, ValueError) as exc:
                    log.warning("Cross-language keyword matching is off: the word list is unavailable (%s)", exc)
                    self._lexicon = False
            return self._lexicon or None

    def _open_lexicon(self, path: Path) -> Lexicon:
        if not self.read_only:
            return open_lexicon(path)
        try:
            return Lexicon(path)  # opened read-only, when it is a good one
        except (ValueError, sqlite3.DatabaseError):
            self._lexicon_dir = Path(tempfile.mkdtemp(prefix="desktop-rag-lexicon-"))
            return open_lexicon(self._lexicon_dir / path.name)

    def warm_up(self) -> None:
        """Load the embedding model, the vector index and (for a bilingual library) the word list now (the GUI
        runs this on its index worker). Meanwhile searches on other threads answer from keyword search at once."""
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

    def loading(self) -> bool:
        """A `warm_up` is running."""
        return self._loaders > 0

    def close(self, then: Callable[[], None] = lambda: None) -> None:
        """Save the vector cache, stop the reader, close the word list, then `then` (closing the connections), all
        under the write lock (no index run in between)."""
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
                    if self._lexicon_dir is not None:
                        shutil.rmtree(self._lexicon_dir, ignore_errors=True)
                        self._lexicon_dir = None
                then()
