"""The library tree at scale: lazy rows, keyed updates with exact totals, refresh without reset, sliced filter."""

from __future__ import annotations

import random
import time

import pytest

from desktop_rag.engine.store import FileRecord, SourceRecord
from desktop_rag.engine.types import FileEvent
from desktop_rag.gui.models import library as library_module
from desktop_rag.gui.models.library import COL_CHUNKS, COL_STATE, ErrorRole, LibraryModel, PathRole, StateRole
from desktop_rag.gui.views.library_panel import LibraryPanel


def _listing(sources: int, per_source: int, failed_every: int = 0) -> tuple:
    out, file_id = [], 0
    for s in range(sources):
        root = f"/lib/s{s:02d}"
        files = []
        for f in range(per_source):
            file_id += 1
            failed = failed_every and f % failed_every == 0
            files.append(FileRecord(file_id, s + 1, f"{root}/d{f // 50:03d}/n{f:05d}.txt", 10, 1, "h",
                                    "failed" if failed else "indexed", "broken" if failed else "", 0 if failed else 2))
        out.append((SourceRecord(s + 1, root, "folder"), tuple(files)))
    return tuple(out)


def _brute_totals(model: LibraryModel, listing: tuple, live: dict[str, tuple[str, int]]) -> dict[str, int]:
    """Totals recomputed from scratch: the listing, then each file's last event."""
    files = chunks = failed = 0
    paths = {f.path: (f.status, f.chunk_count) for _s, fs in listing for f in fs}
    paths.update(live)
    for state, n in paths.values():
        if state == "removed":
            continue
        files += 1
        chunks += n
        failed += state == "failed"
    return {"sources": len(listing), "files": files, "chunks": chunks, "failed": failed}


@pytest.fixture
def panel(qtbot):
    model = LibraryModel()
    widget = LibraryPanel(model)
    widget.resize(500, 700)
    widget.show()
    qtbot.addWidget(widget)
    return widget


def test_a_big_source_reaches_the_view_in_batches_and_scrolling_fetches_more(panel, qtbot):
    model, tree = panel.model, panel.tree
    model.load(_listing(3, 5_000))
    assert model.rowCount() == 3
    qtbot.waitUntil(lambda: all(tree.isExpanded(model.index(r, 0)) for r in range(3)))
    first = model.index(0, 0)
    held = model.rowCount(first)
    assert 0 < held <= 2 * library_module.FIRST_ROWS, "expanding must not hand the view all 5,000 rows"
    assert model.canFetchMore(first)
    # scrolling a middle source's last row into view fetches its next rows (the view itself only does so at the end)
    tree.scrollTo(model.index(held - 1, 0, first))
    qtbot.waitUntil(lambda: model.rowCount(first) > held, timeout=5_000)
    last = model.index(2, 0)
    before = model.rowCount(last)
    tree.verticalScrollBar().setValue(tree.verticalScrollBar().maximum())
    qtbot.waitUntil(lambda: model.rowCount(last) > before, timeout=5_000)
    assert sum(model.rowCount(model.index(r, 0)) for r in range(3)) < 3_000


def test_index_of_a_file_the_view_has_not_fetched_fetches_up_to_it(panel):
    model = panel.model
    model.load(_listing(2, 5_000))
    path = "/lib/s01/d090/n04500.txt"
    index = model.index_of(path)
    assert index.isValid() and index.data(PathRole) == path and index.data() == "n04500.txt"
    assert index.row() == 4500 and model.rowCount(index.parent()) > 4500


def test_events_update_by_path_and_totals_stay_exact(panel):
    model = panel.model
    listing = _listing(4, 2_000, failed_every=7)
    model.load(listing)
    rng = random.Random(4)
    paths = [f.path for _s, fs in listing for f in fs]
    live: dict[str, tuple[str, int]] = {}
    for _ in range(3_000):
        path = rng.choice(paths)
        state = rng.choice(["unchanged", "indexed", "failed", "removed", "indexing", "queued"])
        chunks = rng.randint(0, 9)
        model.apply(FileEvent(path, state, "bad" if state == "failed" else "", chunks))
        previous = live.get(path) or next((f.status, f.chunk_count) for _s, fs in listing for f in fs if f.path == path)
        live[path] = (state, chunks if state in ("indexed", "unchanged", "failed", "removed") else previous[1])
    new = "/lib/s02/d000/a-new.txt"
    model.apply(FileEvent(new, "indexed", chunks=5))
    live[new] = ("indexed", 5)
    model.apply(FileEvent("/elsewhere/x.txt", "indexed", chunks=3))  # outside every source: ignored
    assert model.totals() == _brute_totals(model, listing, live)
    failed = next(p for p, (s, _n) in live.items() if s == "failed")
    index = model.index_of(failed)
    assert index.data(StateRole) == "failed" and index.data(ErrorRole) == "bad"
    assert model.index_of(new).siblingAtColumn(COL_CHUNKS).data() == 5
    source_row = model.index_of("/lib/s02")
    expected_chunks = sum(n for p, (s, n) in {**{f.path: (f.status, f.chunk_count) for f in listing[2][1]},
                                               **{p: v for p, v in live.items() if p.startswith("/lib/s02/")}}.items()
                          if s != "removed")
    assert source_row.siblingAtColumn(COL_CHUNKS).data() == expected_chunks


def test_a_flood_of_events_costs_per_event_not_per_file(panel):
    """The start-up reconcile sends one 'unchanged' event per file: with a scan per event 20k events on 100k files
    took minutes; keyed by path they take well under a second."""
    model = panel.model
    listing = _listing(20, 5_000)
    started = time.perf_counter()
    model.load(listing)
    loaded = time.perf_counter() - started
    paths = [f.path for _s, fs in listing for f in fs][::5]
    started = time.perf_counter()
    for path in paths:
        model.apply(FileEvent(path, "unchanged", chunks=2))
    per_event = (time.perf_counter() - started) / len(paths)
    assert loaded < 1.0, f"loading 100k files took {loaded:.2f} s"
    assert per_event < 200e-6, f"{per_event * 1e6:.0f} µs per event"
    assert model.index_of(paths[-1]).data(StateRole) == "unchanged"


def test_refresh_with_the_same_files_keeps_rows_expansion_and_fetched_rows(panel, qtbot):
    model, tree = panel.model, panel.tree
    listing = _listing(2, 1_000)
    model.load(listing)
    qtbot.waitUntil(lambda: tree.isExpanded(model.index(0, 0)))
    model.index_of("/lib/s00/d010/n00500.txt")  # the view now holds 600 rows of s00
    held = model.rowCount(model.index(0, 0))
    resets, removed = [], []
    model.modelReset.connect(lambda: resets.append(1))
    model.rowsRemoved.connect(lambda *a: removed.append(a))
    model.load(listing)
    assert resets == [] and removed == []
    assert model.rowCount(model.index(0, 0)) == held and tree.isExpanded(model.index(0, 0))
    changed = (listing[0], (listing[1][0], listing[1][1][1:]))  # s01 lost a file: only s01's rows are redone
    model.load(changed)
    assert resets == [] and tree.isExpanded(model.index(1, 0))
    assert model.rowCount(model.index(0, 0)) == held
    assert model.totals()["files"] == 1_999


def test_filter_runs_in_slices_and_keeps_live_state(panel, qtbot):
    model = panel.model
    listing = _listing(3, 4_000)
    model.load(listing)
    model.apply(FileEvent("/lib/s01/d001/n00077.txt", "failed", "nope"))
    with qtbot.waitSignal(model.filter_done, timeout=10_000):
        panel.filter_edit.setText("N0007")  # any case
        assert panel.filter_pending()
    shown = [model.index(r, 0, model.index(s, 0)).data(PathRole)
             for s in range(3) for r in range(model.rowCount(model.index(s, 0)))]
    assert len(shown) == 3 * 10 and all("n0007" in p for p in shown)
    assert model.index_of("/lib/s01/d001/n00077.txt").data(StateRole) == "failed"
    assert not model.index_of("/lib/s01/d001/n00100.txt").isValid()
    model.apply(FileEvent("/lib/s00/d000/n00079-new.txt", "indexed", chunks=1))  # matches: shown at once
    model.apply(FileEvent("/lib/s00/d000/other.txt", "indexed", chunks=1))  # does not match: counted, not shown
    assert model.index_of("/lib/s00/d000/n00079-new.txt").isValid()
    assert not model.index_of("/lib/s00/d000/other.txt").isValid()
    assert model.totals()["files"] == 12_002
    with qtbot.waitSignal(model.filter_done, timeout=10_000):
        panel.filter_edit.setText("")
    assert model.index_of("/lib/s00/d000/other.txt").isValid()
    assert not panel.filter_pending()


def test_events_posted_from_a_worker_thread_are_applied_in_slices_in_order(panel, qtbot):
    """100k 'unchanged' events as queued signals would be delivered in one batch (no timer runs in between);
    through the inbox the GUI thread keeps ticking while it applies them."""
    import threading

    from PySide6.QtCore import QTimer

    model = panel.model
    listing = _listing(20, 5_000)
    model.load(listing)
    paths = [f.path for _s, fs in listing for f in fs]
    gaps, last = [], [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer(interval=5)
    timer.timeout.connect(tick)
    timer.start()
    worker = threading.Thread(target=lambda: [model.post(FileEvent(p, "unchanged", chunks=3)) for p in paths])
    worker.start()
    qtbot.waitUntil(lambda: not worker.is_alive() and not model._inbox, timeout=60_000)
    timer.stop()
    model.post(FileEvent(paths[0], "failed", "late"))  # after the flood, in order
    assert model.totals()["chunks"] == 2 * len(paths) + len(paths)  # not drained yet: totals lag ...
    assert model.index_of(paths[0]).data(StateRole) == "failed"  # ... but every read drains first
    assert model.totals() == {"sources": 20, "files": len(paths), "chunks": 3 * (len(paths) - 1), "failed": 1}
    assert len(gaps) > 20 and max(gaps) < 0.25, f"longest GUI gap {max(gaps) * 1000:.0f} ms"
