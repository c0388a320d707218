"""The cyclic garbage collector on the GUI thread while a worker floods the library with file events (a start-up
reconcile's 100k "unchanged" events, as tests/gui/test_library_scale.py posts them): each collection's time by
generation (gc.callbacks) and the longest gap of a 5 ms QTimer, over a few floods in one process; with --window,
over the whole window's phases (bench.gui_library_scale: open with its start-up reconcile, scroll, filter, index)."""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import threading
import time

from bench.common import emit, figure


class CollectionTimes:
    """gc.callbacks: how long each collection on the GUI thread took, by generation (ms)."""

    def __init__(self) -> None:
        self.gui = threading.get_ident()
        self.times: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self.counts: dict[int, list[int]] = {0: [], 1: [], 2: []}  # the generation's count as it started
        self.elsewhere = 0  # collections another thread ran (there should be none: automatic collection is off)
        self._started, self._count = 0.0, 0

    def __call__(self, phase: str, info: dict) -> None:
        if threading.get_ident() != self.gui:
            self.elsewhere += phase == "start"
        elif phase == "start":
            self._count = gc.get_count()[info["generation"]]
            self._started = time.perf_counter()
        else:
            self.times[info["generation"]].append((time.perf_counter() - self._started) * 1000)
            self.counts[info["generation"]].append(self._count)


def _collection_rows(times: CollectionTimes) -> list[dict]:
    rows = []
    for generation, spans in times.times.items():
        if spans:
            rows.append(figure(f"gui_gc.gen{generation}.longest", round(max(spans), 1), "ms", "", None,
                               note=f"{len(spans)} collections, median {statistics.median(spans):.2f} ms, "
                                    f"total {sum(spans):.0f} ms; count at start: median "
                                    f"{statistics.median(times.counts[generation]):,.0f}, "
                                    f"largest {max(times.counts[generation]):,}"))
    rows.append(figure("gui_gc.other_threads", times.elsewhere, "", "0", times.elsewhere == 0))
    return rows


def run_window(files: int) -> list[dict]:
    """The whole window (bench.gui_library_scale's phases) on a library of `files` files in 4 sources: its start-up
    reconcile sends an event per file; the collections over all its phases."""
    from bench.gui_library_scale import build, fresh_home, run_gui

    docs, database = build(files, max(4, files // 50), 4)
    times = CollectionTimes()
    gc.callbacks.append(times)
    try:
        rows = run_gui(fresh_home(database, docs), docs, files, 4, 300.0)
    finally:
        gc.callbacks.remove(times)
    return rows + _collection_rows(times)


def run(floods: int, sources: int, per_source: int) -> list[dict]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from desktop_rag.engine import FileEvent
    from desktop_rag.gui.app import create_application
    from desktop_rag.gui.models.library import LibraryModel
    from desktop_rag.gui.views.library_panel import LibraryPanel
    from tests.support.library_listings import synthetic_listing as _listing
    from tests.support.gui_stall import GapMeter

    create_application()  # the app's collector (gc_guard) and thread switch interval
    model = LibraryModel()
    panel = LibraryPanel(model)
    panel.resize(500, 700)
    panel.show()
    listing = _listing(sources, per_source)
    model.load(listing)
    paths = [f.path for _s, fs in listing for f in fs]
    while model._unmapped:
        QApplication.processEvents()
    times = CollectionTimes()
    gc.callbacks.append(times)
    meter = GapMeter()
    started = time.perf_counter()
    with meter:
        for flood in range(floods):
            state = ("unchanged", "indexed")[flood % 2]
            worker = threading.Thread(target=lambda: [model.post(FileEvent(p, state, chunks=3)) for p in paths])
            worker.start()
            while worker.is_alive() or len(model._inbox):
                QApplication.processEvents()
                time.sleep(0.001)
    seconds = time.perf_counter() - started
    gc.callbacks.remove(times)
    panel.close()
    return [figure("gui_gc.longest_gap", round(meter.longest, 1), "ms", "", None,
                   note=f"{floods} floods of {len(paths):,} events from a worker, {seconds:.1f} s, {meter.ticks} ticks"),
            *_collection_rows(times)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--floods", type=int, default=4)
    parser.add_argument("--sources", type=int, default=20)
    parser.add_argument("--per-source", type=int, default=5_000)
    parser.add_argument("--window", type=int, metavar="FILES", default=0,
                        help="instead: the whole window on a library of FILES files (bench.gui_library_scale)")
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()}", flush=True)
    rows = run_window(args.window) if args.window else run(args.floods, args.sources, args.per_source)
    print(f"load average after: {os.getloadavg()}", flush=True)
    emit("gui_gc", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
