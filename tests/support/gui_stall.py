"""How long the GUI thread went without running: a 5 ms timer's longest gap between ticks, and the limit the window
tests hold it to."""

from __future__ import annotations

import sys
import threading
import time
import traceback

from PySide6.QtCore import QTimer

STALL_LIMIT_MS = 250.0  # generous: CI machines are noisy (the benches report against 100 ms)


class GapMeter:
    """A 5 ms QTimer on the GUI thread; records the longest gap between ticks (ms) and the ticks counted in the
    current phase (`with meter:`, or `phase()` to `result()`). With `why`, a helper thread samples the GUI thread's
    Python stack whenever a tick is over 60 ms late (`report` prints the commonest)."""

    def __init__(self, why: bool = False) -> None:
        self.longest, self.ticks, self._last, self._running = 0.0, 0, time.perf_counter(), False
        self.timer = QTimer(interval=5)
        self.timer.timeout.connect(self._tick)
        self.samples: dict[str, int] = {}
        if why:
            threading.Thread(target=self._sample, args=(threading.get_ident(),), daemon=True).start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, (now - self._last) * 1000)
        self._last, self.ticks = now, self.ticks + 1

    def phase(self) -> None:
        """Start measuring afresh."""
        self.longest, self.ticks, self._last, self._running = 0.0, 0, time.perf_counter(), True
        self.timer.start()

    def result(self) -> tuple[float, int]:
        """Stop measuring: the phase's longest gap (ms) and its ticks."""
        self.timer.stop()
        self._running = False
        return self.longest, self.ticks

    def __enter__(self) -> GapMeter:
        self.phase()
        return self

    def __exit__(self, *exc) -> None:
        self.result()

    def _sample(self, gui: int) -> None:
        while True:
            time.sleep(0.02)
            if self._running and time.perf_counter() - self._last > 0.06:
                frame = sys._current_frames().get(gui)
                if frame is not None:
                    stack = "".join(traceback.format_stack(frame, limit=12)[-8:])
                    self.samples[stack] = self.samples.get(stack, 0) + 1

    def report(self) -> None:
        """Print the stacks sampled most often while a tick was late, and forget them."""
        for stack, count in sorted(self.samples.items(), key=lambda kv: -kv[1])[:6]:
            print(f"--- {count} samples (20 ms each) while a tick was late:\n{stack}", flush=True)
        self.samples.clear()
