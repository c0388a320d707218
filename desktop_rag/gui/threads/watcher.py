"""Folder watching with watchdog: debounce bursts, hand changed sources to the GUI thread, recover from overflow."""

from __future__ import annotations

import errno
import logging
import os
import stat
import sys
import threading
from collections.abc import Callable, Iterable

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from desktop_rag.engine import is_ignored_name, is_inside, is_supported
from desktop_rag.gui import i18n

log = logging.getLogger(__name__)

QUIET_MS = 1000  # a source is reconciled after this long without new events
MAX_WAIT_MS = 5000  # ... or at the latest this long after its first event in a burst
HEALTH_MS = 5000
POLL_SECONDS = 30.0  # the polling fallback's interval: one directory snapshot (a stat per file) per period
LIMIT_ERRNOS = (errno.ENOSPC, errno.EMFILE)  # inotify watch / instance limit reached (as watch_backends)
Folders = dict[str, bool]  # folder -> recursive


def _relevant(path: str, is_directory: bool) -> bool:
    """Directory changes and supported, non-temporary files matter; editor swap files do not."""
    name = os.path.basename(path.rstrip("/\\"))
    if not name or is_ignored_name(name):
        return is_directory and bool(name) and not name.startswith(".")
    return is_directory or is_supported(path)


def limit_message(folders: Iterable[str], exc: OSError) -> str:
    """What the user reads when the system's inotify limits stop live watching of some folders."""
    instances = exc.errno == errno.EMFILE
    setting, value = ("fs.inotify.max_user_instances", 1024) if instances else ("fs.inotify.max_user_watches", 524288)
    return i18n.tr("watch.limit_instances" if instances else "watch.limit_watches", seconds=f"{POLL_SECONDS:g}",
                   names=", ".join(sorted(folders)), command=f"sudo sysctl {setting}={value}",
                   persist=f"{setting}={value}")


class FolderWatcher(QObject):
    """Watches the library's sources; emits `changed(sources)` after a quiet period, `rescan_all()` after trouble,
    `watch_limited(message)` when a system limit forces polling for some folders ('' when it no longer does)."""

    changed = Signal(object)  # tuple[str, ...] of source paths
    rescan_all = Signal()
    watch_limited = Signal(str)
    _raw_event = Signal(str)  # emitted on watchdog threads, delivered queued on the GUI thread
    _raw_overflow = Signal()
    _raw_limit = Signal(str)  # a folder whose new subfolder could not be watched (limit reached later on)
    _started = Signal(object)  # (generation, observers, polled, limit error, identities) from the starter thread
    _checked = Signal(object)  # (generation, {folder: identity}) from a folder check thread

    def __init__(self, quiet_ms: int = QUIET_MS, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._sources: dict[str, str] = {}  # path -> kind
        self._observers: list = []  # the native observer and/or the polling one
        self._polled: set[str] = set()  # folders watched by polling since a limit was hit
        self._generation = 0
        self._starting = False
        self._lock = threading.Lock()  # guards _generation for the starter threads
        self._pending: set[str] = set()
        self._identities: dict[str, tuple[int, int] | None] = {}  # each watched folder as its watches were added
        self._checking = False
        self._when_watching: tuple[str, ...] = ()  # sources to reconcile once the restarted observers watch
        self._quiet = QTimer(self, singleShot=True, interval=quiet_ms)
        self._quiet.timeout.connect(self._flush)
        self._max_wait = QTimer(self, singleShot=True, interval=max(MAX_WAIT_MS, quiet_ms))
        self._max_wait.timeout.connect(self._flush)
        self._health = QTimer(self, interval=HEALTH_MS)
        self._health.timeout.connect(self._check_health)
        self._raw_event.connect(self._on_raw)
        self._raw_overflow.connect(self._on_overflow)
        self._raw_limit.connect(self._on_late_limit)
        self._started.connect(self._on_started)
        self._checked.connect(self._on_checked)

    @property
    def _observer(self):
        """The main observer (native when available), None while stopped or starting."""
        return self._observers[0] if self._observers else None

    @property
    def polled(self) -> frozenset[str]:
        return frozenset(self._polled)

    # ---- configuration (GUI thread) ----

    def set_sources(self, sources: Iterable[tuple[str, str]]) -> None:
        """Watch exactly these (path, kind) sources; restarts the observers when the set changed."""
        wanted = {p: k for p, k in sources}
        if wanted == self._sources and (self._observers or self._starting):
            return
        self._sources = wanted
        self._restart()

    def _folders(self) -> Folders:
        folders: Folders = {}
        for path, kind in self._sources.items():
            folder = path if kind == "folder" else os.path.dirname(path)
            folders[folder] = folders.get(folder, False) or kind == "folder"
        return folders

    def _restart(self) -> None:
        """Stop the old observers and start new ones on a helper thread: walking a tree of thousands of folders to
        add watches, or a polling snapshot of 100k files, never runs on the GUI thread."""
        old, self._observers = self._observers, []
        with self._lock:
            self._generation += 1
            generation = self._generation
        folders = self._folders() if self._sources else {}
        self._starting = bool(folders)
        hooks = (self._raw_overflow.emit, self._raw_limit.emit, self._raw_event.emit)
        thread = threading.Thread(target=self._start_in_background, name="desktop-rag-watch-start", daemon=True,
                                  args=(generation, old, folders, frozenset(self._polled), hooks))
        thread.start()
        if folders:
            self._health.start()

    def _start_in_background(self, generation: int, old: list, folders: Folders, polled: frozenset[str],
                             hooks: tuple[Callable[[], None], Callable[[str], None], Callable[[str], None]]) -> None:
        _stop_all(old)
        if not folders:
            return
        identities = {folder: folder_identity(folder) for folder in folders}  # before its watches are added
        observers, limited, problem = _start_observers(folders, polled, hooks)
        with self._lock:
            current = generation == self._generation
        if not current:  # sources changed meanwhile: a newer start owns the watching
            _stop_all(observers)
            return
        self._started.emit((generation, observers, limited, problem, identities))

    @Slot(object)
    def _on_started(self, result: tuple) -> None:
        generation, observers, limited, problem, identities = result
        if generation != self._generation:
            _stop_all(observers, join=False)
            return
        self._starting = False
        self._observers = observers
        self._identities = identities
        if self._when_watching:  # after the watches: a change made meanwhile is in the run or seen
            sources, self._when_watching = self._when_watching, ()
            self.changed.emit(sources)
        had_limit = bool(self._polled)
        self._polled = set(limited)
        message = limit_message(limited, problem) if problem is not None else ""
        if message:
            log.warning("%s", message)  # also reported to the user through watch_limited
            self.watch_limited.emit(message)
        elif had_limit:
            self.watch_limited.emit("")

    def stop(self) -> None:
        """Stop watching (joins the watchdog threads)."""
        self._health.stop()
        self._quiet.stop()
        self._max_wait.stop()
        with self._lock:
            self._generation += 1  # a start still under way stops what it started
        self._starting = False
        old, self._observers = self._observers, []
        _stop_all(old)

    # ---- events ----

    def source_for(self, path: str) -> str | None:
        """The watched source a changed path belongs to (the deepest one)."""
        best = None
        for source, kind in self._sources.items():
            hit = is_inside(path, source) if kind == "folder" else path == source
            if hit and (best is None or len(source) > len(best)):
                best = source
        return best

    @Slot(str)
    def _on_raw(self, path: str) -> None:
        if path in self._identities:  # a watched folder itself deleted or moved: what comes there is another one
            self._identities[path] = None  # (even with the same inode number: the health check watches it again)
        source = self.source_for(path)
        if source is None:
            return
        self._pending.add(source)
        self._quiet.start()  # restart the quiet period
        if not self._max_wait.isActive():
            self._max_wait.start()

    @Slot()
    def _flush(self) -> None:
        self._quiet.stop()
        self._max_wait.stop()
        if self._pending:
            sources, self._pending = tuple(sorted(self._pending)), set()
            self.changed.emit(sources)

    @Slot()
    def _on_overflow(self) -> None:
        log.warning("File watcher lost events; reconciling every source")
        self._pending.clear()
        self.rescan_all.emit()

    @Slot(str)
    def _on_late_limit(self, folder: str) -> None:
        """A new subfolder could not be watched (the limit was reached after start): poll that source instead."""
        if folder in self._polled or folder not in self._folders():
            return
        log.warning("File watch limit reached below %s; switching it to polling", folder)
        self._polled.add(folder)
        self._restart()
        self.rescan_all.emit()

    @Slot()
    def _check_health(self) -> None:
        if self._starting or not self._observers:
            return
        if not all(o.is_alive() for o in self._observers):
            log.warning("File watcher stopped unexpectedly; restarting it")
            self._restart()
            self.rescan_all.emit()
        elif not self._checking:  # a folder that came or went: stat'ed off the GUI thread (a share may hang)
            self._checking = True
            folders, generation = list(self._identities), self._generation
            threading.Thread(target=lambda: self._checked.emit((generation, {f: folder_identity(f) for f in folders})),
                             name="desktop-rag-watch-check", daemon=True).start()

    @Slot(object)
    def _on_checked(self, result: tuple) -> None:
        """A watched folder that is now another one (a drive plugged in again, a folder deleted and made again: its
        watches went with the old one) or none: watch again, and reconcile the sources in it."""
        self._checking = False
        generation, identities = result
        if generation != self._generation or self._starting:
            return
        changed = {f for f, identity in identities.items() if identity != self._identities.get(f)}
        if not changed:
            return
        log.info("Watched folders came or went (%s); watching again", ", ".join(sorted(changed)))
        self._when_watching = tuple(sorted(p for p, kind in self._sources.items()
                                           if (p if kind == "folder" else os.path.dirname(p)) in changed))
        self._restart()


def folder_identity(folder: str) -> tuple[int, int] | None:
    """(device, inode) of a folder; None when there is none there (or it cannot be reached)."""
    try:
        st = os.stat(folder)
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None


def _stop_all(observers: list, join: bool = True) -> None:
    for observer in observers:
        observer.stop()
    if join:
        for observer in observers:
            if observer.is_alive():
                observer.join(timeout=5)


def _start_observers(folders: Folders, polled: frozenset[str], hooks) -> tuple[list, list[str], OSError | None]:
    """(observers, folders watched by polling, the limit error) — native watching where the system allows it."""
    handler = _Handler(hooks[2])
    native, limited, problem = None, [f for f in folders if f in polled], None
    try:
        native = _native_observer(hooks)
    except OSError as exc:  # no inotify instance left (or none at all): poll every folder
        if exc.errno not in LIMIT_ERRNOS:
            log.warning("Cannot start the file watcher (%s); checking the folders for changes by polling", exc)
            return [_polling_observer(handler, folders)], list(folders), None
        problem, limited = exc, list(folders)
    if native is not None:
        native.daemon = True
        native.start()
        for folder, recursive in folders.items():
            if folder in limited or not os.path.isdir(folder):
                continue
            try:
                native.schedule(handler, folder, recursive=recursive)
            except OSError as exc:
                if exc.errno in LIMIT_ERRNOS:
                    problem = exc
                    limited.append(folder)
                else:
                    log.warning("Cannot watch %s: %s", folder, exc)
    observers = [native] if native is not None else []
    if limited:
        observers.append(_polling_observer(handler, {f: folders[f] for f in limited}))
    if problem is None and limited:
        problem = OSError(errno.ENOSPC, "inotify watch limit reached")
    return observers, limited, problem


def _polling_observer(handler: "_Handler", folders: Folders):
    from desktop_rag.gui.threads.watch_backends import LazyPollingObserver

    poller = LazyPollingObserver(timeout=POLL_SECONDS)
    for folder, recursive in folders.items():
        if os.path.isdir(folder):
            poller.schedule(handler, folder, recursive=recursive)
    poller.daemon = True
    poller.start()
    return poller


def _native_observer(hooks):
    """Linux: an inotify observer that reports overflow and watch limits as calls (not log lines); elsewhere
    watchdog's native observer."""
    if sys.platform.startswith("linux"):
        from desktop_rag.gui.threads.watch_backends import LimitAwareInotifyObserver

        return LimitAwareInotifyObserver(on_overflow=hooks[0], on_limit=hooks[1])
    from watchdog.observers import Observer

    return Observer()


class _Handler:
    """A watchdog handler (runs on watchdog threads): forwards relevant paths through a queued signal."""

    def __init__(self, forward: Callable[[str], None]) -> None:
        self.forward = forward

    def dispatch(self, event) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        if event.is_directory and event.event_type == "modified":
            return
        paths = [event.src_path, getattr(event, "dest_path", "") or ""]
        for raw in paths:
            path = os.fsdecode(raw) if raw else ""
            if path and _relevant(path, event.is_directory):
                self.forward(path)
