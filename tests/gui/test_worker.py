"""The worker primitive (gui/threads/worker_pool.py): events on the GUI thread, errors as messages, cancel, joined threads."""

from __future__ import annotations

import os
import threading
import time

import pytest
from PySide6.QtCore import QObject, Qt, QThread
from PySide6.QtWidgets import QApplication

from desktop_rag.engine import PdfFile, Reason
from desktop_rag.gui.threads.worker_pool import Worker, WorkerPool


@pytest.fixture
def pool(qtbot):
    QApplication.instance() or QApplication([])
    owner = QObject()  # every pool has an owner (a parentless one is refused: test_worker_lifetime.py)
    made: list[WorkerPool] = []

    def factory(name: str = "test-worker-pool", threads: int = 1, **kwargs) -> WorkerPool:
        made.append(WorkerPool(name, threads, owner, **kwargs))
        return made[-1]

    yield factory
    for p in made:
        p.shutdown()


def os_threads_named(name: str) -> list[str]:
    """Live OS threads of this process whose name starts with `name` (Linux: Qt names pool threads after the pool)."""
    names = []
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm", encoding="utf-8") as f:
                names.append(f.read().strip())
        except OSError:  # ended meanwhile
            pass
    return [n for n in names if n.startswith(name[:15])]  # the kernel keeps 15 characters


def record(worker: Worker) -> list[tuple]:
    """Every event of `worker` with whether it arrived on the GUI thread."""
    events: list[tuple] = []
    gui = QApplication.instance().thread()

    def on(kind: str):
        return lambda *args: events.append((kind, *args, QThread.currentThread() is gui))

    direct = Qt.ConnectionType.DirectConnection  # the slot runs on whichever thread emits: it must be the GUI's
    worker.started.connect(on("started"), direct)
    worker.yielded.connect(on("yielded"), direct)
    worker.returned.connect(on("returned"), direct)
    worker.errored.connect(on("errored"), direct)
    worker.finished.connect(on("finished"), direct)
    return events


def test_a_function_runs_off_the_gui_thread_and_its_result_arrives_on_it(pool, qtbot):
    ran_on: list[int] = []

    def work(a: int, b: int) -> int:
        ran_on.append(threading.get_ident())
        return a + b

    worker = pool().start(work, 2, b=3)
    events = record(worker)
    qtbot.waitUntil(lambda: bool(events) and events[-1][0] == "finished", timeout=5000)
    assert ran_on and ran_on[0] != threading.main_thread().ident
    assert events == [("started", True), ("returned", 5, True), ("finished", True)]


def test_a_generator_yields_in_order_then_returns_all_on_the_gui_thread(pool, qtbot):
    def counting(n: int):
        for i in range(n):
            yield i
        return "done"

    worker = pool().start(counting, 50)
    events = record(worker)
    qtbot.waitUntil(lambda: bool(events) and events[-1][0] == "finished", timeout=5000)
    assert events[0] == ("started", True)
    assert events[1:51] == [("yielded", i, True) for i in range(50)]
    assert events[51:] == [("returned", "done", True), ("finished", True)]


def test_a_reporting_function_delivers_its_reports_as_yielded(pool, qtbot):
    def download(total: int, on_progress) -> str:
        for i in range(total):
            on_progress(i)
        return "folder"

    worker = pool().start(download, 5, report_kw="on_progress")
    events = record(worker)
    qtbot.waitUntil(lambda: bool(events) and events[-1][0] == "finished", timeout=5000)
    assert [e[1] for e in events if e[0] == "yielded"] == [0, 1, 2, 3, 4]
    assert ("returned", "folder", True) in events and all(e[-1] for e in events)


def test_an_exception_is_delivered_as_a_message_not_raised(pool, qtbot):
    def broken():
        raise ValueError("The file is not a PDF")

    def broken_generator():
        yield 1
        raise OSError()

    first = pool().start(broken)
    first_events = record(first)
    second = pool("test-worker-gen").start(broken_generator)
    second_events = record(second)
    qtbot.waitUntil(lambda: first.done and second.done, timeout=5000)
    assert first_events == [("started", True), ("errored", "The file is not a PDF", True), ("finished", True)]
    assert isinstance(first.exception, ValueError)
    # no message: the class name, never an empty error
    assert second_events[1:] == [("yielded", 1, True), ("errored", "OSError", True), ("finished", True)]


def test_submit_calls_back_with_the_result_or_the_reason(pool, qtbot):
    """The errback gets why as a Reason (codes and values, worded when shown: test_errors_follow_language)."""
    got: list = []
    p = pool()
    p.submit(lambda: 41 + 1, got.append, lambda m: got.append(("error", m)))
    p.submit(lambda: 1 / 0, got.append, lambda m: got.append(("error", m)))
    p.submit(lambda: PdfFile(__file__), errback=lambda m: got.append(("error", m)))
    qtbot.waitUntil(lambda: len(got) == 3, timeout=5000)
    assert got[:2] == [42, ("error", Reason.of("division by zero"))]
    assert got[2][1].code == "view_damaged", got


def test_cancel_stops_a_generator_at_its_next_yield_and_runs_its_cleanup(pool, qtbot):
    cleaned = threading.Event()

    def endless():
        try:
            i = 0
            while True:
                yield i
                i += 1
                time.sleep(0.001)
        finally:
            cleaned.set()

    worker = pool().start(endless)
    events = record(worker)
    qtbot.waitUntil(lambda: len(events) >= 5, timeout=5000)
    worker.cancel()
    qtbot.waitUntil(lambda: worker.done, timeout=5000)
    assert cleaned.is_set()
    kinds = [e[0] for e in events]
    assert kinds[-1] == "finished" and "returned" not in kinds and "errored" not in kinds


def test_a_function_given_the_flag_decides_how_to_stop(pool, qtbot):
    def answer(question: str, cancel: threading.Event):
        n = 0
        while not cancel.is_set():
            n += 1
            yield f"token{n}"
            time.sleep(0.001)
        yield "Stopped."  # an answer ends itself and is kept
        return n

    worker = pool().start(answer, "q", cancel_kw="cancel")
    events = record(worker)
    qtbot.waitUntil(lambda: len(events) >= 4, timeout=5000)
    worker.cancel()
    qtbot.waitUntil(lambda: worker.done, timeout=5000)
    yielded = [e[1] for e in events if e[0] == "yielded"]
    assert yielded[-1] == "Stopped."
    assert events[-2][0] == "returned" and events[-2][1] == len(yielded) - 1


def test_a_queued_worker_cancelled_before_it_starts_never_runs(pool, qtbot):
    release = threading.Event()
    ran: list[str] = []
    p = pool()
    blocker = p.start(lambda: release.wait(10))
    queued = p.start(lambda: ran.append("queued"))
    events = record(queued)
    queued.cancel()
    release.set()
    qtbot.waitUntil(lambda: blocker.done and queued.done, timeout=5000)
    assert ran == [] and events == [("finished", True)]


def test_one_thread_runs_jobs_in_the_order_they_were_given(pool, qtbot):
    order: list[int] = []
    p = pool()
    for i in range(30):
        p.submit(lambda i=i: order.append(i))
    qtbot.waitUntil(lambda: p.pending == 0, timeout=5000)
    assert order == list(range(30))


def test_many_short_jobs_leave_no_thread_and_no_worker_behind(pool, qtbot):
    name = "test-many-jobs"
    p = pool(name, threads=3)
    before = threading.active_count()
    results: list[int] = []
    for i in range(300):
        p.submit(lambda i=i: i * 2, results.append)
    qtbot.waitUntil(lambda: len(results) == 300, timeout=20_000)
    assert sorted(results) == [2 * i for i in range(300)]
    assert len(os_threads_named(name)) <= 3  # threads are reused, never one per job
    qtbot.waitUntil(lambda: p.pending == 0 and not p.findChildren(Worker), timeout=5000)  # handles deleted
    assert threading.active_count() <= before + 3
    assert p.shutdown() and p.active_threads == 0
    qtbot.waitUntil(lambda: not os_threads_named(name), timeout=3000)  # joined: the OS threads are gone


def test_shutdown_cancels_joins_and_drops_late_events(pool, qtbot):
    name = "test-shutdown-pool"
    p = pool(name)
    started = threading.Event()

    def endless():
        started.set()
        while True:
            yield "tick"
            time.sleep(0.005)

    worker = p.start(endless)
    late: list = []
    worker.yielded.connect(late.append)
    worker.finished.connect(lambda: late.append("finished"))
    assert started.wait(5)
    assert p.shutdown(5000)  # cancelled at the next yield, thread joined
    assert p.active_threads == 0 and worker.cancelled
    count = len(late)
    qtbot.wait(50)  # events still on their way are dropped: the owner is gone
    assert len(late) == count and "finished" not in late
    with pytest.raises(RuntimeError):
        p.start(lambda: None)
    assert p.submit(lambda: None) is None
    qtbot.waitUntil(lambda: not os_threads_named(name), timeout=3000)


def test_shutdown_with_finish_queued_runs_what_was_asked(pool, qtbot):
    release = threading.Event()
    done: list[int] = []
    p = pool(finish_queued=True)
    p.submit(lambda: release.wait(10))
    for i in range(5):
        p.submit(lambda i=i: done.append(i))
    release.set()
    assert p.shutdown(5000)
    assert done == [0, 1, 2, 3, 4]
