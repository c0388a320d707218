"""A file read again keeps the vectors of its passages that did not change (`SqlStore.replace_file_chunks`).

A new chunk whose embedded text (heading and text: `models.embedding.embedding_text`, as the backend stores them:
PostgreSQL's NUL as U+FFFD, `stored_text`) an old chunk of the same file had takes that chunk's vector, and its
staged vector when a model switch is in progress, each copied within its own table: a vector stays of the model its table holds (`vectors` the library's, `staged_vectors` the switch's), never
mixed; a chunk without one waits in that table's queue as any new chunk does. Only new and changed texts are embedded.
The new chunks get new ids (an id names one text at one place for good); what the person attached to an unchanged
passage (its marks, the passages kept with answers) moves to the new chunk (carried_references.py). All of it runs in the caller's
transaction, so a re-read that fails or is cancelled leaves the old chunks with their vectors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from desktop_rag.engine.store.carried_references import Moved
from desktop_rag.engine.store.library import Connection
from desktop_rag.engine.store.values import ChunkDraft, ReplacedChunks


class ChunkWriter(Protocol):
    """What renewing a file's chunks writes through (a backend's store, sql_store.py)."""

    db: Connection

    def stored_text(self, text: str) -> str: ...
    def insert_chunks(self, file_id: int, chunks: Sequence[ChunkDraft]) -> list[int]: ...
    def copy_vectors(self, table: str, pairs: Sequence[tuple[int, int]]) -> None: ...
    def vectors_changed(self) -> None: ...
    def carry_references(self, file_id: int, moves: Sequence[Moved]) -> None: ...


TABLES = ("vectors", "staged_vectors")
_BATCH = 500  # ids per statement (SQLite's bound on parameters)


def renew_chunks(store: ChunkWriter, file_id: int, chunks: Sequence[ChunkDraft]) -> ReplacedChunks:
    """Replace the chunks of `file_id` with `chunks`, giving each new chunk the vectors of an old one with its
    embedded text and carrying the references to an unchanged old chunk over; which old chunks' vectors went and
    which new chunks took one."""
    old = store.db.execute(
        "SELECT c.id, c.heading, c.text, v.chunk_id IS NOT NULL, s.chunk_id IS NOT NULL, c.char_start, c.char_end, "
        "c.ordinal FROM chunks c LEFT JOIN vectors v ON v.chunk_id = c.id "
        "LEFT JOIN staged_vectors s ON s.chunk_id = c.id WHERE c.file_id = ? ORDER BY c.ordinal", (file_id,)).fetchall()
    held: tuple[dict, dict] = ({}, {})  # (heading, text) -> an old chunk with a vector in TABLES[0], in TABLES[1]
    for chunk_id, heading, text, *has in (row[:5] for row in old):
        for known, present in zip(held, has):
            if present:
                known.setdefault((heading, text), chunk_id)
    keys = [(store.stored_text(c.heading), store.stored_text(c.text)) for c in chunks]  # as the old were stored
    new_ids = store.insert_chunks(file_id, chunks)
    store.carry_references(file_id, paired(old, new_ids, chunks, keys))
    reused: list[int] = []
    for table, known in zip(TABLES, held):
        pairs = [(new, known[key]) for new, key in zip(new_ids, keys) if key in known]
        if pairs:
            store.copy_vectors(table, pairs)
        if table == "vectors":
            reused = [new for new, _ in pairs]
    old_ids = [row[0] for row in old]
    for start in range(0, len(old_ids), _BATCH):
        part = old_ids[start:start + _BATCH]
        store.db.execute(f"DELETE FROM chunks WHERE id IN ({','.join('?' * len(part))})", part)
    dropped = [row[0] for row in old if row[3]]
    if dropped or reused:
        store.vectors_changed()
    return ReplacedChunks(dropped, reused)


def paired(old: Sequence[tuple], new_ids: Sequence[int], chunks: Sequence[ChunkDraft],
           keys: Sequence[tuple[str, str]]) -> list[Moved]:
    """Each old chunk (rows by ordinal: id, heading, text, ..., char_start, char_end, ordinal) paired with the first
    new chunk of its heading and text (`keys`: each new chunk's, as stored) not yet paired, in order (a passage
    repeated in the file pairs with its repeats in turn). Keys are paired apart: rows of only some keys pair as the
    whole file's would."""
    unpaired: dict[tuple[str, str], list[tuple]] = {}
    for row in old:
        unpaired.setdefault((row[1], row[2]), []).append(row)
    moves = []
    for new, c, key in zip(new_ids, chunks, keys):
        if same := unpaired.get(key):
            chunk_id, *_, start, end, ordinal = same.pop(0)
            moves.append(Moved(chunk_id, start, end, ordinal, new, c))
    return moves
