"""Find in the whole text of a document the viewer shows (not only the window of it laid out: gui/text_window.py).

Caseless as a PDF's pages are searched (`engine.caseless_find`: any case, full-width letters as plain ones, whole
characters; its docstring holds the rule), from a place in the text forwards or backwards, wrapping around once.
The text is searched a piece at a time (CHUNK characters, each folded alone: no copy of the whole document), so a
search of a 20 M-character sheet stops at the next piece once it is cancelled. Pure Python: it runs on the viewer's
locate thread.
"""

from __future__ import annotations

import threading

from desktop_rag.engine import caseless_find, caseless_fold

CHUNK = 1 << 20  # characters searched between two looks at the cancel flag

Span = tuple[int, int]
_CANCELLED: Span = (-1, -1)


def find_text(text: str, query: str, at: int, forward: bool = True,
              cancel: threading.Event | None = None) -> Span | None:
    """The first match of `query` (stripped, caseless) starting at or after `at` (`forward`), else the last one
    ending at or before it; either wraps around the text once. A match's span is the text's characters it covers
    (a folding may be longer or shorter than they are: "ß" is "ss"). None: not there, or `cancel` was set."""
    needle = caseless_fold(query.strip())
    size, length = len(text), len(needle)  # a match covers at most `length` characters: none folds to nothing
    if not needle:
        return None
    at = min(max(at, 0), size)
    if forward:
        parts = ((at, size), (0, min(at + length - 1, size)))
    else:
        parts = ((0, at), (max(at - length + 1, 0), size))
    for lo, hi in parts:
        span = (_first if forward else _last)(text, needle, lo, hi, cancel)
        if span is not None:
            return None if span == _CANCELLED else span
    return None


def _first(text: str, needle: str, lo: int, hi: int, cancel: threading.Event | None) -> Span | None:
    """The first match wholly inside text[lo:hi]; None: not there; _CANCELLED."""
    for piece in range(lo, hi, CHUNK):
        if cancel is not None and cancel.is_set():
            return _CANCELLED
        found = caseless_find(text[piece:min(piece + CHUNK + len(needle) - 1, hi)], needle)
        if found is not None:
            return piece + found[0], piece + found[1]
    return None


def _last(text: str, needle: str, lo: int, hi: int, cancel: threading.Event | None) -> Span | None:
    """The last match wholly inside text[lo:hi]; None: not there; _CANCELLED."""
    for end in range(hi, lo, -CHUNK):
        if cancel is not None and cancel.is_set():
            return _CANCELLED
        piece = max(end - CHUNK - len(needle) + 1, lo)
        found = caseless_find(text[piece:end], needle, last=True)
        if found is not None:
            return piece + found[0], piece + found[1]
    return None
