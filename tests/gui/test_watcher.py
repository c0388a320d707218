"""FolderWatcher with real watchdog threads: debounce, lost events (inotify overflow), a dead observer restarted,
the inotify watch limit (a real ENOSPC in a user namespace) falling back to polling."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys

import pytest

from desktop_rag.gui.threads import watcher as watcher_module
from desktop_rag.gui.threads.watcher import FolderWatcher
from tests.support import REPO

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


def _kernel_overflow(w: FolderWatcher) -> None:
    """What the kernel sends when its inotify queue is full (wd -1, IN_Q_OVERFLOW), handed to the watcher's own
    inotify instance as its reading thread does (watchdog's handle_event and watch groups do the rest)."""
    from watchdog.observers.inotify_c import InotifyConstants, InotifyEvent

    w._observer._inotify_fd.handle_event(InotifyEvent(-1, InotifyConstants.IN_Q_OVERFLOW, 0, b""))


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
        _kernel_overflow(w)
    qtbot.wait(400)
    assert changed == [], "after an overflow every source is reconciled; the partial list is dropped"
    assert "lost events" in caplog.text


@linux_only
def test_lost_events_are_noticed_whatever_the_log_level(make_watcher, qtbot, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    w = make_watcher((folder, "folder"))
    root = logging.getLogger()
    before = root.level
    root.setLevel(logging.ERROR)  # as with DESKTOP_RAG_LOG_LEVEL=ERROR (setLevel also clears the loggers' caches)
    try:
        with qtbot.waitSignal(w.rescan_all, timeout=3_000):
            _kernel_overflow(w)
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
    qtbot.waitUntil(lambda: w._observer is not None, timeout=10_000)  # restarted on a helper thread
    assert w._observer is not dead and w._observer.is_alive()
    with qtbot.waitSignal(w.changed, timeout=10_000) as blocker:  # and watching works again
        (folder / "after.txt").write_text("x", encoding="utf-8")
    assert blocker.args == [(str(folder),)]


@pytest.mark.parametrize("missing_at_start", [False, True])
def test_a_folder_that_comes_back_is_watched_again(make_watcher, qtbot, tmp_path, missing_at_start):
    """A drive plugged in again (or a folder deleted and made again) is another folder at the same path: the old
    one's watches went with it. Missing at start: the drive is plugged in after the app started."""
    folder = tmp_path / "drive" / "docs"
    folder.mkdir(parents=True)
    other = tmp_path / "other"
    other.mkdir()
    if missing_at_start:
        folder.rmdir()
    w = make_watcher((folder, "folder"), (other, "folder"))
    if not missing_at_start:
        with qtbot.waitSignal(w.changed, timeout=10_000) as gone:  # unplugged: reconciled (the run keeps its files)
            shutil.rmtree(tmp_path / "drive")
        assert gone.args == [(str(folder),)]
    with qtbot.waitSignal(w.changed, timeout=10_000) as back:  # the health check sees it within HEALTH_MS
        folder.mkdir(parents=True)
    assert back.args == [(str(folder),)]
    with qtbot.waitSignal(w.changed, timeout=10_000) as blocker:
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
    w.set_sources([(str(a), "folder"), (str(single), "file")])  # restarted on a helper thread
    qtbot.waitUntil(lambda: w._observer is not None and w._observer is not first, timeout=10_000)
    assert not first.is_alive() and w._observer.is_alive()
    second = w._observer
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
    qtbot.waitUntil(lambda: not any(o.is_alive() for o in (first, second)), timeout=10_000)


# Runs in a child inside its own user namespace, whose inotify limits are lowered there only (Linux >= 5.11 counts
# watches per user namespace): a real ENOSPC / EMFILE from the kernel that cannot disturb any other process.
_LIMIT_PROBE = """
import json, os, sys, time
from PySide6.QtCore import QCoreApplication
from desktop_rag.gui.threads import watcher as wm
root, kind, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(f"/proc/sys/user/max_inotify_{kind}", "w") as f:
    f.write(str(limit))
app = QCoreApplication([])
wm.POLL_SECONDS = 0.3
w = wm.FolderWatcher(quiet_ms=100)
seen = {"messages": [], "changed": []}
w.watch_limited.connect(seen["messages"].append)
w.changed.connect(seen["changed"].append)
big, small = os.path.join(root, "big"), os.path.join(root, "small")
w.set_sources([(big, "folder"), (small, "folder")])

def wait(until):
    deadline = time.monotonic() + 20
    while not until() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)

wait(lambda: w._observers and all(o.is_alive() for o in w._observers))
time.sleep(0.5)  # the poller's first snapshot
def inotify_watches(count=0):
    for fd in os.listdir("/proc/self/fdinfo"):
        try:
            with open(f"/proc/self/fdinfo/{fd}") as info:
                count += sum(1 for line in info if line.startswith("inotify wd:"))
        except OSError:
            pass  # the listing's own descriptor
    return count
watches = inotify_watches()
for folder in (big, small):
    with open(os.path.join(folder, "d7", "new.txt"), "w") as f:
        f.write("x")
wait(lambda: {p for batch in seen["changed"] for p in batch} >= {big, small})
print(json.dumps({**seen, "polled": sorted(w.polled), "watches": watches,
                  "observers": [type(o).__name__ for o in w._observers]}))
w.stop()
"""


def _limited_run(tmp_path, kind: str, limit: int) -> dict:
    for name, subfolders in (("big", 20), ("small", 8)):
        for i in range(subfolders):
            (tmp_path / name / f"d{i}").mkdir(parents=True)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run(["unshare", "--user", "--map-root-user", sys.executable, "-c", _LIMIT_PROBE, str(tmp_path),
                          kind, str(limit)], env=env, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def _user_namespaces() -> bool:
    if sys.platform != "linux" or not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "--user", "--map-root-user", "sh", "-c",
                            "echo 5 > /proc/sys/user/max_inotify_watches"], capture_output=True)
    return probe.returncode == 0


needs_userns = pytest.mark.skipif(not _user_namespaces(), reason="needs unshare --user and per-namespace inotify limits")


@needs_userns
def test_watch_limit_polls_the_folder_that_does_not_fit_and_says_how_to_raise_it(tmp_path):
    result = _limited_run(tmp_path, "watches", 12)  # big needs 21 watches, small 9: only small fits
    big, small = str(tmp_path / "big"), str(tmp_path / "small")
    assert result["polled"] == [big]
    assert result["observers"] == ["LimitAwareInotifyObserver", "LazyPollingObserver"]
    assert result["watches"] == 9, "the watches big got before the limit are given back, so small fits"
    message = result["messages"][-1]
    assert "sudo sysctl fs.inotify.max_user_watches=524288" in message and big in message and small not in message
    assert {p for batch in result["changed"] for p in batch} == {big, small}, "the polled folder stays current"


@needs_userns
def test_no_inotify_instance_left_polls_every_folder(tmp_path):
    result = _limited_run(tmp_path, "instances", 0)
    assert result["polled"] == sorted([str(tmp_path / "big"), str(tmp_path / "small")])
    assert result["observers"] == ["LazyPollingObserver"]
    assert "fs.inotify.max_user_instances" in result["messages"][-1]
    assert {p for batch in result["changed"] for p in batch} == {str(tmp_path / "big"), str(tmp_path / "small")}


def test_the_window_shows_the_watch_limit_notice_and_hides_it_again(make_window):
    from desktop_rag.gui.threads.watcher import limit_message

    window = make_window()
    panel = window.library_panel
    assert not panel.watch_notice.isVisibleTo(window)
    message = limit_message(["/data/archive"], OSError(28, "inotify watch limit reached"))
    window.backend.watcher.watch_limited.emit(message)
    assert panel.watch_notice.isVisibleTo(window) and panel.watch_notice.text() == message
    assert "sudo sysctl fs.inotify.max_user_watches=524288" in message and "/data/archive" in message
    window.backend.watcher.watch_limited.emit("")  # the limit no longer applies
    assert not panel.watch_notice.isVisibleTo(window)
