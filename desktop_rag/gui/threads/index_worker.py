"""The long-lived index worker: the one thread that writes the index, fed by a queue of requests."""

from __future__ import annotations

import logging
import threading
from collections import deque
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from desktop_rag.config import Settings
from desktop_rag.engine import PASS_THROUGH, Engine, Reason

log = logging.getLogger(__name__)

REEMBED_SLICE_S = 20.0  # a model switch runs in slices, so new files and removals are not held up behind it


@dataclass(frozen=True)
class IndexRequest:
    """One job for the index worker.

    kind: 'warm_up' | 'index' | 'reindex' | 'remove' | 'apply' | 'close'.
    `paths` None means every source; `force` re-reads those files.
    """

    kind: str
    paths: tuple[str, ...] | None = None
    force: tuple[str, ...] = ()
    settings: Settings | None = None
    collection: int | None = None  # new paths join this collection (None: the first one)
    task: Any = None  # kind 'task': (fn, callback, errback), a write such as deleting a collection


class IndexWorker(QObject):
    """Owns every write to the index; processes a queue of requests on its own long-lived QThread.

    Not a `worker.WorkerPool` job, on purpose: requests are merged while queued (repeated reconciles become
    one run), a cancel reaches the running run but not the queued `apply`/`remove`/`close` behind it, a model
    switch re-queues itself after what is waiting, and `close` must run last on this same thread so that
    Engine.close (vector cache saved, connections closed) follows every write. A pool would need all of that
    on top, so the queue stays a QObject on its own QThread (joined by Backend.shutdown).
    """

    progress = Signal(object)  # Progress
    file_event = Signal(object)  # FileEvent
    run_finished = Signal(object)  # IndexReport
    run_failed = Signal(object)  # Reason: its codes, said again in a new language
    model_state = Signal(str, object)  # 'loading' | 'preparing' ("done/total") | 'ready' | 'error' | 'unopened' (the
    # library could not be read), message
    busy_changed = Signal(int)  # 1/0: PySide6 6.12 Signal(bool).emit drops a reference to True/False
    source_removed = Signal(str)
    settings_applied = Signal(object)  # Settings
    task_done = Signal(object)  # (callback, errback, result, why it failed: a Reason) of a 'task' request
    closed = Signal()
    _wake = Signal()

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine
        self._queue: deque[IndexRequest] = deque()
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._running: IndexRequest | None = None  # the request being run (under the lock)
        self._closing = False
        self.warming = False  # loading the model: cannot be interrupted, writes nothing
        self._wake.connect(self._drain)

    # ---- called from the GUI thread ----

    def submit(self, request: IndexRequest) -> None:
        """Queue a request; repeated reconcile requests are merged."""
        with self._lock:
            if request.kind == "index" and self._merge(request):
                return
            self._queue.append(request)
        self._wake.emit()

    def _merge(self, request: IndexRequest) -> bool:
        for i, queued in enumerate(self._queue):
            if queued.kind != "index":
                continue
            if (queued.paths is None) != (request.paths is None) or queued.collection != request.collection:
                continue  # explicit paths may add new sources; a full reconcile would not
            paths = None if queued.paths is None else tuple(dict.fromkeys(queued.paths + request.paths))
            self._queue[i] = replace(queued, paths=paths, force=tuple(dict.fromkeys(queued.force + request.force)))
            return True
        return False

    def cancel_current(self, drop_queued: bool = False, closing: bool = False) -> None:
        """Stop the running index job at the next safe point; optionally forget queued index jobs
        (and, when closing, a model load that has not started)."""
        dropped = ("index", "reindex", "warm_up") if closing else ("index", "reindex")
        with self._lock:
            if drop_queued:
                self._queue = deque(r for r in self._queue if r.kind not in dropped)
        self._cancel.set()

    def cancel_collection(self, collection: int) -> None:
        """The collection is being deleted: stop the run that adds to it and forget the queued ones (their files
        would be read and embedded, then deleted with it); the deletion, queued after, runs next."""
        with self._lock:
            self._queue = deque(r for r in self._queue if not (r.kind == "index" and r.collection == collection))
            running = self._running
            if running is not None and running.kind == "index" and running.collection == collection:
                self._cancel.set()

    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    # ---- on the worker thread ----

    @Slot()
    def _drain(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    return
                request = self._queue.popleft()
                self.warming = request.kind == "warm_up"  # set under the lock: shutdown reads it after a drop
                self._cancel = threading.Event()
                cancel = self._cancel
                self._running = request
            if self._closing and request.kind != "close":
                continue
            try:
                self._run(request, cancel)
            finally:
                with self._lock:
                    self._running = None

    def _run(self, request: IndexRequest, cancel: threading.Event) -> None:
        try:
            if request.kind == "warm_up":
                self._warm_up()
            elif request.kind in ("index", "reindex"):
                self._index(request, cancel)
            elif request.kind == "remove":
                for path in request.paths or ():
                    self.engine.remove_source(path)
                    self.source_removed.emit(path)
            elif request.kind == "task":
                self._task(request.task)
            elif request.kind == "apply" and request.settings is not None:
                self.engine.apply_settings(request.settings, save=False)  # AppSettings saved them already
                self.settings_applied.emit(request.settings)
            elif request.kind == "close":
                self._closing = True
                self.engine.close()
                self.closed.emit()
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # noqa: BLE001 - shown to the user, never a traceback dialog; a native
            # library's panic too (pyo3's PanicException is no Exception): the thread lives on
            log.exception("Index worker request %s failed", request.kind)
            self.busy_changed.emit(0)
            self.run_failed.emit(Reason.of(exc))

    def _warm_up(self) -> None:
        try:
            model = self.engine.index_model  # the library's: a server that refuses or is gone fails here
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # noqa: BLE001 - said in the window (the status read says why too)
            self.model_state.emit("unopened", Reason.of(exc))
            return
        self.model_state.emit("loading", model)
        self.engine.on_model_progress = self._preparing
        self.warming = True
        try:
            self.engine.warm_up()
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # noqa: BLE001 - a native library's panic too
            self.model_state.emit("error", Reason.of(exc))
            return
        finally:
            self.warming = False
        self.model_state.emit("ready", self.engine.index_model)

    def _preparing(self, progress) -> None:
        """The model's first-use preparation, step by step (on the thread that needs the model; the signal is
        queued). One prepared outside `warm_up` (an index run that moves an "auto" library to the multilingual
        model) says ready when done: no `warm_up` follows to say it."""
        if progress.phase != "done":  # the last report ("verifying") has every step done: it shows the last step
            step = min(progress.files_done + 1, progress.files_total)
            self.model_state.emit("preparing", f"{step}/{progress.files_total}")
        elif not self.warming:
            self.model_state.emit("ready", progress.repo_id)

    def _index(self, request: IndexRequest, cancel: threading.Event) -> None:
        self.busy_changed.emit(1)
        kwargs: dict[str, Any] = dict(cancel=cancel, on_progress=self.progress.emit, on_file=self.file_event.emit)
        if request.kind == "reindex":
            if request.settings is not None:
                self.engine.apply_settings(request.settings, save=False)
                self.settings_applied.emit(request.settings)
            self._warm_up()
            report = self.engine.reindex(**kwargs)
        else:
            paths = request.paths
            if paths is not None:
                from pathlib import Path

                existing = tuple(p for p in paths if Path(p).exists())
                paths = existing if existing == paths else None  # a vanished source: reconcile everything
            report = self.engine.index(paths, force=request.force, reembed_budget_s=REEMBED_SLICE_S,
                                       collection=request.collection, **kwargs)
        self.busy_changed.emit(0)
        self.run_finished.emit(report)
        if report.reembed_remaining and not report.cancelled and not cancel.is_set():
            self._requeue(IndexRequest("index", None))  # the model switch goes on after what is queued

    def _task(self, task: tuple) -> None:
        fn, callback, errback = task
        try:
            result, error = fn(), Reason()
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # noqa: BLE001 - a user-facing message for the errback (a panic too)
            log.info("Index worker task failed: %s", exc)
            result, error = None, Reason.of(exc)
        self.task_done.emit((callback, errback, result, error))

    def _requeue(self, request: IndexRequest) -> None:
        """Queue from the worker thread itself: the running drain loop picks it up (no re-entrant wake)."""
        with self._lock:
            if not self._merge(request):
                self._queue.append(request)
