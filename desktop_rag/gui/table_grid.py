"""A document's Markdown tables drawn as text grids with their header, for the viewer's plain-text pane.

The readers turn spreadsheets, slides, PDF and Word tables into Markdown tables (engine ingest.tables); shown as
they are, they read as rows of pipes under a `| --- |` line. Here every table becomes a grid drawn in ASCII (box
drawing characters are "ambiguous width": a Chinese font draws them two columns wide), its top border `+===+` when
the first row is the header (drawn bold by the pane), columns padded to their widest cell (Chinese characters count
two), a cell wider than MAX_CELL wrapped inside its column. The text stays plain text (nothing in a document is
markup), so the pane keeps QPlainTextEdit's speed on long documents (a QTextTable of 500 rows took seconds to lay
out). Consecutive tables with the same header (a sheet's row groups) are drawn as one.

`GridText.span` maps an offset range of the source text (the stored passage's place) to the displayed text, so the
passage highlight, the quoted sentences and find still land on the right rows. Pure Python: it runs on the viewer's
locate thread. A table-only document (a sheet, a CSV file) is shown unwrapped, so a wide grid scrolls sideways; in
a document with prose the columns are narrowed to MAX_WIDTH and the lines wrap with the view.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from desktop_rag.engine import display_width, markdown_tables

MAX_CELL = 40  # display columns of one cell before its text wraps inside the column
MIN_CELL = 6
MAX_WIDTH = 110  # a table in a document with prose is narrowed to this many display columns
HEADED_TOP, TOP, BAR = "+=", "+-", "|"  # a grid's first line (with a header row, without), its rows' bar

Run = tuple[int, int, int, int]  # source start, source end, display start, display length


@dataclass(frozen=True)
class GridText:
    """The text as displayed, and where each piece of the source went."""

    text: str
    runs: tuple[Run, ...] = ()
    wrap: bool = True  # False: a table-only document, shown unwrapped
    tables: int = 0

    def position(self, offset: int, end: bool = False) -> int:
        """Where source `offset` is displayed; an offset between pieces (a pipe, a rule line) goes to the next
        piece's start, or with `end` to the previous piece's end."""
        if not self.runs:
            return offset
        i = bisect.bisect_right(self._starts, offset) - 1
        if i < 0:
            return self.runs[0][2]
        start, stop, shown, length = self.runs[i]
        if offset <= stop:
            return shown + min(offset - start, length)
        if end or i + 1 >= len(self.runs):
            return shown + length
        return self.runs[i + 1][2]

    def span(self, start: int, end: int) -> tuple[int, int]:
        return self.position(start), max(self.position(start), self.position(end, end=True))

    @property
    def _starts(self) -> list[int]:
        starts = self.__dict__.get("_starts_cache")
        if starts is None:
            starts = [r[0] for r in self.runs]
            object.__setattr__(self, "_starts_cache", starts)
        return starts


def grid_text(text: str) -> GridText:
    """`text` with its Markdown tables drawn as grids (as it is when it has none); the viewer gives it a window of a
    long document (gui/text_window.py)."""
    tables = markdown_tables(text) if "|" in text else []
    if not tables:
        return GridText(text)
    groups = _merged(text, tables)
    prose = len(text.strip()) - sum(len(text[g[0].start:g[-1].end].strip()) for g in groups) > 0
    out = _Builder()
    at = 0
    for group in groups:
        out.copy(text, at, group[0].start)
        _draw(out, group, MAX_WIDTH if prose else None)
        at = group[-1].end
    out.copy(text, at, len(text))
    return GridText("".join(out.parts), tuple(out.runs), wrap=prose, tables=len(groups))


def _merged(text: str, tables: list) -> list[list]:
    """Tables side by side (only white space between) with the same header, as groups drawn as one grid."""
    groups: list[list] = []
    for table in tables:
        last = groups[-1][-1] if groups else None
        if (last is not None and table.header is not None and last.header is not None
                and [c.text for c in table.header] == [c.text for c in last.header]
                and not text[last.end:table.start].strip()):
            groups[-1].append(table)
        else:
            groups.append([table])
    return groups


class _Builder:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.runs: list[Run] = []
        self.length = 0

    def add(self, piece: str, source: tuple[int, int] | None = None) -> None:
        if source is not None and piece:
            self.runs.append((source[0], source[1], self.length, len(piece)))
        self.parts.append(piece)
        self.length += len(piece)

    def copy(self, text: str, start: int, end: int) -> None:
        if end > start:
            self.add(text[start:end], (start, end))


def _draw(out: _Builder, group: list, max_width: int | None) -> None:
    header = group[0].header
    rows = [cells for table in group for cells, _ in table.rows]
    columns = max([len(header or ())] + [len(r) for r in rows])
    every = ([header] if header else []) + rows
    widths = [min(MAX_CELL, max([MIN_CELL // 2] + [display_width(r[c].text) for r in every if c < len(r)]))
              for c in range(columns)]
    if max_width is not None:
        _narrow(widths, max_width)
    out.add(_border("=" if header else "-", widths) + "\n")
    if header:
        _row(out, header, widths)
        out.add(_border("-", widths) + "\n")
    for cells in rows:
        _row(out, cells, widths)
    out.add(_border("-", widths))


def _narrow(widths: list[int], max_width: int) -> None:
    """Shrink the widest columns until the grid fits `max_width` (or every column is MIN_CELL)."""
    while sum(widths) + 3 * len(widths) + 1 > max_width:
        widest = max(range(len(widths)), key=widths.__getitem__)
        if widths[widest] <= MIN_CELL:
            return
        widths[widest] -= 1


def _border(line: str, widths: list[int]) -> str:
    return "+" + "+".join(line * (w + 2) for w in widths) + "+"


def _row(out: _Builder, cells, widths: list[int], bar: str = BAR) -> None:
    pieces = [_wrapped(cells[c].text, w) if c < len(cells) else [(0, "")] for c, w in enumerate(widths)]
    for line in range(max(len(p) for p in pieces)):
        out.add(bar)
        for c, w in enumerate(widths):
            out.add(" ")
            offset, piece = pieces[c][line] if line < len(pieces[c]) else (0, "")
            source = _source(cells[c], offset, len(piece)) if c < len(cells) and piece else None
            out.add(piece, source)
            out.add(" " * (w - display_width(piece)) + " " + bar)
        out.add("\n")


def _source(cell, offset: int, length: int) -> tuple[int, int]:
    """The source span of a cell's displayed piece (escapes make it approximate: clamped to the cell)."""
    start = min(cell.start + offset, cell.end)
    return start, min(start + length, cell.end)


def _wrapped(text: str, limit: int) -> list[tuple[int, str]]:
    """The cell's text in lines of at most `limit` display columns, each with its offset in the text; a break
    falls after a space where there is one."""
    lines: list[tuple[int, str]] = []
    start = 0
    while start < len(text):
        end, used, space = start, 0, -1
        while end < len(text) and used + display_width(text[end]) <= limit:
            used += display_width(text[end])
            if text[end] == " ":
                space = end
            end += 1
        if end == start:  # one character wider than the column
            end = start + 1
        elif end < len(text) and space > start:
            end = space + 1
        lines.append((start, text[start:end].rstrip()))
        start = end
    return lines or [(0, "")]
