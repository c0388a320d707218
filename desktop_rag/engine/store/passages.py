"""Reads of stored passages for one document's summary and for answers: a file's chunks, the files in a scope
that have text."""

from __future__ import annotations

from collections.abc import Iterator

from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.library import Store


def file_chunks(store: Store, file_id: int, limit: int) -> list[tuple]:
    """(id, page, heading, text, ordinal, char_start, char_end, ocr) of a file's first `limit` chunks, in order."""
    return store.db.execute(
        "SELECT id, page, heading, text, ordinal, char_start, char_end, ocr FROM chunks WHERE file_id = ? "
        "ORDER BY ordinal LIMIT ?", (file_id, limit)).fetchall()


def files_with_text(store: Store, within: Restriction) -> Iterator[str]:
    """The paths of the files in `within` that have chunks."""
    where, args = within.files_sql("f")
    for (path,) in store.db.execute(f"SELECT f.path FROM files f WHERE {where} AND f.chunk_count > 0", args):
        yield path
