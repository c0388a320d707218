"""Another process's edits to the library's collections, conversations and documents (the CLI's `collections
create` or `index`, an MCP client, a second window): noticed, then announced as `library_changed` so the window's
views refresh as after its own writes.

What is compared is cheap to read (every collection's id and name, the conversation list, a model switch's model
and staged count: `Engine.switch_mark`, announced as "model", the status line read again; the documents' mark:
`Engine.files_mark`) and read on the reader thread, never on the GUI thread. When to read it: on this computer's
library, after its SQLite files change (an inotify watch through QFileSystemWatcher: nothing runs while nobody
writes), a burst of writes read once; on a server's library, after the server notifies a commit (the engine's
listener, `Engine.listen_for_changes`, on a thread of its own: a burst read once too), and every SERVER_EVERY_MS
besides (a lost listening connection, a server that passes no notification on: a pooler in transaction mode). The
data folder is watched too: SQLite deletes the `-wal` file when the last connection closes and makes a new one (a
new inode, which a watch of the old one never sees) at the next open, so a change of the folder's entries watches
the files anew.

The documents' mark is compared with the one read with the listing the window shows (`shown`), not with the last
reading: the window's own index run announces its writes when it ends (its listing read again then), and while it
runs (the backend busy) nothing is announced for documents, so its batches cause no listing reads of their own."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal
from shiboken6 import delete

from desktop_rag.engine import Reason

log = logging.getLogger(__name__)

QUIET_MS = 500  # a burst of writes (an index run's batches) is read once, this long after its last change
SERVER_EVERY_MS = 120_000  # a server's library: a look this often besides what its notifications say
KINDS = ("collections", "conversations", "model", "files")  # the change kind each part of the marks stands for


def read_marks(engine) -> tuple:
    """(every collection's (id, name), every conversation as listed, a model switch's progress, the documents'
    mark): what changes when any of them is edited (a switch's batch: the status line read again, not the listing)."""
    return (tuple(engine.collection_names()), tuple(engine.conversations()), engine.switch_mark(),
            engine.files_mark())


class OutsideChanges(QObject):
    """Compares the marks after each change to the library's files (on a server, each notification and period) with
    the last ones read (the documents' with the listing shown) and announces the kinds that differ through the
    backend. A change of the window's own to collections or conversations is announced again (one more reload of a
    list): that costs less than telling it apart from another process's at the same time."""

    heard = Signal()  # the server notified a commit (emitted on the listener's thread, handled on this one's)

    def __init__(self, backend, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.backend = backend
        self._marks: tuple | None = None
        self._shown: tuple | None = None  # the documents' mark read with the listing the window shows
        self._in_flight = self._again = False
        self._files: tuple[str, ...] = ()
        self._watch: QFileSystemWatcher | None = None  # (an inotify instance: a system-wide limit, 128 a user)
        self._listener = None  # a server's library: the engine's listener to its notifications
        self._quiet = QTimer(self, singleShot=True, interval=QUIET_MS)
        self._quiet.timeout.connect(self.check)
        self._period = QTimer(self, interval=SERVER_EVERY_MS)
        self._period.timeout.connect(self.check)
        self.heard.connect(self._changed)

    def start(self, database: Path | None) -> None:
        """Watch this computer's library at `database` (its SQLite file), or listen to a server's (None)."""
        if database is None:
            self._period.start()
            self._listener = self.backend.engine.listen_for_changes(self.heard.emit)  # (connects on its thread)
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
        if self._listener is not None:  # (its connection closed on its thread within a second)
            self._listener.close()
            self._listener = None
        if self._watch is not None:  # its inotify instance closed now, not when the window is deleted
            delete(self._watch)
            self._watch = None

    def _changed(self, _path: str = "") -> None:
        self._quiet.start()  # (re)started: read once the burst is over

    def _folder_changed(self, _path: str) -> None:
        """A file of the data folder made, removed or renamed (the `-wal` among them): watch the files as they are
        now."""
        if self._watch is not None:
            watched = [f for f in self._files if f in self._watch.files()]
            if watched:
                self._watch.removePaths(watched)
            self._watch_files()
        self._quiet.start()

    def shown(self, files_mark: tuple) -> None:
        """The documents' mark read (on the reader thread, before the listing) with the listing now shown."""
        self._shown = files_mark

    def check(self) -> None:
        """Read the marks on the reader thread; asked again meanwhile, one more read follows."""
        if self._in_flight:
            self._again = True
            return
        self._in_flight, self._again = True, False
        engine, own_run = self.backend.engine, self.backend.busy
        if self.backend.stopped or self.backend.reader.submit(lambda: read_marks(engine),
                                                              lambda marks: self._read(marks, own_run),
                                                              self._failed) is None:
            self._in_flight = False

    def _read(self, marks: tuple, own_run: bool) -> None:
        """`own_run`: the window's own index run was going when the read began (it announces its writes itself)."""
        self._watch_files()  # (a fresh library's file, made by the first read)
        previous, self._marks = self._marks, marks
        if previous is not None:
            changed = [kind for kind, old, new in zip(KINDS[:-1], previous[:-1], marks[:-1], strict=True)
                       if old != new]
            if self._shown not in (None, marks[-1]) and not (own_run or self.backend.busy):
                changed.append("files")
                self._shown = marks[-1]  # (the listing read after this announcement brings its own)
            if changed:
                self.backend.announce(*changed)
        self._done()

    def _failed(self, reason: Reason) -> None:
        log.debug("The library's collections, conversations and documents could not be read: %s", reason)
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
