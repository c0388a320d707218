"""Blocks -> sections, shared by the web-page, e-book, e-mail and OpenDocument readers.

A block is (heading level 1-9, title), (None, paragraph text) or (TABLE, rows). Each heading starts a section and
extends the heading path; a table becomes Markdown row groups of its own with the header repeated
(`ingest.tables`), so no chunk holds table rows without their header.
"""

from __future__ import annotations

from typing import Union

from desktop_rag.engine.ingest.cleaning import normalize_text
from desktop_rag.engine.ingest.tables import table_sections
from desktop_rag.engine.ingest.documents import Section

TABLE = 0  # the level of a table block, whose second item is its rows (the first row the header)
TABLE_CHARS = 500  # row-group size when the caller's context gives none (LoadContext.table_chars)
Block = tuple[Union[int, None], Union[str, list[list[str]]]]


def table_chars(context: object) -> int:
    """The row-group size a loader's context asks for (the chunk size)."""
    return int(getattr(context, "table_chars", TABLE_CHARS) or TABLE_CHARS)


def has_body(blocks: list[Block]) -> bool:
    """Whether any block is text or a table (not only headings)."""
    return any(level is None or level == TABLE for level, _ in blocks)


def first_heading(blocks: list[Block]) -> str:
    return next((str(text) for level, text in blocks if level not in (None, TABLE)), "")


def blocks_to_sections(blocks: list[Block], base: tuple[str, ...] = (), page: int | None = None,
                       max_table_chars: int = TABLE_CHARS) -> list[Section]:
    """Group blocks into sections under `base`; a heading repeating the last of `base` adds no level."""
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []
    parts: list[str] = []
    body = False

    def flush() -> None:
        text = normalize_text("\n\n".join(parts))
        if text and body:
            sections.append(Section(text=text, page=page, heading_path=base + tuple(t for _, t in stack)))

    for level, content in blocks:
        if level is None:
            parts.append(str(content))
            body = True
            continue
        if level == TABLE:
            flush()
            path = base + tuple(t for _, t in stack)
            sections.extend(table_sections(content, max_chars=max_table_chars, heading_path=path, page=page))
            parts, body = [], False
            continue
        flush()
        title = " ".join(str(content).split())
        while stack and stack[-1][0] >= level:
            stack.pop()
        if stack or not base or title != base[-1]:
            stack.append((level, title))
        parts, body = [title], False
    flush()
    return sections
