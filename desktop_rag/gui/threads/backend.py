"""The GUI's link to the engine: owns the index worker, the reader pool and the watcher; ordered shutdown.

After every committed write it emits one `library_changed(LibraryChange)` saying what changed (the idea of
Anki's `CollectionOp`): views and controllers refresh from that signal, not from refresh calls placed after
each operation. Another process's edits to collections, conversations and documents are announced the same way
(`outside_changes`)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal

from desktop_rag.config import AppPaths, Settings
from desktop_rag.engine import Engine, IndexReport, IndexStatus, Reason
from desktop_rag.gui import i18n
from desktop_rag.gui.threads.app_settings import AppSettings
from desktop_rag.gui.threads.index_worker import IndexRequest, IndexWorker
from desktop_rag.gui.threads.outside_changes import OutsideChanges
from desktop_rag.gui.threads.watcher import FolderWatcher
from desktop_rag.gui.threads.worker_pool import WorkerPool

log = logging.getLogger(__name__)
STATUS_EVERY_MS = 1000
WARM_UP_GRACE_MS = 300  # at close, how long to wait for a model load before leaving it behind


CHANGE_KINDS = frozenset({"files", "collections", "conversations", "model", "grades"})


@dataclass(frozen=True)
class LibraryChange:
    """What a committed write changed: some of CHANGE_KINDS ("files": sources, files, chunks or vectors;
    "collections"; "conversations"; "model": the embedding model the library moves to; "grades": a grade or a marked
    passage given, or every one forgotten)."""

    kinds: frozenset[str]

    def touches(self, *kinds: str) -> bool:
        return not self.kinds.isdisjoint(kinds)


def _listing(engine: Engine, collection: int | None = None) -> tuple:
    """(source, files) pairs (of one collection, or all), read on the reader thread."""
    return tuple((s, tuple(engine.files(s.id))) for s in engine.sources(collection))


def _watched(engine: Engine) -> tuple[tuple[str, str], ...]:
    """(path, kind) of every source the watcher watches: all collections' (whichever one is shown), never a
    not-linked one."""
    return tuple((s.path, s.kind) for s in engine.sources() if not s.detached)


def _chunking(settings: Settings) -> dict:
    """The index-affecting settings other than the model: changing them means reading every file again."""
    return {k: v for k, v in settings.index_params.items() if k != "embedding_model"}


class Backend(QObject):
    """Everything that talks to the engine off the GUI thread. Signals carry immutable values."""

    status_changed = Signal(object)  # IndexStatus
    status_failed = Signal(object)  # Reason: why the status could not be read (a library's server gone, a wrong
    # password), shown in either language
    library_loaded = Signal(object)  # tuple of (SourceRecord, tuple[FileRecord, ...])
    index_finished = Signal(object)  # IndexReport
    index_failed = Signal(object)  # Reason: why a run stopped (its codes: said again in a new language)
    busy_changed = Signal(int)  # 1/0, never bool (PySide6 6.12 refcount bug)
    library_changed = Signal(object)  # LibraryChange, after every committed write
    source_removed = Signal(str)  # the path of a source removed from the library (after library_changed)
    stopping = Signal()  # shutdown began: stop your background work (it is joined right after)
    shut_down = Signal()

    def __init__(self, paths: AppPaths, app_settings: AppSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.paths = paths
        self.app_settings = app_settings  # the one owner; the engine gets each change through the index worker
        self.engine = Engine(paths, app_settings.current)  # cheap: no disk or model access until used on a worker
        self.opened_library = app_settings.current.library.strip()  # the location opened: Settings may name another
        self.engine.interface_language = i18n.language()  # a Chinese interface gets the multilingual model
        # reads and conversation edits, one at a time in order; at close, what is queued still runs
        self.reader = WorkerPool("desktop-rag-reader", 1, self, finish_queued=True)
        self.index_thread = QThread()
        self.index_thread.setObjectName("desktop-rag-index")
        self.indexer = IndexWorker(self.engine)
        self.indexer.moveToThread(self.index_thread)
        # direct: quit from the worker thread itself (the GUI thread is blocked in wait() at shutdown)
        self.indexer.closed.connect(self.index_thread.quit, Qt.ConnectionType.DirectConnection)
        self.indexer.run_finished.connect(self._after_run)
        self.indexer.run_failed.connect(self._after_failure)
        self.indexer.source_removed.connect(self._after_remove)
        self.indexer.busy_changed.connect(self._on_busy)
        self.indexer.task_done.connect(self._task_done)
        self.collection: int | None = None  # the collection shown and added to (None: all shown, added to the first)
        self.watcher = FolderWatcher(parent=self)
        self.watcher.changed.connect(self.reconcile)
        self.watcher.rescan_all.connect(lambda: self.reconcile(None))
        self._status_timer = QTimer(self, interval=STATUS_EVERY_MS)
        self._status_timer.timeout.connect(self.refresh_status)
        self._status_in_flight = self._status_again = False
        self.busy = False
        self.stopped = False
        self.worker_abandoned = False
        self.index_thread.start()
        app_settings.changed.connect(self._settings_changed)
        self.library_changed.connect(self._refresh_for)
        self.outside = OutsideChanges(self, self)  # another process's collection, conversation and document edits

    @property
    def settings(self) -> Settings:
        return self.app_settings.current

    # ---- start-up ----

    def start(self) -> None:
        """Load the model and the index in the background, then reconcile every source (resumes old runs)."""
        self.refresh()
        self.warm_up()
        self.indexer.submit(IndexRequest("index", None))
        self.outside.start(None if self.opened_library else self.paths.database)

    def warm_up(self) -> None:
        """Load the model and the index in the background (again after the library could not be opened)."""
        self.indexer.submit(IndexRequest("warm_up"))

    # ---- requests ----

    def add(self, paths: Sequence[str]) -> None:
        self.indexer.submit(IndexRequest("index", tuple(paths), collection=self.collection))

    def write(self, fn: Callable, changes: Sequence[str], callback: Callable | None = None,
              errback: Callable | None = None) -> None:
        """Run a change to the index (a collection created, renamed, deleted, imported) on the index worker,
        the one thread that writes sources, files, chunks, vectors and collections; once it is committed,
        `library_changed` says what it changed (`changes`), then `callback` gets its result."""
        if not self.stopped:
            self.indexer.submit(IndexRequest("task", task=(fn, self._announcing(changes, callback), errback)))

    def edit(self, fn: Callable, changes: Sequence[str], callback: Callable | None = None,
             errback: Callable | None = None) -> None:
        """Run a conversation edit (its own short transaction) on the reader thread, in order with the reads;
        then `library_changed` and `callback`, as `write` does."""
        self.run(fn, self._announcing(changes, callback), errback)

    def announce(self, *kinds: str) -> None:
        """Say that a write committed elsewhere (an answer's turns, saved by the answer worker) changed these."""
        unknown = set(kinds) - CHANGE_KINDS
        if unknown:
            raise ValueError(f"unknown change kinds: {sorted(unknown)}")
        if not self.stopped:
            self.library_changed.emit(LibraryChange(frozenset(kinds)))

    def _announcing(self, changes: Sequence[str], callback: Callable | None) -> Callable:
        def done(result: object) -> None:
            self.announce(*changes)
            if callback is not None:
                callback(result)
        return done

    def _refresh_for(self, change: LibraryChange) -> None:
        """The backend's own views of the library: the listing and the status."""
        if change.touches("files", "collections"):
            self.refresh_library()
        if change.touches("files", "collections", "model"):
            self.refresh_status()

    def _task_done(self, payload: tuple) -> None:
        callback, errback, result, error = payload
        if error:
            if errback is not None:
                errback(error)
        elif callback is not None:
            callback(result)

    def reconcile(self, sources: Sequence[str] | None) -> None:
        """Reconcile these sources (None: every source), e.g. after the watcher saw changes."""
        if not self.stopped:
            self.indexer.submit(IndexRequest("index", None if sources is None else tuple(sources)))

    def force(self, files: Sequence[str], sources: Sequence[str] | None = None) -> None:
        self.indexer.submit(IndexRequest("index", None if sources is None else tuple(sources), tuple(files)))

    def link(self, source: str, chosen: str, errback: Callable[[Reason], None]) -> None:
        """Link a not-linked source (imported without its documents) to `chosen`, then reconcile it."""
        engine = self.engine
        self.write(lambda: engine.relink_source(source, chosen).path, ("files",), lambda path: self.reconcile([path]),
                   errback)

    def remove(self, source: str) -> None:
        self.indexer.submit(IndexRequest("remove", (source,)))

    def _settings_changed(self, old: Settings, new: Settings) -> None:
        """The owner saved new settings: the engine takes them on the index worker, after what is queued."""
        if new.ui_language != old.ui_language:
            self.engine.interface_language = i18n.resolve_language(new.ui_language)
        self.indexer.submit(IndexRequest("apply", settings=new))
        if new.embedding_model != old.embedding_model:
            self.announce("model")
        if new.embedding_model != old.embedding_model and _chunking(new) == _chunking(old):
            self.indexer.submit(IndexRequest("index", None))  # a model switch re-embeds in the background
        # new chunking: the settings flow asked first and queues `reindex` (which embeds with the new model too)

    def reindex(self, settings: Settings) -> None:
        """Drop every chunk and index again with these settings (saved by the owner; applied first)."""
        self.indexer.submit(IndexRequest("reindex", settings=settings))

    def cancel(self) -> None:
        """Stop the running index job and forget queued ones (runs resume where they stopped)."""
        self.indexer.cancel_current(drop_queued=True)

    def run(self, fn: Callable, callback: Callable | None = None, errback: Callable | None = None) -> None:
        """Run a read, or a conversation edit (its own short transaction), on the reader thread, in order. As for
        `write` and `edit`, `errback` gets why it failed as a `Reason`, said in the language of when it is shown."""
        if not self.stopped:
            self.reader.submit(fn, callback, errback)

    # ---- reads ----

    def refresh(self) -> None:
        self.refresh_library()
        self.refresh_status()

    def refresh_library(self) -> None:
        engine = self.engine
        collection = self.collection
        # the mark first: a write between the two reads is shown now and announced once more, never missed
        self.run(lambda: (engine.files_mark(), _listing(engine, collection), _watched(engine)), self._library_ready)

    def refresh_status(self) -> None:
        """Read the status on the reader thread; asked again while a read is in flight, one more read follows
        it (the one in flight may have started before the change that prompted this call)."""
        if self._status_in_flight:
            self._status_again = True
            return
        self._status_in_flight, self._status_again = True, False
        self.run(self.engine.status, self._status_ready, self._status_error)

    def _status_read_done(self) -> None:
        self._status_in_flight = False
        if self._status_again:
            self.refresh_status()

    def _library_ready(self, read: tuple) -> None:
        mark, listing, watched = read
        self.outside.shown(mark)
        self.watcher.set_sources(watched)
        self.library_loaded.emit(listing)

    def _status_ready(self, status: IndexStatus) -> None:
        self.status_changed.emit(status)
        self._status_read_done()

    def _status_error(self, reason: Reason) -> None:
        log.warning("Status refresh failed: %s", reason)
        self.status_failed.emit(reason)  # its codes: said again in a new language
        self._status_read_done()

    # ---- worker feedback ----

    def _on_busy(self, busy: int) -> None:
        self.busy = bool(busy)
        if busy:
            self._status_timer.start()
        else:
            self._status_timer.stop()
        self.busy_changed.emit(1 if busy else 0)

    def _after_run(self, report: IndexReport) -> None:
        self.announce("files")
        self.index_finished.emit(report)

    def _after_failure(self, reason: Reason) -> None:
        self.announce("files")  # what the run committed before it failed stays
        self.index_failed.emit(reason)

    def _after_remove(self, path: str) -> None:
        self.announce("files")
        self.source_removed.emit(path)

    # ---- shutdown ----

    def shutdown(self) -> None:
        """Cancel work and join every thread: the window's worker pools first (answers, viewer, dialogs are
        cancelled; the reader finishes what is queued), then Engine.close on the index worker (it saves the
        vector cache and closes every connection) and the index thread itself."""
        if self.stopped:
            return
        self.stopped = True
        self._status_timer.stop()
        self.outside.stop()
        self.indexer.cancel_current(drop_queued=True, closing=True)  # the index run winds down meanwhile
        self.stopping.emit()
        self.watcher.stop()
        for pool in (self.parent() or self).findChildren(WorkerPool):
            pool.shutdown()
        self.indexer.submit(IndexRequest("close"))
        if self.indexer.warming and not self.index_thread.wait(WARM_UP_GRACE_MS):
            # Loading the model cannot be interrupted and writes nothing (every write is a committed
            # transaction): the app may exit without waiting for it (see app.run).
            log.info("Closing while the embedding model loads; not waiting for the load to finish")
            self.worker_abandoned = True
        elif not self.index_thread.wait(120_000):
            log.error("The index worker did not stop within two minutes")
        self.shut_down.emit()
