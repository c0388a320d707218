"""Folder watching with watchdog: debounce bursts, hand changed sources to the GUI thread, recover from overflow."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from desktop_rag.engine.scanning import is_ignored_name, is_supported

log = logging.getLogger(__name__)

QUIET_MS = 1000  # a source is reconciled after this long without new events
MAX_WAIT_MS = 5000  # ... or at the latest this long after its first event in a burst
HEALTH_MS = 5000


def _relevant(path: str, is_directory: bool) -> bool:
    """Directory changes and supported, non-temporary files matter; editor swap files do not."""
    name = os.path.basename(path.rstrip("/\\"))
    if not name or is_ignored_name(name):
        return is_directory and bool(name) and not name.startswith(".")
    return is_directory or is_supported(path)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/\\") + os.sep)


class _OverflowLog(logging.Handler):
    """watchdog only logs an inotify queue overflow; turn that log line into a signal."""

    def __init__(self, watcher: "FolderWatcher") -> None:
        super().__init__(logging.WARNING)
        self.watcher = watcher

    def emit(self, record: logging.LogRecord) -> None:
        if "overflow" in record.getMessage().lower():
            self.watcher._raw_overflow.emit()


class FolderWatcher(QObject):
    """Watches the library's sources; emits `changed(sources)` after a quiet period, `rescan_all()` after trouble."""

    changed = Signal(object)  # tuple[str, ...] of source paths
    rescan_all = Signal()
    _raw_event = Signal(str)  # emitted on watchdog threads, delivered queued on the GUI thread
    _raw_overflow = Signal()

    def __init__(self, quiet_ms: int = QUIET_MS, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._sources: dict[str, str] = {}  # path -> kind
        self._observer = None
        self._pending: set[str] = set()
        self._quiet = QTimer(self, singleShot=True, interval=quiet_ms)
        self._quiet.timeout.connect(self._flush)
        self._max_wait = QTimer(self, singleShot=True, interval=max(MAX_WAIT_MS, quiet_ms))
        self._max_wait.timeout.connect(self._flush)
        self._health = QTimer(self, interval=HEALTH_MS)
        self._health.timeout.connect(self._check_health)
        self._raw_event.connect(self._on_raw)
        self._raw_overflow.connect(self._on_overflow)
        self._log_handler = _OverflowLog(self)
        logging.getLogger("watchdog.observers.inotify_c").addHandler(self._log_handler)
        logging.getLogger("watchdog.observers.inotify").addHandler(self._log_handler)

    # ---- configuration (GUI thread) ----

    def set_sources(self, sources: Iterable[tuple[str, str]]) -> None:
        """Watch exactly these (path, kind) sources; restarts the observer when the set changed."""
        wanted = {p: k for p, k in sources}
        if wanted == self._sources and self._observer is not None:
            return
        self._sources = wanted
        self._restart()

    def _restart(self) -> None:
        self._stop_observer()
        if not self._sources:
            return
        from watchdog.observers import Observer

        observer = Observer()
        handler = _Handler(self)
        watched: set[str] = set()
        for path, kind in self._sources.items():
            folder = path if kind == "folder" else os.path.dirname(path)
            if folder in watched or not os.path.isdir(folder):
                continue
            try:
                observer.schedule(handler, folder, recursive=(kind == "folder"))
                watched.add(folder)
            except OSError as exc:
                log.warning("Cannot watch %s: %s", folder, exc)
        observer.daemon = True
        observer.start()
        self._observer = observer
        self._health.start()

    def stop(self) -> None:
        """Stop watching (joins the watchdog threads)."""
        self._health.stop()
        self._quiet.stop()
        self._max_wait.stop()
        self._stop_observer()
        for name in ("watchdog.observers.inotify_c", "watchdog.observers.inotify"):
            logging.getLogger(name).removeHandler(self._log_handler)

    def _stop_observer(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
            self._observer = None

    # ---- events ----

    def source_for(self, path: str) -> str | None:
        """The watched source a changed path belongs to (the deepest one)."""
        best = None
        for source, kind in self._sources.items():
            hit = _inside(path, source) if kind == "folder" else path == source
            if hit and (best is None or len(source) > len(best)):
                best = source
        return best

    @Slot(str)
    def _on_raw(self, path: str) -> None:
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

    @Slot()
    def _check_health(self) -> None:
        if self._observer is not None and not self._observer.is_alive():
            log.warning("File watcher stopped unexpectedly; restarting it")
            self._restart()
            self.rescan_all.emit()


class _Handler:
    """A watchdog handler (runs on watchdog threads): forwards relevant paths through a queued signal."""

    def __init__(self, watcher: FolderWatcher) -> None:
        self.watcher = watcher

    def dispatch(self, event) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        if event.is_directory and event.event_type == "modified":
            return
        paths = [event.src_path, getattr(event, "dest_path", "") or ""]
        for raw in paths:
            path = os.fsdecode(raw) if raw else ""
            if path and _relevant(path, event.is_directory):
                self.watcher._raw_event.emit(path)
