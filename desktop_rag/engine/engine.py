"""The facade the GUI and CLI use: sources, index runs, status, search, answers, conversations, the review log.

It holds no state of its own and composes no flow: what is loaded lives in the runtime (runtime.py), the library
in the store (each thread its own connection), and each flow in its stage (ingest/indexing.py,
archive/importing.py, search/searching.py, answer/, review/review.py); each method says where and delegates."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from desktop_rag.config import AppPaths, Settings, load_settings, save_settings
from desktop_rag.engine.answer import assembly, turns
from desktop_rag.engine.answer.asked import asked_text, asked_where
from desktop_rag.engine.answer.events import AnswerEvent, SummaryPlan
from desktop_rag.engine.facade_documents import Documents
from desktop_rag.engine.ingest import indexing
from desktop_rag.engine.ingest.ingest import FileCallback, ProgressCallback
from desktop_rag.engine.ingest.reports import IndexReport
from desktop_rag.engine.ingest.valid_text import valid_text
from desktop_rag.engine.models.download_types import DownloadProgress
from desktop_rag.engine.models.embedding import known_dimension
from desktop_rag.engine.review.review import Review
from desktop_rag.engine.runtime import Kept, Runtime
from desktop_rag.engine.search.searching import SearchHits
from desktop_rag.engine.store import chunking, collections, conversations
from desktop_rag.engine.store import sources as library_sources
from desktop_rag.engine.store.backends import library_location, open_backend, writable_paths
from desktop_rag.engine.store.given_passages import GivenPassages
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.status import files_mark, library_status, switch_mark
from desktop_rag.engine.store.library import Listening, Place, Store
from desktop_rag.engine.store.values import ChatTurn, Hit, IndexStatus, SourceRecord


class Engine(Documents):
    """One library (a data dir). Safe to call from several threads: each gets its own SQLite connection;
    writes (index runs, source changes, settings) are serialised by the runtime's writing lock. The review log
    is one object, `engine.review` (grades, marks, signals, statistics, `evaluate`)."""

    def __init__(self, paths: AppPaths, settings: Settings | None = None, read_only: bool = False,
                 library: str | None = None) -> None:
        self.paths = writable_paths(paths)
        self.read_only = read_only  # the MCP server: nothing written (SQLite opened mode=ro, no cache, no lock)
        settings = settings or load_settings(paths)
        self._backend = open_backend(library_location(library, settings), self.paths, read_only)
        self.library: Place = self._backend  # where it is (this computer, a server) and who may see what
        self.runtime = Runtime(self.paths, settings, self._backend)
        self.review = Review(self.runtime)

    # ---- the library, its settings and what is loaded ------------------------------------

    @property
    def store(self) -> Store:
        """This thread's connection to the library."""
        return self._backend.store()

    settings: Settings = Kept()
    interface_language: str | None = Kept()  # the GUI's language ("zh", "en"); None: the settings' or locale's
    on_model_progress: Callable[[DownloadProgress], None] | None = Kept()  # a model's first-use preparation

    @property
    def index_model(self) -> str:
        """The embedding model of the stored vectors (the target model for a library without vectors)."""
        return self.runtime.index_model

    def warm_up(self) -> None:
        """Load the embedding model, the vectors and (for a bilingual library) the word list now; searches on
        other threads meanwhile answer from keyword search at once (the GUI runs this on its index worker)."""
        self.runtime.warm_up()

    def set_password(self, password: str, path: str | Path | None = None) -> None:
        """Use `password` for a locked PDF at `path` (None: any PDF that needs one) until the engine closes; kept in
        memory only, never written to the library or the settings."""
        indexing.set_password(self.runtime, password, path)

    def locked_files(self, under: Iterable[str | Path] | None = None) -> list[str]:
        """Files that failed because they need a PDF password (inside `under`, or anywhere)."""
        return indexing.locked_files(self.store, under)

    # ---- sources -----------------------------------------------------------

    def add_sources(self, paths: Iterable[str | Path], collection: int | None = None) -> list[SourceRecord]:
        """Register folders/files as sources of a collection (None: the first one; no indexing yet).
        Raises UsageError for bad paths, or for a path already in another collection."""
        with self.runtime.writing():
            return library_sources.add(self.store, paths, collection)

    def relink_source(self, path: str, chosen: str | Path, collection: int | None = None) -> SourceRecord:
        """Link a source imported without its documents (shown as not linked) to a folder or file the user
        chose; it is indexed by the next run. UsageError if it is not such a source or `chosen` does not fit."""
        from desktop_rag.engine.archive.relink import relink_path

        with self.runtime.writing():
            return relink_path(self.store, path, chosen, collection)

    def remove_source(self, path: str | Path, collection: int | None = None) -> bool:
        """Forget a source with its files, chunks and vectors. False if it was not a source (of `collection`)."""
        with self.runtime.writing():
            dropped = library_sources.remove(self.store, path, collection)
            self.runtime.forget_vectors(dropped or [])
            return dropped is not None

    def sources(self, collection: int | None = None) -> list[SourceRecord]:
        return self.store.sources(collection)

    # ---- collections ---------------------------------------------------------

    def collections(self) -> list[collections.Collection]:
        return collections.listing(self.store)

    def collection_names(self) -> list[tuple[int, str]]:
        """Every collection's (id, name), oldest first: a cheap read, without the listing's counts."""
        return collections.names(self.store)

    def collection_id(self, name: str | None) -> int | None:
        """The id of the collection called `name` (None: all collections); UsageError if there is none."""
        return None if name is None else collections.resolve(self.store, name)

    def create_collection(self, name: str) -> int:
        with self.runtime.writing():
            return collections.create(self.store, name)

    def rename_collection(self, collection_id: int, name: str) -> None:
        with self.runtime.writing():
            collections.rename(self.store, collection_id, name)

    def delete_collection(self, collection_id: int) -> None:
        """Forget a collection's sources, files, chunks and vectors (the documents on disk stay)."""
        with self.runtime.writing():
            self.runtime.forget_vectors(collections.delete(self.store, collection_id))

    # ---- export and import ----------------------------------------------------

    def export_collection(self, collection: int, target: str | Path, with_documents: bool = False,
                          replace: bool = False):
        """Write one collection (metadata, chunks, vectors, optionally the documents) to one archive file; an
        existing file that is not an archive is replaced only with `replace` (the user was asked)."""
        from desktop_rag import __version__
        from desktop_rag.engine.archive.archive_export import export_collection

        return export_collection(self.store, collection, Path(target), app_version=__version__,
                                 with_documents=with_documents, replace=replace)

    def read_archive(self, path: str | Path):
        """A fully validated archive (ArchiveError if corrupt, truncated or foreign); nothing is written."""
        from desktop_rag.engine.archive.archive_file import read_archive

        return read_archive(Path(path))

    def archive_model_problem(self, content):
        """Why the archive's vectors cannot serve this library (so its passages would be embedded again): a
        `Reason`, or None."""
        from desktop_rag.engine.archive.importing import vectors_problem

        return vectors_problem(self.runtime, self.store, content)

    def free_import_name(self, name: str, reserved: Iterable[str] = ()) -> str:
        """`name` when a collection imported under it may take it, else the first free "name (2)", "name (3)", ...
        (the app asks for another name first, offering this one); `reserved` names count as taken."""
        from desktop_rag.engine.archive.importer import free_name

        return free_name(self.store, name, reserved)

    def import_archive(self, path: str | Path, *, name: str | None = None, documents_dir: str | Path | None = None,
                       reembed: bool = False, content=None):
        """Import an archive as a new collection (archive/importing.py). Its vectors are used when they come from
        this library's model; otherwise ModelMismatchError, unless `reembed` (its chunks then wait for the vector
        phase). Included documents go to `documents_dir` (default: a new folder beside the archive)."""
        from desktop_rag.engine.archive.importing import import_archive

        return import_archive(self.runtime, self.store, path, name=name, documents_dir=documents_dir,
                              reembed=reembed, content=content)

    def copy_library_to(self, other: Engine) -> dict:
        """Copy every collection, vectors included, into `other`'s library (archive/transfer.py; move-library)."""
        from desktop_rag.engine.archive.transfer import copy_library

        return copy_library(self.store, other.runtime, other.store)

    # ---- index runs --------------------------------------------------------

    def index(self, paths: Iterable[str | Path] | None = None, *, cancel: threading.Event | None = None,
              on_progress: ProgressCallback | None = None, on_file: FileCallback | None = None, embed: bool = True,
              force: Sequence[str | Path] = (), reembed_budget_s: float | None = None,
              collection: int | None = None) -> IndexReport:
        """Add `paths` as sources (if given) and reconcile them (ingest/indexing.py); None reconciles every source
        (of `collection` if given; new paths join `collection`, or the first one). Sources not linked to this
        computer are never scanned. `force` re-reads those files even if unchanged. When the settings ask for
        another model, the library is re-embedded in the background of this run (for at most `reembed_budget_s`,
        None = to the end) while the old vectors answer. ModelMismatchError: chunked with other settings."""
        return indexing.index(self.runtime, self.store, paths, cancel=cancel, on_progress=on_progress,
                              on_file=on_file, embed=embed, force=force, reembed_budget_s=reembed_budget_s,
                              collection=collection)

    def reindex(self, **options) -> IndexReport:
        """Drop every chunk and vector and index all sources again with the current settings (`index`'s options)."""
        return indexing.reindex(self.runtime, self.store, **options)

    def needs_reindex(self, settings: Settings | None = None) -> bool:
        """True when the library holds chunks made with other chunking settings (every file is read again)."""
        return chunking.needs_reindex(self.store, (settings or self.settings).index_params)

    def reembed_plan(self, settings: Settings | None = None) -> tuple[str, int, float] | None:
        """(target model, chunks to embed, estimated seconds) when the settings switch the model, else None."""
        return indexing.reembed_plan(self.runtime, self.store, settings or self.settings)

    # ---- reading -------------------------------------------------------------

    def status(self, collection: int | None = None) -> IndexStatus:
        """The library's state, or one collection's (its files, chunks and sources; the model is the library's)."""
        model = self.index_model
        return library_status(self.store, collection, model, known_dimension(model),
                              self.runtime.multilingual_missing())

    def files_mark(self) -> tuple:
        """A cheap mark of the library's documents that differs once any process changed them (`status.files_mark`)."""
        return files_mark(self.store)

    def switch_mark(self) -> tuple[str | None, int]:
        """A model switch's model and staged count, which another process's re-embedding moves a batch at a time
        (`status.switch_mark`)."""
        return switch_mark(self.store)

    def listen_for_changes(self, on_change: Callable[[], None]) -> Listening | None:
        """On a server's library, `on_change` is called (on a listener's thread) soon after another client commits
        a change to collections, sources, files, conversations or vectors: read them again; `close()` the listener
        returned. None on this computer's library (watch its files instead)."""
        return self._backend.listen(on_change)

    def search(self, query: str, k: int | None = None, collection: int | None = None,
               folders: Sequence[str] = (), types: Sequence[str] = (),
               cancel: threading.Event | None = None, files: Sequence[str] = ()) -> list[Hit]:
        """Hybrid search (search/searching.py; keyword-only while no vector is stored) within one collection (its
        id) or all (None), and within `folders` / `files` / file `types` if given (UsageError for a folder, file or
        type the library lacks), also in the library's other language when a language model is configured and
        query translation is on (`cancel` stops waiting for that translation: the question is then searched as
        asked)."""
        within = self.restriction(collection, folders, types, files)
        return self.runtime.search(asked_text(query), k or self.settings.top_k, within, cancel)

    def restriction(self, collection: int | None = None, folders: Sequence[str] = (), types: Sequence[str] = (),
                    files: Sequence[str] = ()) -> Restriction:
        """Where a search looks (`restriction.Restriction`); UsageError for a folder, file or type the library lacks."""
        from desktop_rag.engine.store.restriction import build

        return build(self.store, collection, folders, types, files)

    def answerer(self, collection: int | None = None, folders: Sequence[str] = (), types: Sequence[str] = (),
                 cancel: threading.Event | None = None, extractive: bool = False,
                 conversation_id: int | None = None, files: Sequence[str] = ()):
        """An answerer (answer/assembly.py) that searches within `collection` (None: all collections), `folders`,
        `files` and file `types` with the feedback rules (its searches stop waiting for a query translation on
        `cancel`); `extractive`: never call a model; `conversation_id`: the conversation its stored answers belong
        to (deleted with it)."""
        within = self.restriction(collection, folders, types, files)

        def search(query: str, k: int | None = None) -> list[Hit]:
            return self.runtime.search(query, k or self.settings.top_k, within, cancel, feedback=True)

        return assembly.answerer(self.runtime, search, extractive, conversation_id)

    # ---- one document: summaries (issue 40) ----

    def summary_plan(self, path: str | Path, language: str | None = None, extractive: bool = False) -> SummaryPlan:
        """What summarising the library's file at `path` takes: the estimate shown first."""
        return assembly.summariser(self.runtime, extractive).plan(str(path), language)

    def summarise(self, path: str | Path, language: str | None = None, cancel: threading.Event | None = None,
                  extractive: bool = False, conversation_id: int | None = None,
                  question: str = "", refresh: bool = False, confirm_cost: bool = False) -> Iterator[AnswerEvent]:
        """A summary of the library's file at `path` as answer events (UsageError first if it is not one, or when it
        takes more than `Settings.summary_request_limit` requests and `confirm_cost` is not set), in `language`
        ("en"/"zh"; None: the document's); with a conversation, `question` and the summary (with its sections as
        sources) are saved as its two turns (a refusal too, as `turns.saved` says). `refresh`: write it anew, never
        the stored one."""
        given = GivenPassages(lambda: self.store)
        yield from turns.saved(self._summary(path, language, cancel, extractive, refresh, confirm_cost, given),
                               lambda: self.store, conversation_id, question or str(path), given.now)

    def _summary(self, path: str | Path, language: str | None, cancel: threading.Event | None, extractive: bool,
                 refresh: bool, confirm_cost: bool, given: GivenPassages) -> Iterator[AnswerEvent]:
        """The summary's events, its sections noted as given (its checks run at the first event asked for)."""
        summariser = assembly.summariser(self.runtime, extractive)
        yield from turns.noted(summariser.summarise(str(path), language, cancel, refresh, confirm_cost), given)

    def summary_question_plan(self, question: str, conversation_id: int | None = None, collection: int | None = None,
                              folders: Sequence[str] = (), types: Sequence[str] = (),
                              files: Sequence[str] = ()) -> SummaryPlan | None:
        """The plan (`summary_plan`) of the summary `ask` writes for `question`, or None when it asks no summary."""
        summary = asked_where(self.store, valid_text(question), conversation_id, collection, folders, types, files)[2]
        return None if summary is None else self.summary_plan(*summary)

    def forget_answers(self) -> int:
        """Remove every stored answer and summary (Settings' "Clear stored answers", `desktop-rag clear-answers`);
        how many answers there were."""
        return assembly.forget_answers(self.store)

    def context(self, question: str, collection: int | None = None, folders: Sequence[str] = (),
                types: Sequence[str] = (), files: Sequence[str] = ()) -> dict:
        """What an answer to `question` would send the model: the numbered passages after compression, and the
        passages' tokens before and after it (`desktop-rag context`)."""
        hits = self.search(question, None, collection, folders, types, files=files)
        return assembly.context(self.runtime, valid_text(question), hits)

    def ask(self, question: str, conversation_id: int | None = None, cancel: threading.Event | None = None,
            collection: int | None = None, folders: Sequence[str] = (), types: Sequence[str] = (),
            refresh: bool = False, files: Sequence[str] = (), confirm_cost: bool = False) -> Iterator[AnswerEvent]:
        """Answer events for a question; with a conversation, history is used and both turns are saved (an error
        raised before the answer too, as `turns.saved` says; a blank question is no question: UsageError, nothing
        kept). A stored answer to the same question and passages is replayed (`DoneEvent.cached`) unless `refresh`.
        Asked within `collection`, else the conversation's, else all, and within `folders` / `files` / `types`
        (UsageError before any event). "Summarise X" gets that summary (answer/summary_intent.py; `confirm_cost` as
        there)."""
        question, given = asked_text(question), GivenPassages(lambda: self.store)
        events = self._answer(question, conversation_id, cancel, collection, folders, types, refresh, files,
                              confirm_cost, given)
        yield from turns.saved(events, lambda: self.store, conversation_id, question, given.now)

    def _answer(self, question: str, conversation_id: int | None, cancel: threading.Event | None,
                collection: int | None, folders: Sequence[str], types: Sequence[str], refresh: bool,
                files: Sequence[str], confirm_cost: bool, given: GivenPassages) -> Iterator[AnswerEvent]:
        """`ask`'s events before they are saved: its checks run at the first event asked for."""
        history = self.messages(conversation_id) if conversation_id else []
        collection, within, summary = asked_where(self.store, question, conversation_id, collection, folders, types,
                                                  files)
        if summary is not None:
            yield from self._summary(*summary, cancel, False, refresh, confirm_cost, given)
            return
        answerer = self.answerer(collection, folders, types, cancel, conversation_id=conversation_id, files=files)
        events = turns.noted(answerer.answer(question, history, cancel, refresh), given)
        if not self.read_only:  # the review log: the DoneEvent gets its answer_id
            events = self.review.recorded(answerer, events, question, within, conversation_id, given.now)
        yield from events

    # ---- conversations ---------------------------------------------------------

    def new_conversation(self, title: str = "New conversation", collection: int | None = None) -> int:
        """A new conversation that asks within `collection` (None: all collections)."""
        return conversations.create(self.store, title, collection)

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
            self.review.keep_graded(conversation_id)
        conversations.delete(self.store, conversation_id)

    def messages(self, conversation_id: int) -> list[ChatTurn]:
        return turns.read(self.store, conversation_id)

    # ---- settings and shutdown ---------------------------------------------------

    def apply_settings(self, settings: Settings, save: bool = True) -> bool:
        """Use new settings; returns True when the library now needs a re-index (ask the user first)."""
        self.settings = settings
        if save:
            save_settings(self.paths, settings)
        assembly.forget_when_off(self.runtime)  # turned off: the stored answers go now
        return self.needs_reindex()

    def close(self) -> None:
        """Save the vector cache, stop the reader, close the word list and every thread's connection (stop readers
        first)."""
        self.runtime.close(then=self._backend.close)


def open_engine(data_dir: str | Path | None = None, settings: Settings | None = None) -> Engine:
    """An engine for the data dir (override, $DESKTOP_RAG_HOME or the platform default)."""
    from desktop_rag.config import resolve_paths

    return Engine(resolve_paths(data_dir), settings)


__all__ = ["Engine", "SearchHits", "open_engine"]

