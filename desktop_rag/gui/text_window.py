"""The part of a long document the viewer lays out and draws: the passage with a bounded window around it.

A sheet near the reader's cell cap comes back as about 17 M characters of Markdown tables; drawn whole, its grids
took 22 s and 680 MB on the locate thread and the text pane froze the window while it laid them out. The viewer
shows MAX_CHARS around the passage instead, cut at a row group's start (a blank line: every group repeats its
table's header) or else at a line's, and says how many lines it leaves out (Open in default app shows them). Pure
Python: it runs on the viewer's locate thread.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_CHARS = 200_000  # characters of a document shown around the passage (about 0.3 s of grids, 1,200 sheet rows)


@dataclass(frozen=True)
class TextWindow:
    """`text[offset:offset + len(shown)]` of a document whose other lines (`before`, `after`) are not shown."""

    shown: str
    offset: int = 0
    before: int = 0  # lines of the document before the window
    after: int = 0  # lines after it

    @property
    def cut(self) -> bool:
        return bool(self.before or self.after)

    def holds(self, start: int, end: int) -> bool:
        """Whether the document's `start:end` lies wholly in the window."""
        return self.offset <= start and end <= self.offset + len(self.shown)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """A document offset range as offsets into `shown` (clamped to it)."""
        size = len(self.shown)
        return min(max(start - self.offset, 0), size), min(max(end - self.offset, 0), size)


def text_window(text: str, start: int = 0, end: int = 0, max_chars: int = MAX_CHARS) -> TextWindow:
    """The window of `text` shown for the passage at `start:end` (the document's start when it was not found):
    the whole text when it fits in `max_chars`, else the passage and what fits around it, half before, half after."""
    if len(text) <= max_chars:
        return TextWindow(text)
    room = max(max_chars - (end - start), 0)
    lo = max(start - room // 2, 0)
    hi = min(lo + (end - start) + room, len(text))
    lo = max(min(lo, hi - max_chars), 0)  # near the end: the room left after it goes before
    keep = max_chars // 2  # a cut at a boundary gives up at most half the window
    lo = _boundary_after(text, lo, min(start, lo + keep)) if lo else 0
    hi = _boundary_before(text, hi, min(max(end, lo + keep), hi)) if hi < len(text) else hi
    return TextWindow(text[lo:hi], lo, text.count("\n", 0, lo), text.count("\n", hi, len(text)))


def _boundary_after(text: str, at: int, limit: int) -> int:
    """The first row group's (else line's) start at or after `at`, not past `limit`."""
    group = text.find("\n\n", max(at - 2, 0), limit)
    if group >= 0:
        return group + 2
    line = text.find("\n", max(at - 1, 0), limit)
    return line + 1 if line >= 0 else min(at, limit)


def _boundary_before(text: str, at: int, limit: int) -> int:
    """The last row group's (else line's) end at or before `at`, not before `limit`."""
    group = text.rfind("\n\n", limit, at + 2)
    if group >= 0:
        return group
    line = text.rfind("\n", limit, at + 1)
    return line if line >= 0 else max(at, limit)
