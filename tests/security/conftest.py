"""Fixtures shared by the security tests: a real loopback chat-completions server; an answer rendered by the real
widget and the URLs a click on its links would hand the system (tests/support/answer_links.py)."""

from __future__ import annotations

import pytest

from tests.support import REPO
from tests.support.openai_server import run_openai_server


@pytest.fixture
def model_server():
    with run_openai_server() as srv:
        yield srv


@pytest.fixture
def opened(qapp):
    """Every URL a click would hand the system, recorded instead."""
    from tests.support.answer_links import urls_opened

    with urls_opened() as receiver:
        yield receiver


@pytest.fixture
def answer(qtbot):
    """`answer(text)`: an answer of `text` ([1] citing a passage) rendered by the real widget and shown."""
    from tests.support.answer_links import shown_answer

    return lambda text: shown_answer(qtbot, text)


# ---- GUI attacks run in a child process: an abort, a crash or a hang fails the test, not the run ----

GUI_CHILD_TIMEOUT = 120  # seconds; a hostile resource that hangs Qt (a FIFO, /dev/zero) hits this


_WAIT = """
def wait(signal, ms=60000, until=lambda *a: True):
    from PySide6.QtCore import QEventLoop, QTimer
    loop, got = QEventLoop(), []
    def done(*args):
        if until(*args):
            got.append(args)
            loop.quit()
    signal.connect(done)
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    signal.disconnect(done)
    return got[0] if got else None

def need(signal, ms=60000, until=lambda *a: True):
    got = wait(signal, ms, until)
    if got is None:
        raise SystemExit("timed out waiting for " + repr(signal))
    return got

def until(predicate, ms=60000):
    from time import monotonic, sleep
    from PySide6.QtCore import QCoreApplication
    deadline = monotonic() + ms / 1000
    while not predicate():
        if monotonic() > deadline:
            return False
        QCoreApplication.processEvents()
        sleep(0.01)
    return True
"""


@pytest.fixture
def gui_child(tmp_path):
    """Run a Python snippet with offscreen Qt in a child process; returns its last stdout line as JSON.

    The snippet gets `ARGS` (the extra arguments), `report(obj)` (print one JSON line), `wait(signal, ms,
    until)` (the signal's arguments once it fires on this thread with `until` true, None after `ms`), `need(...)`
    (the same, exiting with a message on a time-out) and `until(predicate, ms)` (events run until it holds, False
    after `ms`: for a signal another thread emits, recorded before the action that fires it). A non-zero
    exit (Qt abort, segfault, exception) or a hang past the timeout fails the calling test.
    """
    import json
    import os
    import subprocess
    import sys

    prelude = ("import json, os, sys\nARGS = sys.argv[1:]\n"
               "def report(obj):\n    print(json.dumps(obj), flush=True)\n" + _WAIT)

    def run(script: str, *args: str, timeout: float = GUI_CHILD_TIMEOUT, memory_mb: int = 3072) -> dict:
        def limit_memory() -> None:  # reading /dev/zero must abort quickly, not eat the shared machine's memory
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))

        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO),
                   DESKTOP_RAG_HOME=str(tmp_path / "child-home"), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
        try:
            done = subprocess.run([sys.executable, "-c", prelude + script, *args], cwd=REPO, env=env,
                                  capture_output=True, text=True, timeout=timeout,
                                  preexec_fn=limit_memory if sys.platform != "win32" else None)
        except subprocess.TimeoutExpired as exc:
            pytest.fail(f"the child process hung for {timeout} s (Qt blocked on a resource?)\n{exc.stderr}")
        assert done.returncode == 0, f"the child process died (exit {done.returncode}):\n{done.stderr[-4000:]}"
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        assert lines, f"the child reported nothing:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        return json.loads(lines[-1])

    return run
