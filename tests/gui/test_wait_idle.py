"""The GUI tests' `wait_idle` helper is bounded: a status read that fails (while another is in flight, or every
time) ends the wait at once with the reason, never a silent wait to the timeout."""

from __future__ import annotations

import threading
import time

import pytest
from PySide6.QtCore import QTimer

from tests.gui.conftest import wait_idle


def test_a_read_in_flight_that_fails_is_waited_out_then_a_fresh_read_shows(make_window, qtbot, monkeypatch):
    window = make_window()
    wait_idle(qtbot, window)
    engine, real = window.backend.engine, window.backend.engine.status
    gate, calls = threading.Event(), []

    def status(*args, **kwargs):
        calls.append(threading.current_thread().name)
        if len(calls) == 1:  # the read already in flight when wait_idle starts: it fails
            gate.wait(10)
            raise OSError("database disk image is malformed (test)")
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "status", status)
    qtbot.waitUntil(lambda: not window.backend._status_in_flight)  # a read the start asked for since: the real one
    window.backend.refresh_status()
    assert window.backend._status_in_flight
    shown = []
    window.status_updated.connect(shown.append)
    QTimer.singleShot(100, gate.set)  # the first read fails while wait_idle is waiting
    started = time.monotonic()
    wait_idle(qtbot, window, timeout=8_000)
    assert len(calls) == 2 and len(shown) == 1  # the failed read, then wait_idle's own, shown in the status bar
    assert window.last_status is shown[0] and time.monotonic() - started < 6


def test_a_status_read_that_always_fails_ends_the_wait_with_its_reason(make_window, qtbot, monkeypatch):
    window = make_window()
    wait_idle(qtbot, window)

    def status(*_args, **_kwargs):
        raise OSError("the library cannot be read (test)")

    monkeypatch.setattr(window.backend.engine, "status", status)
    started = time.monotonic()
    with pytest.raises(pytest.fail.Exception, match=r"status read failed: .*the library cannot be read \(test\)"):
        wait_idle(qtbot, window, timeout=30_000)
    assert time.monotonic() - started < 10  # at once, not at the timeout


def test_a_worker_that_stays_busy_fails_with_what_it_is_doing(make_window, qtbot, monkeypatch):
    window = make_window()
    wait_idle(qtbot, window)
    monkeypatch.setattr(window.backend.indexer, "pending", lambda: 3)  # a queue that never drains
    with pytest.raises(pytest.fail.Exception, match=r"wait_idle timed out: the index worker is still busy .*queued=3"):
        wait_idle(qtbot, window, timeout=300)
