"""How long the GUI thread went without running: a 5 ms timer's longest gap between ticks, and the limit the window
tests hold it to."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer

STALL_LIMIT_MS = 250.0  # generous: CI machines are noisy (the benches report against 100 ms)


class GapMeter:
    """A 5 ms QTimer on the GUI thread; records the longest gap between ticks (ms) and the ticks counted."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.ticks = 0
        self._last = time.perf_counter()
        self.timer = QTimer(interval=5)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, (now - self._last) * 1000)
        self._last = now
        self.ticks += 1

    def __enter__(self) -> GapMeter:
        self._last = time.perf_counter()
        self.timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self.timer.stop()
