"""Run Python's cyclic garbage collector only on the GUI thread, often and small, never over a big library."""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 100  # often: a young generation collected every 500 ms could hold 50k objects (a 20 ms walk)
BIG_LISTING = 10_000  # files: a listing this big is moved out of future collections once it is shown


class GuiGarbageCollector(QObject):
    """Disables automatic collection and collects from a GUI-thread timer instead.

    Automatic collection can start on any thread that allocates (the index worker, an answer
    thread); if it frees a cycle holding a Qt wrapper there, Qt objects die on the wrong thread.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thresholds = gc.get_threshold()
        gc.disable()
        freeze()
        self._timer = QTimer(self, interval=INTERVAL_MS)
        self._timer.timeout.connect(self.check)
        self._timer.start()

    def check(self) -> None:
        """Collect the generations whose allocation counts passed their thresholds (cheap when nothing is due)."""
        first, second, third = gc.get_count()
        if first > self._thresholds[0]:
            generation = 0
            if second > self._thresholds[1]:
                generation = 2 if third > self._thresholds[2] else 1
            gc.collect(generation)


def freeze() -> None:
    """Move today's long-lived objects (modules, classes, a loaded model) out of future full collections."""
    gc.collect()
    gc.freeze()


def keep_out_of_collections() -> None:
    """Move every object alive now (a freshly loaded 100k-file listing) out of future collections, without a
    collection first: a list splice, where a full collection walks each object (20-30 ms at 100k files), and
    the scheduled full collections would walk them again and again. Refcounting still frees them; only garbage
    cycles alive at that moment would never be collected (few: the collector runs every INTERVAL_MS, and file
    records form none)."""
    gc.freeze()


_collector: GuiGarbageCollector | None = None


def install(app: QObject) -> GuiGarbageCollector:
    """Install once per QApplication."""
    global _collector
    if _collector is None:
        _collector = GuiGarbageCollector(app)
    return _collector
