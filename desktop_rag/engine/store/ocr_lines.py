"""A scanned page's recognised lines in the library (`ocr_lines`): each box OCR read on a PDF page, its characters as
a chunk's offsets (the document text) and its rectangle on the page; written in the transaction that writes its
file's chunks, dropped with them, read for the viewer's highlight of a cited passage."""

from __future__ import annotations

from collections.abc import Sequence

from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import OcrLine

BATCH = 500  # lines a statement: 4,000 parameters (SQLite takes 32,766, PostgreSQL 65,535)


def write(store: Store, file_id: int, lines: Sequence[OcrLine]) -> None:
    """`file_id`'s lines replaced by `lines` (inside the caller's transaction)."""
    drop(store, file_id)
    add(store, [(file_id, line) for line in lines])


def add(store: Store, lines: Sequence[tuple[int, OcrLine]]) -> None:
    """Each (file id, line) of `lines` stored, for files that have none yet (an import's new files: nothing to drop),
    `BATCH` a statement (on a server a statement is a round trip: a scanned book holds thousands of lines)."""
    rows = [(file_id, line.page, line.start, line.end, *line.rect) for file_id, line in lines]
    for at in range(0, len(rows), BATCH):
        batch = rows[at:at + BATCH]
        store.db.execute("INSERT INTO ocr_lines (file_id, page, char_start, char_end, x0, y0, x1, y1) VALUES "
                         + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(batch)), [v for row in batch for v in row])


def drop(store: Store, file_id: int) -> None:
    """`file_id`'s lines gone (with its chunks; inside the caller's transaction)."""
    store.db.execute("DELETE FROM ocr_lines WHERE file_id = ?", (file_id,))


def lines_of(store: Store, path: str, page: int, start: int, end: int) -> tuple[OcrLine, ...]:
    """The lines on `page` of the file at `path` whose characters overlap `start:end` (a passage's offsets), in
    order."""
    rows = store.db.execute(
        "SELECT l.page, l.char_start, l.char_end, l.x0, l.y0, l.x1, l.y1 FROM ocr_lines l "
        "JOIN files f ON f.id = l.file_id WHERE f.path = ? AND l.page = ? AND l.char_start < ? AND l.char_end > ? "
        "ORDER BY l.char_start", (path, page, end, start)).fetchall()
    return tuple(OcrLine(*row) for row in rows)
