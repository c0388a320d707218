"""Tables that keep their structure: rows -> Markdown table text, cut into row groups with the header repeated;
and the same Markdown read back (the extractive answer quotes a row under its header, the viewer draws a grid).

A table parsed as plain lines loses its header as soon as a chunk boundary falls inside it. Here each row group is
one `Section` of at most `max_chars` (the chunk size), so the chunker never cuts it and every chunk carries the
header row: "what is X's Y" can be answered by the chunk holding X's row alone. Used by the .docx, .pptx and
spreadsheet readers and for PDF tables (`loaders.pdf_tables`).

A wide table (its header and rule lines over a third of `max_chars`) would drown in its own header: a 1,000-character
header repeated in every 500-character group leaves no room for data, and the chunker cuts each group into header
pieces without a data cell (frictionless-py's issue-811.csv: 23,712 chunks from 1.1 MB). So a wide table's groups
hold `max_chars` of rows with the header on top (its names shortened to at most `max_chars` in all, a compact rule
line), each group one whole chunk (`Section.whole`): about as many chunks per MB as prose (bench/README.md,
"Tables read as tables"). A single row longer than `max_chars` becomes a record (a "name: value" line per cell), which
the chunker may cut between its lines, every piece keeping names with their values.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from desktop_rag.engine.ingest.documents import Section

_SPACE = re.compile(r"\s+")
WIDE_SHARE = 3  # a table is wide when its header and rule lines take more than max_chars / WIDE_SHARE
MIN_NAME = 12  # a shortened column name keeps at least this many characters
_NOTE = re.compile(r"\s*[(（][^)）]*[)）]")  # "(valida a fini statistici)", "（元）": dropped first when shortening


def cell_text(value: object) -> str:
    """One cell as Markdown table text: on one line, spaces collapsed, pipes escaped."""
    text = "" if value is None else str(value)
    return _SPACE.sub(" ", text).strip().replace("\\", "\\\\").replace("|", "\\|")


def _line(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def clean_rows(rows: Iterable[Sequence[object]]) -> list[list[str]]:
    """Rows as cell texts: empty rows dropped, every row padded to the widest, empty trailing columns dropped."""
    return _shape([row for row in ([cell_text(v) for v in r] for r in rows) if any(row)])


def _shape(rows: list[list[str]]) -> list[list[str]]:
    width = max((max((i + 1 for i, c in enumerate(row) if c), default=0) for row in rows), default=0)
    return [(row + [""] * width)[:width] for row in rows]


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]], rule: str = "---") -> str:
    """A Markdown table of cleaned cells (`clean_rows`): the header, its rule, then the rows."""
    lines = [_line(header), _line([rule] * len(header))]
    lines.extend(_line(row) for row in rows)
    return "\n".join(lines)


def table_sections(
    rows: Iterable[Sequence[object]],
    *,
    max_chars: int,
    heading_path: tuple[str, ...] = (),
    page: int | None = None,
    row_numbers: Sequence[int] | None = None,
) -> list[Section]:
    """The table `rows` (the first is the header) as Sections of at most `max_chars`, each repeating the header.

    A group holds as many whole rows as fit (at least one: a single row longer than `max_chars` is left whole
    for the chunker). With `row_numbers` (each row's number in its sheet, header included) each group's
    heading path ends with "rows a-b" ("row a" for one). A wide table is laid out as the module says.
    """
    numbered = [(n, [cell_text(v) for v in row]) for n, row in
                zip(row_numbers if row_numbers is not None else itertools.count(1), rows)]
    numbered = [(n, row) for n, row in numbered if any(row)]
    cleaned, numbers = _shape([row for _, row in numbered]), [n for n, _ in numbered]
    if not cleaned:
        return []
    header, body, body_numbers = cleaned[0], cleaned[1:], numbers[1:]
    head = markdown_table(header, [])
    if not body:
        return [Section(text=head, page=page, heading_path=heading_path)]
    group = _Grouping(header, body, body_numbers, heading_path, page, row_numbers is not None)
    if len(head) * WIDE_SHARE > max_chars:
        return group.wide(max_chars)
    sections: list[Section] = []
    start, size = 0, len(head)
    for i, row in enumerate(body):
        length = len(_line(row)) + 1
        if i > start and size + length > max_chars:
            sections.append(group.section(start, i))
            start, size = i, len(head)
        size += length
    sections.append(group.section(start, len(body)))
    return sections


@dataclass(frozen=True)
class _Grouping:
    header: list[str]
    body: list[list[str]]
    numbers: list[int]
    heading_path: tuple[str, ...]
    page: int | None
    numbered: bool

    def _path(self, start: int, end: int) -> tuple[str, ...]:
        first, last = self.numbers[start], self.numbers[end - 1]
        rows = f"rows {first}-{last}" if last > first else f"row {first}"
        return (*self.heading_path, rows) if self.numbered else self.heading_path

    def section(self, start: int, end: int, header: Sequence[str] | None = None, rule: str = "---",
                whole: bool = False) -> Section:
        text = markdown_table(header or self.header, self.body[start:end], rule)
        return Section(text=text, page=self.page, heading_path=self._path(start, end), whole=whole)

    def wide(self, max_chars: int) -> list[Section]:
        """Groups of `max_chars` of rows under a header shortened to `max_chars`, each one whole chunk; a row
        longer than `max_chars` alone as a record."""
        names = shortened(self.header, max_chars)
        sections: list[Section] = []
        start, size = 0, 0
        for i, row in enumerate([*self.body, None]):
            length = len(_line(row)) + 1 if row is not None else 0
            if i > start and (row is None or size + length > max_chars or length > max_chars):
                sections.append(self.section(start, i, names, "-", whole=True))
                start, size = i, 0
            if row is not None and length > max_chars:
                sections.append(Section(text=record(self.header, row), page=self.page,
                                        heading_path=self._path(i, i + 1)))
                start = i + 1
                continue
            size += length
        return sections


def shortened(header: Sequence[str], max_chars: int) -> list[str]:
    """Column names whose header line fits `max_chars`: notes in brackets dropped first, then each name cut to an
    equal share (at least MIN_NAME characters, "…" marking the cut): at its end, or in its middle where names
    would otherwise read the same ("Codice Comune…110 province" beside "…107 province"), else numbered."""
    if len(_line(header)) <= max_chars:
        return list(header)
    names = [_NOTE.sub("", name).strip() or name for name in header]
    if len(_line(names)) <= max_chars:
        return names
    share = max(MIN_NAME, (max_chars - 2) // max(len(names), 1) - 3)
    cut = [_cut(name, share) for name in names]
    for same in _repeated(cut):
        for k in same:
            cut[k] = _middle(names[k], share)
    for same in _repeated(cut):
        for k in same:
            cut[k] = f"{_cut(names[k], share - 4)} #{k + 1}"
    return cut


def _repeated(names: list[str]) -> list[list[int]]:
    where: dict[str, list[int]] = {}
    for k, name in enumerate(names):
        where.setdefault(name, []).append(k)
    return [ks for ks in where.values() if len(ks) > 1]


def _cut(name: str, share: int) -> str:
    if len(name) <= share:
        return name
    cut = name[: share - 1]
    at_word = cut.rsplit(" ", 1)[0] if " " in cut and name[share - 1] != " " else cut
    return (at_word if len(at_word) * 3 >= len(cut) * 2 else cut).rstrip() + "…"


def _middle(name: str, share: int) -> str:
    if len(name) <= share:
        return name
    head = (share - 1) // 2
    return name[:head].rstrip() + "…" + name[len(name) - (share - 1 - head):].lstrip()


def record(header: Sequence[str], row: Sequence[str], separator: str = "\n") -> str:
    """A row as "name: value" lines (empty cells left out): the chunker cuts a long one between its lines."""
    return separator.join(f"{name}: {value}" if name else value for name, value in zip(header, row) if value)


# ---- reading Markdown tables back --------------------------------------------------------------------------

_RULE_CELL = re.compile(r":?-+:?")


class Cell(NamedTuple):
    """One cell of a Markdown table: its text (escapes undone) and the span of its raw text in the source."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class MarkdownTable:
    """A block of Markdown table lines in a text: its span, its header (None without a rule line under the first
    line) and its rows, each a tuple of cells with the span of its line."""

    start: int
    end: int
    header: tuple[Cell, ...] | None
    rows: tuple[tuple[tuple[Cell, ...], tuple[int, int]], ...]


def markdown_tables(text: str) -> list[MarkdownTable]:
    """The Markdown tables in `text`: runs of lines that begin and end with an unescaped pipe."""
    tables: list[MarkdownTable] = []
    block: list[tuple[int, int, list[Cell]]] = []
    for start, end in _lines(text):
        cells = _cells(text, start, end)
        if cells is not None:
            block.append((start, end, cells))
            continue
        if block:
            tables.append(_table(block))
            block = []
    if block:
        tables.append(_table(block))
    return tables


def _lines(text: str) -> Iterable[tuple[int, int]]:
    start = 0
    for m in re.finditer(r"\n", text):
        yield start, m.start()
        start = m.end()
    yield start, len(text)


def _cells(text: str, start: int, end: int) -> list[Cell] | None:
    """A table line's cells, or None when the line is not one (its stripped text must start and end with a pipe)."""
    while start < end and text[start] in " \t":
        start += 1
    while end > start and text[end - 1] in " \t\r":
        end -= 1
    if end - start < 2 or text[start] != "|" or text[end - 1] != "|" or text[end - 2] == "\\":
        return None
    cells: list[Cell] = []
    cell_start, i = start + 1, start + 1
    while i < end:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "|":
            cells.append(_cell(text, cell_start, i))
            cell_start = i + 1
        i += 1
    return cells or None


def _cell(text: str, start: int, end: int) -> Cell:
    while start < end and text[start] == " ":
        start += 1
    while end > start and text[end - 1] == " ":
        end -= 1
    raw = text[start:end]
    shown = re.sub(r"\\([\\|])", r"\1", raw) if "\\" in raw else raw
    return Cell(shown, start, end)


def _table(block: list[tuple[int, int, list[Cell]]]) -> MarkdownTable:
    rows = [(tuple(cells), (start, end)) for start, end, cells in block]
    header = None
    if len(rows) > 1 and _is_rule(rows[1][0]):
        header, rows = rows[0][0], rows[2:]
    return MarkdownTable(block[0][0], block[-1][1], header, tuple(r for r in rows if not _is_rule(r[0])))


def _is_rule(cells: tuple[Cell, ...]) -> bool:
    return all(_RULE_CELL.fullmatch(c.text) for c in cells)
