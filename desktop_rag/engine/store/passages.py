"""Reads of stored passages for one document's summary and for answers: a file's chunks, the files in a scope
that have text; and for an index run, the files of given chunks."""

from __future__ import annotations

from collections.abc import Iterator

from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.records import FileRecord
from desktop_rag.engine.store.sql_store import FILE_COLUMNS, file_record


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


def chunk_files(store: Store, chunk_ids: list[int]) -> dict[int, FileRecord]:
    """The file of each of these chunks, by chunk id (a chunk gone meanwhile is not in it)."""
    columns = ", ".join(f"f.{column}" for column in FILE_COLUMNS.split(", "))
    found = {}
    for start in range(0, len(chunk_ids), 500):
        batch = chunk_ids[start:start + 500]
        rows = store.db.execute(f"SELECT c.id, {columns} FROM chunks c JOIN files f ON f.id = c.file_id "
                                f"WHERE c.id IN ({','.join('?' * len(batch))})", batch)
        found.update((row[0], file_record(row[1:])) for row in rows)
    return found
