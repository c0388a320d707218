"""The facade the GUI and CLI use: sources, index runs, status, search, answers, conversations.

It holds no state of its own: what is loaded lives in the runtime (runtime.py), the library in the store
(each thread its own connection), and each flow in its stage (search/searching.py, answer/, ingest/).
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from desktop_rag.config import INDEX_SETTINGS, AppPaths, Settings, load_settings, save_settings
from desktop_rag.engine.answer import assembly, turns
from desktop_rag.engine.errors import ModelMismatchError, UsageError
from desktop_rag.engine.ingest import reembed
from desktop_rag.engine.ingest.ingest import FileCallback, Ingestor, ProgressCallback
from desktop_rag.engine.models.download_types import DownloadProgress
from desktop_rag.engine.models.embedding import known_dimension
from desktop_rag.engine.paths import is_inside, normalise_path
from desktop_rag.engine.review.facade_methods import ReviewMethods
from desktop_rag.engine.review.recording import recorded
from desktop_rag.engine.runtime import Runtime
from desktop_rag.engine.search import feedback, searching
from desktop_rag.engine.search.searching import SearchHits
from desktop_rag.engine.store import chunking, collections, conversations, passages
from desktop_rag.engine.store import sources as library_sources
from desktop_rag.engine.store.pool import ThreadStores
from desktop_rag.engine.store.status import library_status
from desktop_rag.engine.store.store import FileRecord, SourceRecord, Store
from desktop_rag.engine.types import AnswerEvent, ChatTurn, Hit, IndexReport, IndexStatus


class _Kept:
    """An attribute the runtime keeps (the facade holds no state of its own)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, engine: Engine | None, owner: type | None = None):
        return self if engine is None else getattr(engine.runtime, self.name)

    def __set__(self, engine: Engine, value) -> None:
        setattr(engine.runtime, self.name, value)


class Engine(ReviewMethods):
    """One library (a data dir). Safe to call from several threads: each gets its own SQLite connection;
    writes (index runs, source changes, settings) are serialised by the runtime's writing lock."""

    def __init__(self, paths: AppPaths, settings: Settings | None = None, read_only: bool = False) -> None:
        self.paths = paths.ensure()
        self.read_only = read_only  # the MCP server: SQLite opened mode=ro, no cache written, no writer lock
        self._stores = ThreadStores(self.paths.database, read_only=read_only)
        self.runtime = Runtime(self.paths, settings or load_settings(paths), self._stores.current, read_only)

    # ---- the library, its settings and what is loaded ------------------------------------

    @property
    def store(self) -> Store:
        """This thread's connection to the library."""
        return self._stores.current()

    settings: Settings = _Kept()
    interface_language: str | None = _Kept()  # the GUI's language ("zh", "en"); None: the settings' or locale's
    on_model_progress: Callable[[DownloadProgress], None] | None = _Kept()  # a model's first-use preparation

    @property
    def index_model(self) -> str:
        """The embedding model of the stored vectors (the target model for a library without vectors)."""
        return self.runtime.index_model

    def warm_up(self) -> None:
        """Load the embedding model, the vectors and (for a bilingual library) the word list now; searches on
        other threads meanwhile answer from keyword search at once (the GUI runs this on its index worker)."""
        self.runtime.warm_up()

    def set_password(self, password: str, path: str | Path | None = None) -> None:
        """Use `password` for a locked PDF at `path` (None: any PDF that needs one) until the engine closes.

        Kept in memory only, never written to the library or the settings.
        """
        parser = self.runtime.parser()
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

    # ---- sources -----------------------------------------------------------

    def add_sources(self, paths: Iterable[str | Path], collection: int | None = None) -> list[SourceRecord]:
        """Register folders/files as sources of a collection (None: the first one; no indexing yet).
        Raises UsageError for bad paths, or for a path already in another collection."""
        with self.runtime.writing():
            return library_sources.add(self.store, paths, collection)

    def relink_source(self, path: str, chosen: str | Path, collection: int | None = None) -> SourceRecord:
        """Link a source imported without its documents (shown as not linked) to a folder or file the user
        chose; it is indexed by the next run. UsageError if it is not such a source or `chosen` does not fit."""
        from desktop_rag.engine.archive.relink import relink

        with self.runtime.writing():
            source = self.store.source_by_path(path)
            if source is None or (collection is not None and source.collection_id != collection):
                raise UsageError.coded("not_a_source", path=path)
            return relink(self.store, source, chosen)

    def remove_source(self, path: str | Path, collection: int | None = None) -> bool:
        """Forget a source with its files, chunks and vectors. False if it was not a source (of `collection`)."""
        with self.runtime.writing():
            source = self.store.source_by_path(normalise_path(path))
            if source is None or (collection is not None and source.collection_id != collection):
                return False
            self.runtime.remove_vectors(self.store.remove_source(source.id))
            self.runtime.save_vectors()
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
        with self.runtime.writing():
            return collections.create(self.store, name)

    def rename_collection(self, collection_id: int, name: str) -> None:
        with self.runtime.writing():
            collections.rename(self.store, collection_id, name)

    def delete_collection(self, collection_id: int) -> None:
        """Forget a collection's sources, files, chunks and vectors (the documents on disk stay)."""
        with self.runtime.writing():
            self.runtime.remove_vectors(collections.delete(self.store, collection_id))
            self.runtime.save_vectors()

    def files(self, source_id: int | None = None) -> list[FileRecord]:
        return self.store.files(source_id)

    def indexed_file(self, path: str) -> tuple[FileRecord | None, bool]:
        """The library's record of the file at `path` (None: not one) and whether it is linked to this computer
        (False for a file of a source imported without its documents: nothing is read from its path)."""
        return self.store.file_by_path(path), self.store.file_linked(path)

    def carrier(self, path: str) -> FileRecord | None:
        """The record of the file that carries the document at `path` (an e-mail, for its attachment), or None
        when `path` is a file of its own."""
        return self.store.carrier(path)

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

    def archive_model_problem(self, content):
        """Why the archive's vectors cannot serve this library (so its passages would be embedded again): a
        `Reason`, or None."""
        from desktop_rag.engine.archive.importer import model_problem

        dimension = self.store.get_meta("dimension")  # no vectors yet: the model the settings ask for, "auto"
        model = self.store.get_meta("embedding_model") or self.runtime.target_model(  # counting the archive's text
            more_text=(c["text"] for c in content.chunks))
        return model_problem(content, model, int(dimension) if dimension else None)

    def import_archive(self, path: str | Path, *, name: str | None = None, documents_dir: str | Path | None = None,
                       reembed: bool = False, content=None):
        """Import an archive as a new collection. Its vectors are used when they come from this library's
        model; otherwise ModelMismatchError, unless `reembed` (its chunks then wait for the vector phase).
        Included documents go to `documents_dir` (default: a folder beside the archive)."""
        from desktop_rag.engine.archive.importer import import_content

        path = Path(path)
        with self.runtime.writing():
            content = content or self.read_archive(path)
            problem = self.archive_model_problem(content)
            if problem and not reembed:
                raise ModelMismatchError.coded("archive_model", model=content.model, library_model=self.index_model,
                                               count=len(content.chunks))
            folder = Path(documents_dir) if documents_dir else path.with_name(f"{path.stem} documents")
            report, ids, matrix = import_content(
                self.store, content, name=name, use_vectors=problem is None,
                documents_dir=Path(normalise_path(folder)) if content.documents else None, zip_path=path)
            self.runtime.add_loaded_vectors(ids, matrix)
            self.runtime.save_vectors()
            return report

    # ---- index runs --------------------------------------------------------

    def index(self, paths: Iterable[str | Path] | None = None, *, cancel: threading.Event | None = None,
              on_progress: ProgressCallback | None = None, on_file: FileCallback | None = None, embed: bool = True,
              force: Sequence[str | Path] = (), reembed_budget_s: float | None = None,
              collection: int | None = None) -> IndexReport:
        """Add `paths` as sources (if given) and reconcile them; None reconciles every source (of `collection`
        if given; new paths join `collection`, or the first collection). Sources imported without their
        documents are never scanned until they are linked to a folder (`relink_source`).

        `force` re-reads those files even if unchanged. When the settings ask for another embedding
        model, the library is re-embedded in the background of this run (for at most
        `reembed_budget_s`, None = to the end) while the old vectors keep answering. Raises
        ModelMismatchError if the library was chunked with other settings (see `reindex`).
        """
        with self.runtime.writing():
            chunking.record(self.store, self.settings.index_params)
            if paths is not None:
                sources = self.add_sources(paths, collection)
            else:
                sources = [s for s in self.store.sources(collection) if not s.detached]
            runtime = self.runtime
            ingestor = Ingestor(self.store, self.settings, runtime.embedder, runtime.vectors_for_writing,
                                runtime.parser(), cancel, on_progress, on_file)
            try:
                report = ingestor.run(sources, embed=embed, force=[normalise_path(p) for p in force])
                if embed and not report.cancelled:
                    deadline = None if reembed_budget_s is None else time.monotonic() + reembed_budget_s
                    remaining = reembed.switch_model(
                        self.store, runtime.target_model(), runtime.embedder, lambda: runtime.drop_vectors(reload=True),
                        cancel or threading.Event(), on_progress or (lambda _p: None), deadline)
                    report = dataclasses.replace(report, reembed_remaining=remaining)
                return report
            finally:
                runtime.save_vectors()

    def reindex(self, **kwargs) -> IndexReport:
        """Drop every chunk and vector and index all sources again with the current settings."""
        with self.runtime.writing():
            self.store.clear_index()
            self.runtime.drop_vectors(delete_file=True)
            reembed.abandon(self.store)
            with self.store.transaction():
                self.store.delete_meta(*INDEX_SETTINGS, "dimension")
            return self.index(**kwargs)

    def needs_reindex(self, settings: Settings | None = None) -> bool:
        """True when the library holds chunks made with other chunking settings (every file is read again)."""
        return chunking.needs_reindex(self.store, (settings or self.settings).index_params)

    def reembed_plan(self, settings: Settings | None = None) -> tuple[str, int, float] | None:
        """(target model, chunks to embed, estimated seconds) when the settings switch the model, else None."""
        target = self.runtime.target_model(settings)
        current = self.store.get_meta("embedding_model")
        if current is None or current == target or not self.store.has_vectors():
            return None
        done, total = reembed.staged_counts(self.store) if reembed.staged_model(self.store) == target else (0, 0)
        chunks = (total or self.store.count_chunks()) - done
        return target, chunks, chunks / max(self.runtime.embedder(target).speed, 1e-6)

    # ---- reading -------------------------------------------------------------

    def status(self, collection: int | None = None) -> IndexStatus:
        """The library's state, or one collection's (its files, chunks and sources; the model is the library's)."""
        model = self.index_model
        return library_status(self.store, collection, model, known_dimension(model),
                              self.runtime.multilingual_missing())

    def search(self, query: str, k: int | None = None, collection: int | None = None,
               folders: Sequence[str] = (), types: Sequence[str] = (),
               cancel: threading.Event | None = None, files: Sequence[str] = ()) -> list[Hit]:
        """Hybrid search (search/searching.py; keyword-only while no vector is stored) within one collection (its
        id) or all (None), and within `folders` / `files` / file `types` if given (UsageError for a folder, file or
        type the library lacks), also in the library's other language when a language model is configured and
        query translation is on (`cancel` stops waiting for that translation: the question is then searched as
        asked)."""
        within = self.restriction(collection, folders, types, files)
        return searching.search(query, k or self.settings.top_k, within, self.runtime, self.store, self.settings,
                                lambda: assembly.translator(self.runtime), cancel)

    def restriction(self, collection: int | None = None, folders: Sequence[str] = (), types: Sequence[str] = (),
                    files: Sequence[str] = ()):
        """Where a search looks (`restriction.Restriction`); UsageError for a folder, file or file type the library
        lacks."""
        from desktop_rag.engine.store.restriction import build
        from desktop_rag.engine.store.scope import Restriction

        if not folders and not types and not files:
            return Restriction(collection)
        return build(self.store, collection, folders, types, files)

    def answerer(self, collection: int | None = None, folders: Sequence[str] = (), types: Sequence[str] = (),
                 cancel: threading.Event | None = None, extractive: bool = False,
                 conversation_id: int | None = None, files: Sequence[str] = ()):
        """An answerer (answer/assembly.py) that searches within `collection` (None: all collections), `folders`,
        `files` and file `types` (its searches stop waiting for a query translation on `cancel`); `extractive`: never
        call a model; `conversation_id`: the conversation its stored answers belong to (deleted with it)."""
        def search(query: str, k: int | None = None) -> list[Hit]:
            hits = self.search(query, k, collection, folders, types, cancel, files)
            return feedback.applied(self.store, query, hits, self.restriction(collection, folders, types, files)) \
                if self.settings.feedback else hits  # the feedback rules (search/feedback.py)

        return assembly.answerer(self.runtime, search, extractive, conversation_id)

    # ---- one document: summaries (issue 40) ----

    def summariser(self, extractive: bool = False):
        """Summaries of one document (answer/summarising.py) with the configured model (`extractive` or none:
        the document's most central sentences by the library's embedding model)."""
        return assembly.summariser(self.runtime, extractive)

    def summary_plan(self, path: str | Path, language: str | None = None, extractive: bool = False):
        """What summarising the library's file at `path` takes (`types.SummaryPlan`): the estimate shown first."""
        return self.summariser(extractive).plan(str(path), language)

    def summarise(self, path: str | Path, language: str | None = None, cancel: threading.Event | None = None,
                  extractive: bool = False, conversation_id: int | None = None,
                  question: str = "", refresh: bool = False, confirm_cost: bool = False) -> Iterator[AnswerEvent]:
        """A summary of the library's file at `path` as answer events (UsageError first if it is not one, or when it
        takes more than `Settings.summary_request_limit` requests and `confirm_cost` is not set), in `language`
        ("en"/"zh"; None: the document's); with a conversation, `question` and the summary (with its sections as
        sources) are saved as its two turns. `refresh`: write it anew, never the stored one."""
        events = self.summariser(extractive).summarise(str(path), language, cancel, refresh, confirm_cost)
        first = next(events, None)  # the checks run before anything is yielded
        if first is not None:
            yield from turns.saved(itertools.chain((first,), events), lambda: self.store, conversation_id,
                                   question or str(path))

    def forget_answers(self) -> int:
        """Remove every stored answer and summary (Settings' "Clear stored answers", `desktop-rag clear-answers`);
        how many answers there were."""
        return assembly.forget_answers(self.store)

    def context(self, question: str, collection: int | None = None, folders: Sequence[str] = (),
                types: Sequence[str] = (), files: Sequence[str] = ()) -> dict:
        """What an answer to `question` would send the model: the numbered passages after compression, and the
        passages' tokens before and after it (`desktop-rag context`)."""
        hits = self.search(question, None, collection, folders, types, files=files)
        return assembly.context(self.runtime, question, hits)

    def ask(
        self, question: str, conversation_id: int | None = None, cancel: threading.Event | None = None,
        collection: int | None = None, folders: Sequence[str] = (), types: Sequence[str] = (),
        refresh: bool = False, files: Sequence[str] = (), confirm_cost: bool = False,
    ) -> Iterator[AnswerEvent]:
        """Answer events for a question; with a conversation, history is used and both turns are saved.
        A stored answer to the same question and passages is replayed (`DoneEvent.cached`) unless `refresh`.

        The question is asked within `collection`, else within the conversation's collection, else in all;
        and within `folders` / `files` / file `types` if given (checked first: UsageError before any event).
        A question asking for a document's summary ("summarise X") gets that summary (answer/summary_intent.py),
        which needs `confirm_cost` when it takes more requests than the limit (see `summarise`).
        """
        history = self.messages(conversation_id) if conversation_id else []
        collection, within, summary = self._asked(question, conversation_id, collection, folders, types, files)
        if summary is not None:
            yield from self.summarise(*summary, cancel, conversation_id=conversation_id, question=question,
                                      refresh=refresh, confirm_cost=confirm_cost)
            return
        answerer = self.answerer(collection, folders, types, cancel, conversation_id=conversation_id, files=files)
        events = answerer.answer(question, history, cancel, refresh)
        if not self.read_only:  # the review log: the DoneEvent gets its answer_id
            events = recorded(self.runtime, answerer, events, question, within, conversation_id)
        yield from turns.saved(events, lambda: self.store, conversation_id, question)

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
        assembly.forget_when_off(self.runtime)  # turned off: the stored answers go now
        return self.needs_reindex()

    def close(self) -> None:
        """Save the vector cache, stop the reader, close the word list and every thread's connection (stop readers
        first)."""
        self.runtime.close(then=self._stores.close)

    # ---- one document: the estimate before a summary asked as a question (issue 40) ----

    def summary_question_plan(self, question: str, conversation_id: int | None = None, collection: int | None = None,
                              folders: Sequence[str] = (), types: Sequence[str] = (), files: Sequence[str] = ()):
        """The plan (`summary_plan`) of the summary `ask` writes for `question`, or None when it asks no summary."""
        summary = self._asked(question, conversation_id, collection, folders, types, files)[2]
        return None if summary is None else self.summary_plan(*summary)

    def _asked(self, question: str, conversation_id: int | None, collection: int | None, folders: Sequence[str],
               types: Sequence[str], files: Sequence[str]):
        """Where `question` is asked (the collection, else the conversation's; the restriction: UsageError for a bad
        folder, file or type) and, when it asks for a document's summary, (that file, the question's language)."""
        from desktop_rag.engine.answer.summary_intent import question_language, summary_target

        if collection is None and conversation_id:
            collection = collections.conversation_collection(self.store, conversation_id)
        within = self.restriction(collection, folders, types, files)
        target = summary_target(question, passages.files_with_text(self.store, within),
                                within.files[0] if len(within.files) == 1 else None)
        return collection, within, None if target is None else (target, question_language(question, target))


def open_engine(data_dir: str | Path | None = None, settings: Settings | None = None) -> Engine:
    """An engine for the data dir (override, $DESKTOP_RAG_HOME or the platform default)."""
    from desktop_rag.config import resolve_paths

    return Engine(resolve_paths(data_dir), settings)


__all__ = ["Engine", "SearchHits", "open_engine"]
