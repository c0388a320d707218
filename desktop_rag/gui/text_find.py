"""Find in the whole text of a document the viewer shows (not only the window of it laid out: gui/text_window.py).

Case-insensitive as a PDF's pages are searched (`engine.lowered`), from a place in the text forwards or backwards,
wrapping around once. The text is searched a piece at a time (CHUNK characters, each lower-cased alone: no copy of
the whole document), so a search of a 20 M-character sheet stops at the next piece once it is cancelled. Pure
Python: it runs on the viewer's locate thread.
"""

from __future__ import annotations

import threading

from desktop_rag.engine import lowered

CHUNK = 1 << 20  # characters searched between two looks at the cancel flag


def find_text(text: str, query: str, at: int, forward: bool = True,
              cancel: threading.Event | None = None) -> tuple[int, int] | None:
    """The first occurrence of `query` (stripped, any case) starting at or after `at` (`forward`), else the last one
    ending at or before it; either wraps around the text once. None: not there, or `cancel` was set."""
    needle = lowered(query.strip())
    size, length = len(text), len(needle)
    if not needle or length > size:
        return None
    at = min(max(at, 0), size)
    if forward:
        parts = ((at, size), (0, min(at + length - 1, size)))
    else:
        parts = ((0, at), (max(at - length + 1, 0), size))
    for lo, hi in parts:
        start = (_first if forward else _last)(text, needle, lo, hi, cancel)
        if start is not None:
            return (start, start + length) if start >= 0 else None
    return None


def _first(text: str, needle: str, lo: int, hi: int, cancel: threading.Event | None) -> int | None:
    """The first start of `needle` wholly inside text[lo:hi]; None: not there; -1: cancelled."""
    for piece in range(lo, hi, CHUNK):
        if cancel is not None and cancel.is_set():
            return -1
        found = lowered(text[piece:min(piece + CHUNK + len(needle) - 1, hi)]).find(needle)
        if found >= 0:
            return piece + found
    return None


def _last(text: str, needle: str, lo: int, hi: int, cancel: threading.Event | None) -> int | None:
    """The last start of `needle` wholly inside text[lo:hi]; None: not there; -1: cancelled."""
    for end in range(hi, lo, -CHUNK):
        if cancel is not None and cancel.is_set():
            return -1
        piece = max(end - CHUNK - len(needle) + 1, lo)
        found = lowered(text[piece:end]).rfind(needle)
        if found >= 0:
            return piece + found
    return None
