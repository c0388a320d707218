"""A worker pool's lifetime: Qt owns it through its parent, so dropping it at any moment never crashes Python.

Each case runs in a child interpreter: a segfault there fails the test instead of killing pytest.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from tests.support import REPO

PRELUDE = """
import gc, os, sys, threading
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication
app = QApplication([])
from desktop_rag.gui.threads.worker_pool import WorkerPool

def spin(condition, seconds=60):
    # a time limit, not a count of rounds: 200,000 rounds ran out on a busy machine (the run split over the cores)
    from time import monotonic
    deadline = monotonic() + seconds
    while monotonic() < deadline:
        if condition():
            return
        app.processEvents()
    raise SystemExit("gave up waiting")
"""


def run_child(body: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-X", "faulthandler", "-c", PRELUDE + textwrap.dedent(body), *args],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def test_a_pool_without_an_owner_is_refused_with_a_clear_error_not_a_crash():
    """Before: a parentless pool collected while its last event was queued killed the process (SIGSEGV)."""
    done = run_child("""
        def once():
            got = []
            try:
                pool = WorkerPool("desktop-rag-orphan", 1, None, finish_queued=True)
            except TypeError as exc:
                print("refused:", exc)
                return
            pool.submit(lambda: 1, got.append)
            spin(lambda: got)  # the result is in; the worker's `finished` is still on its way
            pool.shutdown()

        once()  # the pool is collected here
        for _ in range(50):
            app.processEvents()
        print("alive")
    """)
    assert done.returncode == 0, f"child died with {done.returncode}: {done.stderr[-2000:]}"
    assert "refused: The worker pool 'desktop-rag-orphan' needs a parent QObject" in done.stdout
    assert done.stdout.rstrip().endswith("alive")


def test_an_owner_whose_last_reference_is_a_workers_callback_goes_without_a_crash(tmp_path):
    """Before: the callback (a closure over its owner) was dropped while the finished worker was being deleted;
    the owner's tree, the worker included, was deleted under that call and Python crashed (SIGSEGV), e.g. an
    `AppSettings` made without a parent in tests/gui/test_settings_owner.py, about one run in ten."""
    done = run_child("""
        from pathlib import Path
        from PySide6.QtCore import Signal
        from desktop_rag.config import Settings, resolve_paths
        from desktop_rag.gui.threads.app_settings import AppSettings

        class Owner(QObject):
            changed = Signal(object)

            def __init__(self):
                super().__init__()
                self.saver = WorkerPool("desktop-rag-owner", 1, self, finish_queued=True)

            def update(self, k):
                self.saver.submit(lambda: None, lambda _r: self.changed.emit(k))  # the closure holds self

        def generic():
            owner, seen = Owner(), []
            owner.changed.connect(seen.append)
            for k in range(4):
                owner.update(k)
            spin(lambda: len(seen) == 4)
            owner.saver.shutdown()

        home = Path(sys.argv[1])
        fast = Settings(embedding_model="hash:64")

        def settings(i):  # the same, with the app's settings owner made without a parent
            owner, seen = AppSettings(resolve_paths(home / str(i)), fast), []
            owner.changed.connect(lambda old, new: seen.append(new))
            for k in (3, 4, 5, 6):
                owner.update(fast.replace(top_k=k))
            spin(lambda: len(seen) == 4)
            owner.close()

        for i in range(60):
            generic()
            settings(i)
            for _ in range(3):
                app.processEvents()
        print("alive")
    """, str(tmp_path))
    assert done.returncode == 0, f"child died with {done.returncode}: {done.stderr[-2000:]}"
    assert done.stdout.rstrip().endswith("alive")


def test_dropping_the_owner_at_any_moment_of_a_job_never_crashes():
    """The owner (and with it the pool) is collected while the job is queued, running, has delivered its
    result but not `finished`, and has finished but not yet been deleted."""
    done = run_child("""
        def once(phase):
            owner = QObject()
            pool = WorkerPool("desktop-rag-owned", 1, owner, finish_queued=True)
            gate, got = threading.Event(), []
            pool.submit(lambda: gate.wait(5), got.append)  # blocks the one thread: the next job stays queued
            queued = pool.start(lambda: 2)
            if phase == "queued":
                gate.set()
            elif phase == "running":
                spin(lambda: pool.active_threads == 1)
                gate.set()
            else:
                gate.set()
                spin(lambda: got)
                if phase == "finished":
                    spin(lambda: queued.done)
            del owner, pool, queued  # Qt deletes the pool with its owner; a running job is waited for
            gc.collect()

        for round in range(15):
            for phase in ("queued", "running", "returned", "finished"):
                once(phase)
                for _ in range(20):
                    app.processEvents()
        print("alive")
    """)
    assert done.returncode == 0, f"child died with {done.returncode}: {done.stderr[-2000:]}"
    assert done.stdout.rstrip().endswith("alive")
