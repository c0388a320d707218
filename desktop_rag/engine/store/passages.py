"""Reads of stored passages for one document's summary and for answers: a file's chunks, the files in a scope
that have text, the passages marked right or wrong for a question; and for an index run, the files of given
chunks; for the viewer, which cited passages the library still holds."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from desktop_rag.engine.store import grades
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.values import FileRecord
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import Hit
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


def chunks_within(store: Store, chunk_ids: Sequence[int], within: Restriction) -> set[int]:
    """Those of the chunks that are inside `within` now."""
    if not chunk_ids:
        return set()
    where, args = within.files_sql("f")
    marks = ",".join("?" * len(chunk_ids))
    return {r[0] for r in store.db.execute(f"SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id "
                                            f"WHERE c.id IN ({marks}) AND {where}", [*chunk_ids, *args])}


def marked_right(store: Store, normalised: str, within: Restriction) -> Hit | None:
    """The passage last marked right for this normalised question asked in this scope (`grades.scope_key`), while
    its text is the one marked and it still lies inside the scope: a file moved to another folder or collection,
    or renamed to another type, takes its passage out of the scope it was marked in. None otherwise."""
    marked = grades.right_chunk(store.db, normalised, grades.scope_key(within))
    if marked is None or not chunks_within(store, [marked[0]], within):
        return None
    found = store.hits_for([(marked[0], 0.0)])
    return found[0] if found and grades.text_hash(found[0].text) == marked[1] else None


def marked_wrong(store: Store, normalised: str) -> list[Hit]:
    """The passages marked wrong for this normalised question, in any scope."""
    return store.hits_for([(cid, 0.0) for cid in sorted(grades.wrong_chunks(store.db, normalised))])


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


def held(store: Store, hits: Sequence[Hit]) -> frozenset[int]:
    """The chunk ids of `hits` the library still holds as they were cited: the chunk in the same file, its text in the
    passage (merged neighbours hold each chunk's whole text) (an edited file's changed passages are gone; its unchanged
    ones moved to new chunks, `carried_references`; an id freed by a removal may name another passage now)."""
    now = {hit.chunk_id: hit for hit in store.hits_for([(hit.chunk_id, 0.0) for hit in hits])}
    return frozenset(hit.chunk_id for hit in hits if (chunk := now.get(hit.chunk_id)) is not None
                     and chunk.path == hit.path and chunk.text in hit.text)
