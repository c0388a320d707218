"""watchdog observers for the folder watcher: inotify that reports overflow and watch limits, lazy polling."""

from __future__ import annotations

import errno
import logging
import os
from collections.abc import Callable

from watchdog.observers.api import DEFAULT_OBSERVER_TIMEOUT, BaseObserver
from watchdog.observers.polling import PollingEmitter, PollingObserver

log = logging.getLogger(__name__)
LIMIT_ERRNOS = (errno.ENOSPC, errno.EMFILE)


class LazyPollingObserver(PollingObserver):
    """A PollingObserver whose first snapshot (a stat per file: seconds for 100k files) is taken on its own
    thread, not on the thread that starts it."""

    def __init__(self, *, timeout: float) -> None:
        BaseObserver.__init__(self, _LazyPollingEmitter, timeout=timeout)


class _LazyPollingEmitter(PollingEmitter):
    def on_thread_start(self) -> None:
        pass  # the first snapshot is taken in run(), on this emitter's thread

    def run(self) -> None:
        try:
            self._snapshot = self._take_snapshot()
        except OSError as exc:
            log.warning("Cannot take a snapshot of %r, will retry: %s", self.watch.path, exc)
        super().run()


try:  # inotify exists on Linux only
    from watchdog.observers.inotify import InotifyEmitter, InotifyObserver, InotifyWatchGroup
    from watchdog.observers.inotify_c import InotifyFD
except (ImportError, OSError, AttributeError):  # pragma: no cover - not Linux
    InotifyObserver = None  # type: ignore[assignment,misc]
else:

    class _LimitAwareGroup(InotifyWatchGroup):
        """watchdog's watch group, except that (1) a full kernel queue is reported through `on_overflow` (watchdog
        itself only logs it, at WARNING: nothing is seen with the log level above that), (2) a watch limit hit on a
        subfolder is not passed over silently: while starting it fails the whole group (its watches are removed
        again), later it is reported through `on_limit(root)`."""

        on_overflow: Callable[[], None] = staticmethod(lambda: None)
        on_limit: Callable[[str], None] = staticmethod(lambda _root: None)
        _starting = False

        def _activate(self) -> None:
            self._starting = True
            try:
                super()._activate()
            except OSError:
                with self._lock:
                    self._remove_callbacks(list(self._active_callbacks_by_watch))
                raise
            finally:
                self._starting = False

        def _add_callback(self, path: bytes) -> None:
            try:
                wd = self._inotify_fd.add_callback(path, self.event_mask, self._callback, self._id)
            except OSError as exc:
                if self._starting and exc.errno in LIMIT_ERRNOS or path == self.path:
                    raise
                if exc.errno in LIMIT_ERRNOS:
                    self.on_limit(os.fsdecode(self.path))
                return  # a subfolder that vanished or cannot be read: as watchdog does
            self._active_callbacks_by_path[path] = wd
            self._active_callbacks_by_watch[wd] = path

        def on_queue_overflow(self) -> None:
            try:
                self.on_overflow()
            finally:
                super().on_queue_overflow()

    class _LimitAwareEmitter(InotifyEmitter):
        def __init__(self, *args, on_overflow: Callable[[], None], on_limit: Callable[[str], None], **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self._on_overflow, self._on_limit = on_overflow, on_limit

        def on_thread_start(self) -> None:
            group = _LimitAwareGroup.__new__(_LimitAwareGroup)
            group.on_overflow, group.on_limit = self._on_overflow, self._on_limit  # before __init__ adds watches
            group.__init__(self._inotify_fd, os.fsencode(self.watch.path), is_recursive=self.watch.is_recursive,
                           event_mask=self.get_event_mask_from_filter(), follow_symlink=self.watch.follow_symlink)
            self._inotify = group

    class LimitAwareInotifyObserver(InotifyObserver):
        """InotifyObserver with the emitter above. Raises OSError(EMFILE) when no inotify instance is left;
        `schedule` raises OSError(ENOSPC) when the watch limit is reached anywhere in the folder tree."""

        def __init__(self, *, on_overflow: Callable[[], None], on_limit: Callable[[str], None]) -> None:
            self._inotify_fd = InotifyFD()
            self._inotify_fd.start()
            BaseObserver.__init__(self, _LimitAwareEmitter, timeout=DEFAULT_OBSERVER_TIMEOUT,
                                  inotify_fd=self._inotify_fd, on_overflow=on_overflow, on_limit=on_limit)
