"""Tables on a PDF page from PDFium's character boxes ("stream" detection: rows and columns of aligned text runs).

A PDF has no tables, only characters at places. Here the characters are grouped into lines (by their vertical
centre), a line into runs (split where the gap is wider than `CELL_GAP` line heights), and consecutive lines whose
runs fall into the same column bands (the union of the runs' x ranges) into a table, the first line its header.
Two-column prose is kept out by the cells' length; a page's characters are looked at only when it looks tabular
(`looks_tabular`: more PDFium text objects than lines, as when every cell is drawn by its own text operator, and
lines of objects a cell gap apart), and never when it has more than `MAX_CHARS` characters, so the cost stays
bounded (about 1 ms for a page of prose, 5-20 ms for a page searched). The caller holds `PDFIUM_LOCK`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

MAX_CHARS = 20_000  # a page with more characters is not looked at (bounded time per page)
MIN_RECTS = 6  # fewer PDFium text objects than this: no table
RECTS_PER_LINE = 1.5  # fewer text objects per text line than this: prose, not a table
CELL_GAP = 0.8  # a gap wider than this many line heights separates two cells
SPACE_GAP = 0.15  # inside a cell, a gap wider than this many line heights is a space
ROW_GAP = 2.2  # lines further apart than this many line heights are not rows of one table
MIN_ROWS = 3  # the header and at least two rows
MAX_MEAN_CELL = 40  # a column whose cells are longer than this on average is prose, not a table column ...
MAX_MEAN_CELL_TWO = 24  # ... or, in a table of only two columns, longer than this
MIN_FILLED = 0.5  # at least this share of a table's cells hold text (not labels scattered over a figure)
EDGE_CHARS = 40  # at most this much text (a running header, a page number) between a table and its page's edge ...
COLUMN_SLACK = 3.0  # ... and columns starting within this many points: the next page's table continues this one
_SKIP = " \t\r\n\ufffe\u00a0\u3000"


@dataclass
class _Char:
    index: int
    text: str
    left: float
    bottom: float
    right: float
    top: float

    @property
    def middle(self) -> float:
        return (self.bottom + self.top) / 2


@dataclass
class _Line:
    chars: list[_Char] = field(default_factory=list)
    runs: list[list[_Char]] = field(default_factory=list)
    middle: float = 0.0  # the mean vertical centre of its characters
    height: float = 0.0  # the tallest character's height

    def add(self, char: _Char) -> None:
        self.chars.append(char)
        self.middle += (char.middle - self.middle) / len(self.chars)
        self.height = max(self.height, char.top - char.bottom)


@dataclass(frozen=True)
class PageTables:
    """The page's text without its tables' characters, and each table's rows of cell texts (first: header); each
    table's column starts (points from the left), and how many letters of text stand before the first table and
    after the last one (in PDFium's text order)."""

    text: str
    tables: list[list[list[str]]]
    columns: list[tuple[float, ...]] = field(default_factory=list)
    before: int = 0
    after: int = 0


def carry_headers(pages: dict[int, PageTables]) -> dict[int, PageTables]:
    """Tables continued from the previous page get its header row: a page's first table continues the previous
    page's last one when that table ends its page and this one starts its page (at most `EDGE_CHARS` letters
    beside them: a running header, a page number), with as many columns starting at the same places. A page that
    repeats the header keeps it once; any other table keeps its own first row as its header."""
    carried: dict[int, PageTables] = {}
    for index in sorted(pages):
        page = pages[index]
        before = carried.get(index - 1)
        if (before is not None and before.tables and page.tables and before.after <= EDGE_CHARS
                and page.before <= EDGE_CHARS and _same_columns(before.columns[-1], page.columns[0])):
            header, first = before.tables[-1][0], page.tables[0]
            if first[0] != header:
                page = replace(page, tables=[[header, *first], *page.tables[1:]])
        carried[index] = page
    return carried


def _same_columns(one: tuple[float, ...], other: tuple[float, ...]) -> bool:
    return len(one) == len(other) and all(abs(a - b) <= COLUMN_SLACK for a, b in zip(one, other))


def looks_tabular(textpage, text: str) -> list[tuple[float, float]]:
    """A cheap first look: enough PDFium text objects (one a cell when cells are drawn one by one) per line of
    text, and at least `MIN_ROWS` lines where two of them are a cell gap apart (judged on the objects' boxes).
    Returns the vertical spans (bottom, top) holding such lines, near ones merged (also across rows of a single
    cell between them); empty: no table here."""
    if len(text) > MAX_CHARS:
        return []
    count = textpage.count_rects()
    if count < MIN_RECTS or count < RECTS_PER_LINE * (text.count("\n") + 1):
        return []
    boxes = (textpage.get_rect(i) for i in range(count))
    every = _lines([_Char(-1, "", *box) for box in boxes if box[3] > box[1]])
    if sum(1 for line in every if len(line.runs) >= 2) < MIN_ROWS:
        return []
    spans: list[list[float]] = []
    chain = None  # the bottom of the last line within a row gap of the open span (a row of one cell keeps it)
    for line in every:  # top to bottom
        bottom, top = line.middle - line.height / 2, line.middle + line.height / 2
        near = chain is not None and chain - top <= ROW_GAP * line.height
        if len(line.runs) >= 2:
            if near:
                spans[-1][0] = bottom
            else:
                spans.append([bottom, top])
            chain = bottom
        else:
            chain = bottom if near else None
    return [(bottom, top) for bottom, top in spans]


def find_tables(textpage, text: str, spans: list[tuple[float, float]]) -> PageTables | None:
    """The tables within `spans` (`looks_tabular`) and the page's text (`text`: PDFium's, unchanged) without
    them; None when there are none. Only the characters of text lines starting within a span are measured."""
    import pypdfium2.raw as raw

    count = textpage.count_chars()
    if count <= 0 or count > MAX_CHARS:
        return None
    letters = list(text) if len(text) == count else [chr(raw.FPDFText_GetUnicode(textpage, i)) for i in range(count)]
    chars = []
    start = 0
    for end in [*(i for i, ch in enumerate(letters) if ch == "\n"), count]:
        line, start = range(start, end), end + 1
        first = next((i for i in line if letters[i] not in _SKIP), None)
        if first is None:
            continue
        _left, bottom, _right, top = textpage.get_charbox(first, loose=True)
        if not any(low <= (bottom + top) / 2 <= high for low, high in spans):
            continue
        for i in line:
            if letters[i] in _SKIP or raw.FPDFText_IsGenerated(textpage, i) == 1:
                continue
            left, bottom, right, top = textpage.get_charbox(i, loose=True)
            if top > bottom and right >= left:
                chars.append(_Char(i, letters[i], left, bottom, right, top))
    tables = [table for table in _tables(_lines(chars)) if _is_table(table)]
    if not tables:
        return None
    taken = {c.index for table in tables for line in table for c in line.chars}
    taken |= _spaces_between(letters, taken)
    first = min(c.index for line in tables[0] for c in line.chars)
    last = max(c.index for line in tables[-1] for c in line.chars)
    return PageTables("".join(ch for i, ch in enumerate(letters) if i not in taken),
                      [_rows(table) for table in tables],
                      [tuple(left for left, _ in _columns(table) or []) for table in tables],
                      _letters(letters, range(first), taken), _letters(letters, range(last + 1, count), taken))


def _letters(letters: list[str], span: range, taken: set[int]) -> int:
    """How many characters of the page's text (not of a table, not spaces) lie in `span`."""
    return sum(1 for i in span if i not in taken and letters[i] not in _SKIP)


def _lines(chars: list[_Char]) -> list[_Line]:
    """Characters grouped into lines top to bottom (by vertical centre), each split into runs left to right."""
    lines: list[_Line] = []
    for char in sorted(chars, key=lambda c: -c.middle):
        if not lines or abs(lines[-1].middle - char.middle) > lines[-1].height / 2:
            lines.append(_Line())
        lines[-1].add(char)
    for line in lines:
        line.chars.sort(key=lambda c: c.left)
        limit = CELL_GAP * line.height
        runs: list[list[_Char]] = [[line.chars[0]]]
        for char in line.chars[1:]:
            if char.left - runs[-1][-1].right > limit:
                runs.append([char])
            else:
                runs[-1].append(char)
        line.runs = runs
    return lines


def _columns(lines: list[_Line]) -> list[tuple[float, float]] | None:
    """The column bands of these lines (the union of their runs' x ranges); None when a line has two runs in one
    band (a run spanning columns: not a table) or there are fewer than two bands."""
    spans = sorted((run[0].left, run[-1].right) for line in lines for run in line.runs)
    bands: list[list[float]] = []
    for left, right in spans:
        if bands and left <= bands[-1][1]:
            bands[-1][1] = max(bands[-1][1], right)
        else:
            bands.append([left, right])
    if len(bands) < 2:
        return None
    for line in lines:
        hit = [_band(bands, run) for run in line.runs]
        if len(set(hit)) != len(hit):
            return None
    return [(a, b) for a, b in bands]


def _band(bands, run: list[_Char]) -> int:
    middle = (run[0].left + run[-1].right) / 2
    return next((i for i, (a, b) in enumerate(bands) if a <= middle <= b), -1)


def _tables(lines: list[_Line]) -> list[list[_Line]]:
    """Runs of consecutive lines that share column bands; a single-run line may sit inside a table (empty cells)
    but does not start or end one."""
    found: list[list[_Line]] = []
    block: list[_Line] = []

    def close() -> None:
        while block and len(block[-1].runs) < 2:
            block.pop()
        if len(block) >= MIN_ROWS:
            found.append(list(block))
        block.clear()

    for line in lines:
        near = block and block[-1].middle - line.middle <= ROW_GAP * max(block[-1].height, line.height)
        if near and _columns([*block, line]) is not None:
            block.append(line)
            continue
        close()
        if len(line.runs) >= 2:
            block.append(line)
    close()
    return found


def _is_table(lines: list[_Line]) -> bool:
    """Enough rows of short cells (two-column prose has long ones), most rows with two cells or more."""
    runs = [run for line in lines for run in line.runs]
    bands = _columns(lines) or []
    if len(lines) < MIN_ROWS or len(bands) < 2 or len(runs) < MIN_FILLED * len(lines) * len(bands):
        return False
    lengths: list[list[int]] = [[] for _ in bands]
    for line in lines:
        for run in line.runs:
            lengths[_band(bands, run)].append(len(run))
    limit = MAX_MEAN_CELL if len(bands) > 2 else MAX_MEAN_CELL_TWO
    return all(sum(column) <= limit * len(column) for column in lengths)


def _cell(run: list[_Char]) -> str:
    """A run's text, with a space where two characters are further apart than a space's width."""
    height = max(c.top - c.bottom for c in run)
    parts = [run[0].text]
    for before, char in zip(run, run[1:]):
        if char.left - before.right > SPACE_GAP * height:
            parts.append(" ")
        parts.append(char.text)
    return "".join(parts)


def _rows(lines: list[_Line]) -> list[list[str]]:
    bands = _columns(lines) or []
    rows = []
    for line in lines:
        row = [""] * len(bands)
        for run in line.runs:
            row[_band(bands, run)] = _cell(run)
        rows.append(row)
    return rows


def _spaces_between(letters: list[str], taken: set[int]) -> set[int]:
    """Spaces and line breaks whose neighbouring characters both belong to a table."""
    between: set[int] = set()
    last = None
    pending: list[int] = []
    for i, ch in enumerate(letters):
        if ch in _SKIP:
            pending.append(i)
            continue
        if i in taken and last in taken:
            between.update(pending)
        pending, last = [], i
    return between
