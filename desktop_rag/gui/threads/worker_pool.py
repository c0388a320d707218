"""One worker primitive: a function or generator run on a pool thread, its events delivered on the GUI thread.

Modelled on napari's `create_worker` (superqt `_qthreading`): `pool.start(fn, *args)` runs `fn` on one of the
pool's threads and returns a `Worker` whose signals fire on the thread that created it (the GUI thread):

    started            the function began
    yielded(value)     each value a generator yields, or each value the function reports through the
                       callback passed as `report_kw`
    returned(value)    the return value (a generator's `return` value)
    errored(message)   an exception (or a native library's panic), as a message for the user (`worker.exception`
                       keeps the object); never raised on the pool thread, never a crash
    finished           always, last, exactly once per started worker (also after an error or a cancel)

Signals are delivered through the GUI event loop, so connecting right after `start()` misses nothing.

Cancel (`worker.cancel()`, or `pool.shutdown()`): a worker not yet running never runs; a function given the
flag as `cancel_kw` sees a `threading.Event` and decides how to stop (an answer ends with "Stopped." and is
saved, so it still returns); otherwise a generator is closed at its next yield (its `finally` blocks run, no
`returned`) and a plain function runs to its end with its result dropped.

A pool is a named `QThreadPool` (its OS threads carry the name): one thread gives a FIFO queue (the reader),
more give parallel work. `shutdown()` stops new work, cancels (or, with `finish_queued`, lets queued work
finish: nothing the user asked for is lost), joins the pool's threads and drops events still on their way.

Lifetime: every pool has a parent QObject (its owner; a TypeError otherwise) and dies with it, through Qt. A
finished worker is deleted from the event loop (`_release`) while the root of its tree is held, so a callback
holding the last reference to the pool's owner never deletes that tree under the worker (which crashed Python;
tests/gui/test_worker_lifetime.py).
"""

from __future__ import annotations

import inspect
import logging
import threading
from collections.abc import Callable, Generator
from functools import partial
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, Qt, QThreadPool, QTimer, Signal, Slot
from shiboken6 import delete, isValid

from desktop_rag.engine import PASS_THROUGH, Reason
from desktop_rag.gui import i18n

log = logging.getLogger(__name__)

SHUTDOWN_WAIT_MS = 30_000
_STARTED, _YIELDED, _RETURNED, _ERRORED, _FINISHED = range(5)


def error_message(exc: BaseException) -> str:
    """The text a user sees for a failure, in the interface's language (the class name when it has no message)."""
    return i18n.error(exc)


class Worker(QObject):
    """The GUI-side handle of one piece of background work (made by `WorkerPool.start`)."""

    started = Signal()
    yielded = Signal(object)
    returned = Signal(object)
    errored = Signal(str)
    finished = Signal()
    _event = Signal(int, object)  # pool thread -> the thread this object lives on (always queued)

    def __init__(self, pool: WorkerPool, fn: Callable[..., Any], args: tuple, kwargs: dict,
                 cancel_kw: str | None, report_kw: str | None) -> None:
        super().__init__(pool)  # owned by the pool (C++ side): a reference dropped on a pool thread frees nothing
        self.pool = pool
        self.cancel_event = threading.Event()
        self.exception: BaseException | None = None
        self.running = False
        self.done = False
        self._fn, self._args, self._kwargs = fn, args, kwargs
        self._cancel_kw, self._report_kw = cancel_kw, report_kw
        self._event.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    def failure(self, message: str) -> Reason:
        """Why it failed (`message`: its `errored` text) as codes and values, so that what shows it can say it again
        in a new language: its exception's, when it raised one."""
        return Reason.of(self.exception or message)

    def cancel(self) -> None:
        """Ask the work to stop (any thread; safe after it has finished)."""
        self.cancel_event.set()

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    # ---- on the pool thread ----

    def _send(self, kind: int, value: object = None) -> None:
        try:
            self._event.emit(kind, value)
        except RuntimeError:  # the pool is gone (its owner was destroyed): nobody is listening
            pass

    def work(self) -> None:
        """Run the function and report what happened (called by the pool thread)."""
        if self.cancelled:  # cancelled while queued: never runs
            self._send(_FINISHED)
            return
        self._send(_STARTED)
        try:
            kwargs = dict(self._kwargs)
            if self._cancel_kw:
                kwargs[self._cancel_kw] = self.cancel_event
            if self._report_kw:
                kwargs[self._report_kw] = lambda value: self._send(_YIELDED, value)
            result = self._fn(*self._args, **kwargs)
            if inspect.isgenerator(result):
                completed, result = self._iterate(result)
                if not completed:
                    return
            elif self.cancelled and not self._cancel_kw:
                return
            self._send(_RETURNED, result)
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # noqa: BLE001 - a message, never raised on a pool thread (a native library's
            # panic too: pyo3's PanicException is no Exception)
            log.warning("Background work %s failed: %s", getattr(self._fn, "__qualname__", self._fn), exc,
                        exc_info=True)
            self.exception = exc.with_traceback(None)  # keeps no worker frame (nor what it holds) alive
            self._send(_ERRORED, error_message(exc))
        finally:
            self._send(_FINISHED)

    def _iterate(self, generator: Generator) -> tuple[bool, object]:
        """(True, return value) when the generator ended, (False, None) when a cancel closed it."""
        stops_itself = bool(self._cancel_kw)
        while True:
            if self.cancelled and not stops_itself:
                generator.close()
                return False, None
            try:
                value = next(generator)
            except StopIteration as stop:
                return True, stop.value
            self._send(_YIELDED, value)

    # ---- on the GUI thread ----

    @Slot(int, object)
    def _deliver(self, kind: int, value: object) -> None:
        quiet = self.pool.stopped  # the owner has shut down: its slots may touch widgets that are gone
        if kind == _STARTED:
            self.running = True
            if not quiet:
                self.started.emit()
        elif kind == _YIELDED:
            if not quiet:
                self.yielded.emit(value)
        elif kind == _RETURNED:
            if not quiet:
                self.returned.emit(value)
        elif kind == _ERRORED:
            if not quiet:
                self.errored.emit(value)
        elif kind == _FINISHED:
            self.running, self.done = False, True
            self.pool._forget(self)
            if not quiet:
                self.finished.emit()
            QTimer.singleShot(0, partial(_release, self))  # not here, in a slot of the tree: see _release


def _release(worker: Worker) -> None:
    """After a worker's last event, from the event loop with no object of its pool's tree on the stack: delete
    it, and with it what it holds (its function, the callbacks connected to it, its reference to the pool).

    One of those may hold the last reference to the pool's owner (a window, a controller, the pool itself):
    dropped while the worker is being destroyed or disconnected, it deleted the owner's tree, the worker
    included, under that very call, and Python crashed. So the tree's root is held while the worker goes and
    let go at the end, here, where deleting the tree is safe (tests/gui/test_worker_lifetime.py).
    """
    if not isValid(worker):  # its tree went first (the pool's owner was deleted): nothing is left
        return
    root: QObject = worker
    while (parent := root.parent()) is not None:
        root = parent
    worker._fn = worker._args = worker._kwargs = None
    worker.pool = None
    delete(worker)  # its connections drop their callbacks; the root keeps every owner alive meanwhile
    del worker, parent, root  # the last reference to the tree may go here: it is deleted through Qt, safely


class _Job(QRunnable):
    """What the QThreadPool runs: one Worker's work (deleted by the pool; the Worker is the pool's child)."""

    def __init__(self, worker: Worker) -> None:
        super().__init__()
        self.worker: Worker | None = worker
        self.setAutoDelete(True)

    def run(self) -> None:
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.work()


class WorkerPool(QObject):
    """Named threads for background work; `start` returns a Worker, `submit` takes callbacks."""

    def __init__(self, name: str, max_threads: int = 1, parent: QObject | None = None,
                 finish_queued: bool = False) -> None:
        if parent is None:
            raise TypeError(f"The worker pool {name!r} needs a parent QObject (its owner, whose work it does): "
                            "Qt deletes the pool with it, so no pool is left to Python's garbage collector while "
                            "its threads' events are on their way")
        super().__init__(parent)
        self.setObjectName(name)
        self.finish_queued = finish_queued  # at shutdown, run what was queued (edits the user made) instead
        self.stopped = False
        self._pool = QThreadPool(self)
        self._pool.setObjectName(name)  # the OS thread name too
        self._pool.setMaxThreadCount(max_threads)
        self._live: set[Worker] = set()
        app = QCoreApplication.instance()
        if app is not None:  # a pool still open when the application quits is joined then
            app.aboutToQuit.connect(self.shutdown)

    def start(self, fn: Callable[..., Any], *args: Any, cancel_kw: str | None = None,
              report_kw: str | None = None, **kwargs: Any) -> Worker:
        """Queue `fn(*args, **kwargs)`; `cancel_kw` / `report_kw` name the keyword arguments through which
        it gets the cancel flag (a threading.Event) / a callback whose values arrive as `yielded`."""
        if self.stopped:
            raise RuntimeError(f"The worker pool {self.objectName()} has been shut down")
        worker = Worker(self, fn, args, kwargs, cancel_kw, report_kw)
        self._live.add(worker)
        self._pool.start(_Job(worker))
        return worker

    def submit(self, fn: Callable[[], Any], callback: Callable[[Any], None] | None = None,
               errback: Callable[[Reason], None] | None = None) -> Worker | None:
        """Run `fn()`; then `callback(result)` or `errback(reason)` on the GUI thread (None once shut down). The
        reason is why it failed as codes and values (`Worker.failure`): what shows it words it then, in the language
        of that moment, and again after a language switch."""
        if self.stopped:
            return None
        worker = self.start(fn)
        if callback is not None:
            worker.returned.connect(callback)
        if errback is not None:
            worker.errored.connect(lambda message: errback(worker.failure(message)))
        return worker

    def _forget(self, worker: Worker) -> None:
        self._live.discard(worker)

    @property
    def pending(self) -> int:
        """Workers started and not yet reported finished (queued, running, or their last event on its way)."""
        return len(self._live)

    @property
    def active_threads(self) -> int:
        return self._pool.activeThreadCount()

    def cancel_all(self) -> None:
        for worker in list(self._live):
            worker.cancel()

    def shutdown(self, wait_ms: int = SHUTDOWN_WAIT_MS) -> bool:
        """No new work; cancel (unless `finish_queued`) and join the threads. True when they all ended."""
        first = not self.stopped
        self.stopped = True
        if not self.finish_queued:
            self.cancel_all()
        done = self._pool.waitForDone(wait_ms)
        if not done and first:
            log.error("Background work in %s did not stop within %d ms", self.objectName(), wait_ms)
        return done


def owned_pool(owner: QObject, name: str, max_threads: int = 1) -> WorkerPool:
    """The pool called `name` under `owner` (made on first use): work that outlives a dialog belongs to its
    window, whose close joins every pool under it (Backend.shutdown)."""
    pool = owner.findChild(WorkerPool, name, Qt.FindChildOption.FindDirectChildrenOnly)
    if pool is None or pool.stopped:
        pool = WorkerPool(name, max_threads, owner)
    return pool
