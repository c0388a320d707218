"""An answer's passages where the library holds them when it is saved: an edit of their file indexed while the
answer streamed has moved the stored ones (`carried_references.carry`) before this answer's turn and review-log row
were written. The chunks behind the passages are noted when they are given (`GivenPassages.note`); at the save,
those of a file read again since are paired with its chunks now by the rule a re-read pairs them with
(`kept_vectors.paired`: heading and text, in order) and each passage moved as `carry` moves a stored one
(`carried_references.move_passage`); a passage whose text changed stays as it was given (as a stored one does)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from desktop_rag.engine.store.carried_references import Moved, move_passage
from desktop_rag.engine.store.kept_vectors import paired
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import ChunkDraft, Hit

Row = tuple  # (id, heading, text, page, char_start, char_end, ordinal): a chunk as `paired` reads it


class GivenPassages:
    """The chunks behind one answer's passages, noted when they are given; `now` the passages at the save."""

    def __init__(self, store: Callable[[], Store]) -> None:
        self.store = store
        self.given: dict[int, list[Row]] = {}  # by file id: its chunks of the (heading, text) of a passage's chunk

    def note(self, hits: Sequence[Hit]) -> None:
        """Read the chunks behind `hits` (and, for the pairing, the file's other chunks of the same texts)."""
        store, self.given = self.store(), {}
        for file_id in {hit.file_id for hit in hits if hit.file_id}:
            held = [row for hit in hits if hit.file_id == file_id for row in inside(store, hit)]
            self.given[file_id] = _same_texts(store, file_id, held)

    def now(self, hits: Sequence[Hit]) -> tuple[Hit, ...]:
        """`hits` where the library holds them now (as given when no chunk behind them went)."""
        store, hits = self.store(), tuple(hits)
        ids = [row[0] for rows in self.given.values() for row in rows]
        if not ids:
            return hits
        held = {row[0] for row in _chunks(store, f"id IN ({','.join('?' * len(ids))})", ids)}
        for file_id, old in self.given.items():
            if all(row[0] in held for row in old):
                continue
            new = _same_texts(store, file_id, old)
            moves = paired(old, [row[0] for row in new],
                           [ChunkDraft(row[6], row[2], row[3], row[1], row[4], row[5]) for row in new],
                           [(row[1], row[2]) for row in new])  # (read back: as stored)
            hits = tuple(_moved(hit, moves) if hit.file_id == file_id else hit for hit in hits)
        return hits


# the file's first chunk past a place (starting at or after its end): a chunk's offsets grow with its ordinal, so
# none after it lies inside; read first (its index's range stops at the first such chunk), it bounds the range read
_PAST = ("coalesce((SELECT ordinal FROM chunks WHERE file_id = ? AND ordinal > ? AND char_start >= ? ORDER BY ordinal "
         "LIMIT 1), 2147483648)")


def inside(store: Store, hit: Hit) -> list[Row]:
    """The chunks inside `hit`'s place, from its first (neighbours merged into it, a summary's section of many) to
    the file's first chunk past it (not to the end of the file's index)."""
    return _chunks(store, f"file_id = ? AND ordinal >= ? AND ordinal < {_PAST} AND char_start >= ? AND char_end <= ?",
                   (hit.file_id, hit.ordinal, hit.file_id, hit.ordinal, hit.char_end, hit.char_start, hit.char_end))


def _chunks(store: Store, where: str, args: Sequence) -> list[Row]:
    return store.db.execute("SELECT id, heading, text, page, char_start, char_end, ordinal FROM chunks "
                            f"WHERE {where} ORDER BY ordinal", list(args)).fetchall()


def _same_texts(store: Store, file_id: int, rows: Sequence[Row]) -> list[Row]:
    """The chunks of `file_id` with the heading and text of one of `rows`, by ordinal."""
    texts = sorted({row[2] for row in rows})
    if not texts:
        return []
    keys = {(row[1], row[2]) for row in rows}
    found = _chunks(store, f"file_id = ? AND text IN ({','.join('?' * len(texts))})", [file_id, *texts])
    return [row for row in found if (row[1], row[2]) in keys]


def _moved(hit: Hit, moves: Sequence[Moved]) -> Hit:
    """`hit` moved as `carry` moves a stored passage of its chunk, or `hit` as it is."""
    own = next((m for m in moves if m.old == hit.chunk_id), None)
    passage = {"chunk_id": hit.chunk_id, "char_start": hit.char_start, "char_end": hit.char_end,
               "ordinal": hit.ordinal, "page": hit.page}
    if own is None or not move_passage(passage, own, moves):
        return hit
    return dataclasses.replace(hit, **passage)
