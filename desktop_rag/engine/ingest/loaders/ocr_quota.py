"""The text-recognition limits of one file: at most `LoadContext.ocr_max_pages` pages (PDF pages that are scans or
whose text layer is broken, frames of a multi-page image) and `ocr_max_seconds` of recognition. A page past either
limit is not recognised; the file's note names those pages and the limit (Settings: "ocr_max_pages",
"ocr_max_minutes"), so 3,000 crafted pages sharing one broken content stream cost minutes, not hours."""

from __future__ import annotations

import time

from desktop_rag.engine.ingest.loaders import LoadContext
from desktop_rag.engine.ingest.loaders.left_out import listed
from desktop_rag.engine.messages import Phrase


class OcrQuota:
    """Which pages of one file may still be recognised, and which were not, for which limit."""

    def __init__(self, context: LoadContext) -> None:
        self.max_pages = max(1, int(context.ocr_max_pages))
        self.max_seconds = float(context.ocr_max_seconds)
        self.used = 0
        self._started: float | None = None
        self.over_pages: list[int] = []  # 1-based page numbers
        self.over_time: list[int] = []

    def total(self, wanted: int) -> int:
        """How many of `wanted` pages can be recognised at most (the progress's total)."""
        return min(wanted, self.max_pages)

    def take(self, page: int) -> bool:
        """Whether page `page` (1-based) may be recognised now; a page that may not is remembered for the note."""
        now = time.monotonic()
        self._started = now if self._started is None else self._started
        if self.used >= self.max_pages:
            self.over_pages.append(page)
            return False
        if now - self._started > self.max_seconds:
            self.over_time.append(page)
            return False
        self.used += 1
        return True

    @property
    def skipped(self) -> set[int]:
        return {*self.over_pages, *self.over_time}

    def notes(self) -> tuple[Phrase, ...]:
        notes = []
        if self.over_pages:
            notes.append(Phrase("note.ocr_over_pages", names=listed(self.over_pages), limit=self.max_pages))
        if self.over_time:
            notes.append(Phrase("note.ocr_over_time", names=listed(self.over_time),
                                minutes=f"{self.max_seconds / 60:g}"))
        return tuple(notes)
