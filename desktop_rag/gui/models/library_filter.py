"""The library's name filter: which of a source's files it shows, worked out in time slices on the GUI thread."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator

from PySide6.QtCore import QObject, QTimer, Signal

from desktop_rag.engine import FileRecord
from desktop_rag.gui.models.library_inbox import SLICE_S
from desktop_rag.gui.models.library_rows import SourceRow

_PART = 5000  # records matched between two yields

Reshow = Callable[[SourceRow, list[FileRecord] | None], None]


def _named(records: list[FileRecord], needle: str) -> list[FileRecord]:
    """The records whose file name contains `needle` (already casefolded)."""
    return [r for r in records if needle in os.path.basename(r.path).casefold()]


class NameFilter(QObject):
    """Files whose name contains the needle (any case); '' shows every file. A new needle is applied source by
    source: `reshow(source, matches)` (None: every file) as soon as that source is done, `done` when all are."""

    done = Signal()

    def __init__(self, reshow: Reshow, parent: QObject) -> None:
        super().__init__(parent)
        self._reshow = reshow
        self._needle = ""
        self._job: Iterator[None] | None = None
        self._timer = QTimer(self, interval=0)
        self._timer.timeout.connect(self._step)

    def start(self, text: str, sources: list[SourceRow]) -> None:
        """Filter these sources by `text` over the next event-loop turns (at once `done` when nothing changes)."""
        needle = text.strip().casefold()
        if needle == self._needle and self._job is None:
            self.done.emit()
            return
        self._needle = needle
        self._job = self._all(needle, sources)
        self._timer.start()

    def pending(self) -> bool:
        return self._job is not None

    def matches(self, path: str) -> bool:
        return not self._needle or self._needle in os.path.basename(path).casefold()

    def apply_now(self, source: SourceRow) -> None:
        """Set a source's shown files by the current needle in one go."""
        if not self._needle:
            source.shown = source.shown_paths = None
            return
        source.shown = _named(source.records, self._needle)
        source.shown_paths = [r.path for r in source.shown]

    def _all(self, needle: str, sources: list[SourceRow]) -> Iterator[None]:
        for source in sources:
            shown: list[FileRecord] | None = None
            if needle:
                shown, start = [], 0
                while start < len(source.records):
                    part = source.records[start:start + _PART]
                    shown += _named(part, needle)
                    start += len(part)
                    yield
            if shown is None and source.shown is None:
                continue  # nothing to undo
            self._reshow(source, shown)
            yield

    def _step(self) -> None:
        job = self._job
        deadline = time.perf_counter() + SLICE_S
        try:
            while job is not None and time.perf_counter() < deadline:
                next(job)
        except StopIteration:
            self._job = None
            self._timer.stop()
            self.done.emit()
