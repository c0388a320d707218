"""Tables that keep their structure: rows -> Markdown table text, cut into row groups with the header repeated.

A table parsed as plain lines loses its header as soon as a chunk boundary falls inside it. Here each row group is
one `Section` of at most `max_chars` (the chunk size), so the chunker never cuts it and every chunk carries the
header row: "what is X's Y" can be answered by the chunk holding X's row alone. Used by the .docx, .pptx and
spreadsheet readers and for PDF tables (`loaders.pdf_tables`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

from desktop_rag.engine.ingest.documents import Section

_SPACE = re.compile(r"\s+")


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


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table of cleaned cells (`clean_rows`): the header, its rule, then the rows."""
    lines = [_line(header), _line(["---"] * len(header))]
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
    heading path ends with "rows a-b" ("row a" for one).
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
    sections: list[Section] = []
    start, size = 0, len(head)
    for i, row in enumerate(body):
        length = len(_line(row)) + 1
        if i > start and size + length > max_chars:
            sections.append(_group(header, body, body_numbers, start, i, heading_path, page, row_numbers is not None))
            start, size = i, len(head)
        size += length
    sections.append(_group(header, body, body_numbers, start, len(body), heading_path, page, row_numbers is not None))
    return sections


def _group(header: list[str], body: list[list[str]], numbers: list[int], start: int, end: int,
           heading_path: tuple[str, ...], page: int | None, numbered: bool) -> Section:
    first, last = numbers[start], numbers[end - 1]
    rows = f"rows {first}-{last}" if last > first else f"row {first}"
    path = (*heading_path, rows) if numbered else heading_path
    return Section(text=markdown_table(header, body[start:end]), page=page, heading_path=path)
