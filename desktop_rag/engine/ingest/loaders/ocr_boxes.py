"""Where a scanned page's recognised text lies on the page: each box OCR read (`ocr.Recognised.boxes`, in its
image's pixels) placed on the page in display points, and given its characters in the page's cleaned text.

A box's pixels reach the page through its image's placement (`Placement`: where the image's corners are drawn, in
display points: an image object's matrix, or the page drawn whole), so the boxes hold at any size the page is later
drawn at. The page's text is the boxes' texts joined by spaces and line breaks, then cleaned (`cleaning.clean_pages`:
page numbers and repeated headers dropped, lines joined, spaces between CJK characters dropped); each box's text is
looked for, cleaned the same way, where the previous one ended, past whitespace only, so its span is exact: a box
whose text cleaning dropped is not found there and has no span. Bounded: at most MAX_LINES boxes a page, each
finite and within the page (a hostile PDF's scan can make OCR find many).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from desktop_rag.engine.ingest.cleaning import normalize_text, remove_cjk_spaces
from desktop_rag.engine.ingest.loaders.ocr import Box
from desktop_rag.engine.store.values import OcrLine

MAX_LINES = 2000  # boxes kept a page (a dense A4 page of 8 pt text has about 120 lines of a few boxes each)
SLACK = 1.0  # points a box may reach past the page's edge (a line at the very edge, rounding)

Point = tuple[float, float]
Piece = tuple[str, "tuple[float, float, float, float] | None"]  # a box's text and its display rect (None: unplaced)


@dataclass(frozen=True)
class Placement:
    """Where an image is drawn on its page: the display points (top-left origin, /Rotate applied) of its top-left,
    top-right and bottom-left corners, and its size in pixels."""

    top_left: Point
    top_right: Point
    bottom_left: Point
    width: int
    height: int

    @classmethod
    def whole_page(cls, page_width: float, page_height: float, width: int, height: int) -> Placement:
        """An image of the whole page as displayed (the page drawn at some scale)."""
        return cls((0.0, 0.0), (page_width, 0.0), (0.0, page_height), width, height)

    def rect(self, box: Box) -> tuple[float, float, float, float]:
        """The display rectangle around `box` (pixels of the image) on the page."""
        xs, ys = [], []
        for x, y in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
            u, v = x / max(self.width, 1), y / max(self.height, 1)
            xs.append(self.top_left[0] + u * (self.top_right[0] - self.top_left[0])
                      + v * (self.bottom_left[0] - self.top_left[0]))
            ys.append(self.top_left[1] + u * (self.top_right[1] - self.top_left[1])
                      + v * (self.bottom_left[1] - self.top_left[1]))
        return min(xs), min(ys), max(xs), max(ys)


def placed(boxes: Iterable[tuple[str, Box]], placement: Placement | None) -> list[Piece]:
    """Each box's text with its display rectangle (None when the image's placement is not known)."""
    return [(text, placement.rect(box) if placement is not None else None) for text, box in boxes]


def page_lines(pieces: Sequence[Piece], text: str, page: int, size: tuple[float, float]) -> tuple[OcrLine, ...]:
    """The pieces found in `text` (the page's cleaned text) in order, as lines of `page` (offsets into `text`);
    pieces without a rectangle, or one not finite or outside the page of `size` (display points), are left out."""
    lines: list[OcrLine] = []
    at = 0
    for piece, rect in pieces:
        span = _found(text, _cleaned(piece), at)
        if span is None:
            continue
        at = span[1]
        if rect is not None and _on_page(rect, size) and len(lines) < MAX_LINES:
            lines.append(OcrLine(page, span[0], span[1], *rect))
    return tuple(lines)


def _cleaned(piece: str) -> str:
    """A box's text as the page's cleaning leaves it."""
    return remove_cjk_spaces(normalize_text(piece))


def _found(text: str, piece: str, at: int) -> tuple[int, int] | None:
    """Where `piece` stands in `text` after `at` with only whitespace before it (a word hyphenated at a line's
    end loses its hyphen when the lines are joined); None when it is not there."""
    if not piece:
        return None
    start = at
    while start < len(text) and text[start].isspace():
        start += 1
    for candidate in (piece, piece[:-1] if len(piece) > 1 and piece.endswith("-") else ""):
        if candidate and text.startswith(candidate, start):
            return start, start + len(candidate)
    return None


def _on_page(rect: tuple[float, float, float, float], size: tuple[float, float]) -> bool:
    left, top, right, bottom = rect
    width, height = size
    return (all(math.isfinite(v) for v in (*rect, width, height)) and -SLACK <= left < right <= width + SLACK
            and -SLACK <= top < bottom <= height + SLACK)
