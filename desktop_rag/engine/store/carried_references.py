"""What a person attached to a passage follows it when its file is read again and the passage did not change
(`kept_vectors.renew_chunks` pairs each unchanged old chunk with one new chunk of the same heading and text, in
order, and has the store carry them in the file's transaction before the old chunks go: `carry` on this computer,
on a server the function below).

- Marks (`answer_marks`): a mark on an old chunk of a pair moves to the new chunk, its place (`char_start`,
  `char_end`) the new chunk's; its text hash stays (the same text). So "marked right ranks first", "marked wrong is
  never cited again" and `eval`'s labelled questions hold after an edit elsewhere in the file. A passage whose text
  changed has no pair: its mark stays on the old id (stale, as before).
- The passages an answer was given, as a conversation's turn keeps them (`messages.sources_json`: what reopening
  it shows, the viewer opens and a mark is matched with) and as the review log keeps them
  (`answer_log.passages_json`): a passage (one chunk, or neighbours merged into one) whose every chunk has a pair,
  all moved by the same offset, takes the new chunk id, place, ordinal and page; any other stays as it was.
- The answer cache's links (`answer_cache_chunks`): a stored answer whose passages' chunks all have a pair stays (its
  key hashes what the request showed of each passage, not its chunk id: answer/replay.py), so the same question
  finding the same passages is answered from it; one with a changed passage keeps a link to an old chunk and goes
  with it (the triggers). Not carried: `answer_signals.chunk_id` (a record of what was opened then, read by no
  one by its id).

The rows to read are those keeping a passage of an old chunk, found by it (`kept_chunks`, noted by triggers whoever
writes a row), not every row. On a server every person's rows follow, not only the re-reading role's (the personal
tables are views of each role's rows): the store gives the pairs to the schema owner's function
`carry_chunk_references` (postgres/schema.py), which checks them against the chunks of the file this transaction
read again and moves every person's marks and passages by `move_passage`'s rule, written there in SQL (kept
passages of any length, a summary's sections too; tests/postgres/test_carried_references.py holds the two to the
same results).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import NamedTuple

from desktop_rag.engine.store.library import Connection
from desktop_rag.engine.store.values import ChunkDraft


class Moved(NamedTuple):
    """An old chunk (id, place, ordinal) and the new chunk with its text that replaces it."""

    old: int
    start: int
    end: int
    ordinal: int
    new: int
    draft: ChunkDraft


KEPT_PASSAGES = (("messages", "sources_json"), ("answer_log", "passages_json"))  # (table, JSON list of passages)


def carry(db: Connection, file_id: int, moves: Sequence[Moved]) -> None:
    """Move the marks and stored passages of `file_id`'s old chunks in `moves` to their new chunks."""
    if not moves:
        return
    marked = {row[0] for row in db.execute("SELECT DISTINCT chunk_id FROM answer_marks")}  # few: no index on it
    db.executemany("UPDATE answer_marks SET chunk_id = ?, char_start = ?, char_end = ? WHERE chunk_id = ?",
                   [(m.new, m.draft.char_start, m.draft.char_end, m.old) for m in moves if m.old in marked])
    db.executemany("UPDATE answer_cache_chunks SET chunk_id = ? WHERE chunk_id = ?", [(m.new, m.old) for m in moves])
    by_old = {m.old: m for m in moves}
    olds = json.dumps(list(by_old))
    for table, column in KEPT_PASSAGES:  # the rows keeping a passage of an old chunk (`kept_chunks`, sqlite/schema.py)
        rows = db.execute(f"SELECT id, {column} FROM {table} WHERE id IN (SELECT row_id FROM kept_chunks WHERE "
                          "kind = ? AND chunk_id IN (SELECT value FROM json_each(?)))", (table, olds)).fetchall()
        changed = [(text, row_id) for row_id, stored in rows
                   if (text := _carried(stored, file_id, by_old, moves)) is not None]
        if changed:
            db.executemany(f"UPDATE {table} SET {column} = ? WHERE id = ?", changed)


def _carried(stored: str, file_id: int, by_old: dict[int, Moved], moves: Sequence[Moved]) -> str | None:
    """The JSON list `stored` with its passages of `file_id` moved, or None when none moves (or it does not parse:
    a damaged row stays as it is and never stops a re-read)."""
    try:
        passages = json.loads(stored)
        moved = False
        for passage in passages:
            if passage.get("file_id") == file_id and passage.get("chunk_id") in by_old:
                moved = move_passage(passage, by_old[passage["chunk_id"]], moves) or moved
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None
    return json.dumps(passages, ensure_ascii=False) if moved else None


def move_passage(passage: dict, own: Moved, moves: Sequence[Moved]) -> bool:
    """Give `passage` (its chunk `own.old`, maybe merged with neighbours: a run of ordinals) the new chunks' id and
    place when every old chunk of its span has moved, all by one offset; whether it did."""
    start, end = passage["char_start"], passage["char_end"]
    inside = sorted((m for m in moves if start <= m.start and m.end <= end), key=lambda m: m.ordinal)
    ordinals = [m.ordinal for m in inside]
    shifts = {(m.draft.char_start - m.start, m.draft.ordinal - m.ordinal) for m in inside}
    if (not inside or min(m.start for m in inside) != start or max(m.end for m in inside) != end
            or ordinals != list(range(ordinals[0], ordinals[0] + len(inside))) or len(shifts) != 1):
        return False  # a chunk of it changed (a gap in the run, an end not reached) or they moved apart
    (offset, steps), = shifts
    passage.update(chunk_id=own.new, char_start=start + offset, char_end=end + offset,
                   ordinal=passage["ordinal"] + steps,
                   page=next((m.draft.page for m in inside if m.draft.page is not None), passage["page"]))
    return True
