"""Another process's edits to the library's collections and conversations (the CLI's `collections create`, a second
window): noticed, then announced as `library_changed` so the window's views refresh as after its own writes.

What is compared is cheap to read (every collection's id and name, the conversation list) and read on the reader
thread, never on the GUI thread. When to read it: on this computer's library, after its SQLite files change (an
inotify watch through QFileSystemWatcher: nothing runs while nobody writes), a burst of writes read once; a server's
library has no file here, so it is read every SERVER_EVERY_MS. The data folder is watched too: SQLite deletes the
`-wal` file when the last connection closes and makes a new one (a new inode, which a watch of the old one never
sees) at the next open, so a change of the folder's entries watches the files anew."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer
from shiboken6 import delete

from desktop_rag.engine import Reason

log = logging.getLogger(__name__)

QUIET_MS = 500  # a burst of writes (an index run's batches) is read once, this long after its last change
SERVER_EVERY_MS = 15_000
KINDS = ("collections", "conversations")  # the change kind each part of the marks stands for


def read_marks(engine) -> tuple:
    """(every collection's (id, name), every conversation as listed): what changes when either is edited."""
    return tuple(engine.collection_names()), tuple(engine.conversations())


class OutsideChanges(QObject):
    """Compares the marks after each change to the library's files (or each period, on a server) with the last ones
    read and announces the kinds that differ through the backend. A change of the window's own is announced again
    (one more reload of a list): that costs less than telling it apart from another process's at the same time."""

    def __init__(self, backend, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.backend = backend
        self._marks: tuple | None = None
        self._in_flight = self._again = False
        self._files: tuple[str, ...] = ()
        self._watch: QFileSystemWatcher | None = None  # (an inotify instance: a system-wide limit, 128 a user)
        self._quiet = QTimer(self, singleShot=True, interval=QUIET_MS)
        self._quiet.timeout.connect(self.check)
        self._period = QTimer(self, interval=SERVER_EVERY_MS)
        self._period.timeout.connect(self.check)

    def start(self, database: Path | None) -> None:
        """Watch this computer's library at `database` (its SQLite file), or a server's (None) every period."""
        if database is None:
            self._period.start()
        else:
            self._files = (str(database), f"{database}-wal")
            self._watch = QFileSystemWatcher([str(database.parent)], self)
            self._watch.fileChanged.connect(self._changed)
            self._watch.directoryChanged.connect(self._folder_changed)
            self._watch_files()
        self.check()

    def stop(self) -> None:
        self._quiet.stop()
        self._period.stop()
        if self._watch is not None:  # its inotify instance closed now, not when the window is deleted
            delete(self._watch)
            self._watch = None

    def _changed(self, _path: str) -> None:
        self._quiet.start()  # (re)started: read once the burst is over

    def _folder_changed(self, _path: str) -> None:
        """A file of the data folder made, removed or renamed (the `-wal` among them): watch the files as they are now."""
        if self._watch is not None:
            watched = [f for f in self._files if f in self._watch.files()]
            if watched:
                self._watch.removePaths(watched)
            self._watch_files()
        self._quiet.start()

    def check(self) -> None:
        """Read the marks on the reader thread; asked again meanwhile, one more read follows."""
        if self._in_flight:
            self._again = True
            return
        self._in_flight, self._again = True, False
        engine = self.backend.engine
        if self.backend.stopped or self.backend.reader.submit(lambda: read_marks(engine), self._read,
                                                              self._failed) is None:
            self._in_flight = False

    def _read(self, marks: tuple) -> None:
        self._watch_files()  # (a fresh library's file, made by the first read)
        previous, self._marks = self._marks, marks
        if previous is not None:
            changed = [kind for kind, old, new in zip(KINDS, previous, marks, strict=True) if old != new]
            if changed:
                self.backend.announce(*changed)
        self._done()

    def _failed(self, reason: Reason) -> None:
        log.debug("The library's collections and conversations could not be read: %s", reason)
        self._done()

    def _done(self) -> None:
        self._in_flight = False
        if self._again:
            self.check()

    def _watch_files(self) -> None:
        if self._watch is None:
            return
        missing = [f for f in self._files if f not in self._watch.files() and Path(f).exists()]
        if missing:
            self._watch.addPaths(missing)
