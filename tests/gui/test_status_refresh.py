"""A status refresh asked for while a read is in flight is not dropped: one more read follows, so the status
bar ends on a read that started after the last change."""

from __future__ import annotations

import threading

from PySide6.QtCore import QTimer

from tests.gui.conftest import wait_idle


def test_a_refresh_during_a_read_gets_a_read_of_its_own(make_window, qtbot, monkeypatch):
    window = make_window()
    wait_idle(qtbot, window)
    window.backend.outside.stop()  # no read prompted by the data folder's own files (the index run's WAL writes)
    qtbot.waitUntil(lambda: not window.backend._status_in_flight, timeout=10_000)  # none started before the patch
    engine, real = window.backend.engine, window.backend.engine.status
    gate, started = threading.Event(), []

    def status(*args, **kwargs):
        started.append(len(started))
        if len(started) == 1:
            gate.wait(10)  # the first read is slow: the change below happens while it runs
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "status", status)
    shown = []
    window.status_updated.connect(shown.append)
    window.backend.refresh_status()
    window.backend.refresh_status()  # e.g. an index run ended while the first read was running
    window.backend.refresh_status()  # several requests in flight: still one more read, not three
    QTimer.singleShot(100, gate.set)
    qtbot.waitUntil(lambda: len(shown) == 2 and not window.backend._status_in_flight, timeout=10_000)
    qtbot.wait(300)
    assert started == [0, 1] and len(shown) == 2
