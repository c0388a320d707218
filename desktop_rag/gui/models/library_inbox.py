"""The library's inbox of file events: posted from any thread, applied on the GUI thread in time slices."""

from __future__ import annotations

import collections
import dataclasses
import operator
import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from desktop_rag.engine import FileEvent

SLICE_S = 0.008  # the events waiting take at most this long per event-loop turn
_BATCH = 200  # events applied between two looks at the clock
# A waiting event is kept as its fields (FileEvent's, in order), flat: no object for the collector to walk.
_FIELDS = len(dataclasses.fields(FileEvent))
_fields_of = operator.attrgetter(*(field.name for field in dataclasses.fields(FileEvent)))


class EventInbox(QObject):
    """File events from the index worker: a start-up reconcile sends one per file (100k), which as queued
    signals would be delivered in one uninterrupted batch; the inbox takes them in time slices instead.
    `ready` says whether events may be applied in a slice now: while it says no (the model still mapping a new
    listing a source per turn, which a first event would otherwise finish in one go), slices wait.

    The events wait as their fields in one deque: a flood outruns the slices (tens of thousands waiting), and as
    objects they filled the young generations the GUI thread's collections walk (bench/gui_gc.py)."""

    _wake = Signal()  # from `post` on the index worker's thread: events are waiting

    def __init__(self, apply: Callable[[FileEvent], None], ready: Callable[[], bool], parent: QObject) -> None:
        super().__init__(parent)
        self._apply, self._ready = apply, ready
        self._events: collections.deque = collections.deque()  # each event's _FIELDS fields, in order
        self._lock = threading.Lock()
        self._woken = False
        self._timer = QTimer(self, interval=0)
        self._timer.timeout.connect(self._slice)
        self._wake.connect(self._timer.start)

    def __len__(self) -> int:
        return len(self._events) // _FIELDS

    def post(self, event: FileEvent) -> None:
        """Queue an event from any thread; applied on the GUI thread in slices of at most SLICE_S, in order."""
        with self._lock:
            self._events.extend(_fields_of(event))
            if self._woken:
                return
            self._woken = True
        self._wake.emit()

    def drain(self) -> None:
        """Apply every event waiting now."""
        while self._events:
            self._apply(self._next())

    def _next(self) -> FileEvent:
        """The first event waiting, taken out (on the GUI thread only: `post` only appends, an event's fields in one
        `extend` of a tuple, which holds the GIL throughout, so no part of an event is ever seen alone)."""
        take = self._events.popleft
        return FileEvent(*(take() for _ in range(_FIELDS)))

    def _slice(self) -> None:
        if not self._ready():
            return  # the timer turns again on the next event-loop turn
        deadline = time.perf_counter() + SLICE_S
        events, apply, take = self._events, self._apply, self._next
        while events and time.perf_counter() < deadline:
            for _ in range(min(_BATCH, len(events) // _FIELDS)):
                apply(take())
        with self._lock:
            if not events:
                self._woken = False
                self._timer.stop()
