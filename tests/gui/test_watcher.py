"""FolderWatcher with real watchdog threads: debounce, lost events (inotify overflow), a dead observer restarted."""

from __future__ import annotations

import logging
import sys

import pytest

from desktop_rag.gui import watcher as watcher_module
from desktop_rag.gui.watcher import FolderWatcher

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="inotify queue overflow is a Linux event")


@pytest.fixture
def make_watcher(qtbot, monkeypatch):
    """A FolderWatcher with short timers (the health check every 200 ms); stopped at the end."""
    monkeypatch.setattr(watcher_module, "HEALTH_MS", 200)
    made: list[FolderWatcher] = []

    def factory(*sources) -> FolderWatcher:
        w = FolderWatcher(quiet_ms=150)
        made.append(w)
        w.set_sources([(str(path), kind) for path, kind in sources])
        qtbot.waitUntil(lambda: w._observer is not None and w._observer.is_alive(), timeout=10_000)
        return w

    yield factory
    for w in made:
        w.stop()


def _kernel_overflow() -> None:
    """What the kernel sends when its inotify queue is full (wd -1, IN_Q_OVERFLOW), through watchdog's own code."""
    from watchdog.observers.inotify_c import InotifyConstants, InotifyEvent, InotifyFD

    InotifyFD.get_instance().handle_event(InotifyEvent(-1, InotifyConstants.IN_Q_OVERFLOW, 0, b""))


def test_burst_of_changes_becomes_one_notice_per_source(make_watcher, qtbot, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    w = make_watcher((a, "folder"), (b, "folder"))
    seen: list[tuple[str, ...]] = []
    w.changed.connect(seen.append)
    with qtbot.waitSignal(w.changed, timeout=10_000):
        for i in range(20):
            (a / f"n{i}.txt").write_text("x", encoding="utf-8")
        (b / "one.md").write_text("x", encoding="utf-8")
        (a / ".~lock.x.docx#").write_text("x", encoding="utf-8")  # temp files alone would not count
    qtbot.wait(400)
    assert seen == [(str(a), str(b))]


@linux_only
def test_lost_events_rescan_every_source_instead_of_the_pending_ones(make_watcher, qtbot, tmp_path, caplog):
    caplog.set_level(logging.WARNING)  # watchdog reports the overflow only as a warning
    folder = tmp_path / "docs"
    folder.mkdir()
    w = make_watcher((folder, "folder"))
    changed: list[tuple[str, ...]] = []
    w.changed.connect(changed.append)
    (folder / "new.txt").write_text("x", encoding="utf-8")
    qtbot.waitUntil(lambda: bool(w._pending), timeout=10_000)  # a change is waiting for its quiet period
    with qtbot.waitSignal(w.rescan_all, timeout=10_000):
        _kernel_overflow()
    qtbot.wait(400)
    assert changed == [], "after an overflow every source is reconciled; the partial list is dropped"
    assert "lost events" in caplog.text


@linux_only
@pytest.mark.xfail(strict=True, reason="known bug (reported): the overflow is noticed through watchdog's warning "
                                        "log record, which is never created when the log level is above WARNING")
def test_lost_events_are_noticed_whatever_the_log_level(make_watcher, qtbot, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    w = make_watcher((folder, "folder"))
    root = logging.getLogger()
    before = root.level
    root.setLevel(logging.ERROR)  # as with DESKTOP_RAG_LOG_LEVEL=ERROR (setLevel also clears the loggers' caches)
    try:
        with qtbot.waitSignal(w.rescan_all, timeout=3_000):
            _kernel_overflow()
    finally:
        root.setLevel(before)


def test_dead_observer_is_restarted_and_every_source_rescanned(make_watcher, qtbot, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    w = make_watcher((folder, "folder"))
    dead = w._observer
    dead.stop()  # the watchdog thread dies under the watcher's feet
    dead.join(timeout=5)
    with qtbot.waitSignal(w.rescan_all, timeout=10_000):
        pass  # the health check notices within HEALTH_MS
    assert w._observer is not None and w._observer is not dead and w._observer.is_alive()
    with qtbot.waitSignal(w.changed, timeout=10_000) as blocker:  # and watching works again
        (folder / "after.txt").write_text("x", encoding="utf-8")
    assert blocker.args == [(str(folder),)]


def test_same_sources_keep_the_observer_and_new_ones_restart_it(make_watcher, qtbot, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    single = b / "single.txt"
    single.write_text("x", encoding="utf-8")
    w = make_watcher((a, "folder"))
    first = w._observer
    w.set_sources([(str(a), "folder")])
    assert w._observer is first
    w.set_sources([(str(a), "folder"), (str(single), "file")])
    assert w._observer is not first and not first.is_alive() and w._observer.is_alive()
    seen: list[tuple[str, ...]] = []
    w.changed.connect(seen.append)
    (b / "other.txt").write_text("x", encoding="utf-8")  # beside the single file: not a source
    qtbot.wait(800)
    assert seen == []
    with qtbot.waitSignal(w.changed, timeout=10_000) as blocker:
        single.write_text("changed", encoding="utf-8")
    assert blocker.args == [(str(single),)]
    w.set_sources([])
    assert w._observer is None
