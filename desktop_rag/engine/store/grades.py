"""The review log in the library: every answer given, its grade, the passages marked right or wrong, and the two
online signals (a cited source opened, a question asked again). Each person's own (on a server: the role's rows).

Written like the turns of a conversation (short transactions of the answering or GUI thread; not part of the
index: no writer lock, the library version does not move). An answer made in a conversation goes with it when
the conversation is deleted (a trigger), unless `keep_graded` detached its graded answers first. Marks keep the
marked chunk's id and a hash of its text then: a chunk changed or gone makes the label stale (review/evaluation.py);
an unchanged passage of an edited file takes its marks to its new chunk (carried_references.py).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence

from desktop_rag.engine.store.library import Connection
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.values import GRADES, Hit, LoggedAnswer

MAX_UNGRADED = 5000  # the oldest ungraded, unmarked answers go beyond this
_COLUMNS = ("id, question, query, answer, mode, model, created_at, passages_json, grade, none_right, "
            "conversation_id")


def text_hash(text: str) -> str:
    """The content hash the log keeps of a passage's or a chunk's text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def squeezed_hash(text: str) -> str:
    """The hash of the text without its whitespace (the same words, cut into other chunks)."""
    return text_hash("".join(text.split()))


def scope_key(within: Restriction) -> str:
    """Where a question was asked, as the log keeps it (collection, folders, types, files)."""
    return json.dumps([within.collection, sorted(within.folders), sorted(within.types), sorted(within.files)],
                      ensure_ascii=False)


def log_answer(db: Connection, *, question: str, normalised: str, query: str, query_normalised: str,
               scope: str, passages: Sequence[Hit], hashes: Sequence[str], model: str, settings: dict,
               answer: str, mode: str, cached: bool, conversation_id: int | None) -> int | None:
    """Keep one answer (inside a transaction); its id, or None for a conversation deleted meanwhile."""
    if conversation_id is not None and db.execute("SELECT 1 FROM conversations WHERE id = ?",
                                                  (conversation_id,)).fetchone() is None:
        return None
    shown = json.dumps([{**_hit_dict(h), "hash": digest} for h, digest in zip(passages, hashes)],
                       ensure_ascii=False)
    answer_id = db.execute(
        "INSERT INTO answer_log (created_at, conversation_id, question, normalised, query, query_normalised, "
        "scope, passages_json, model, settings_json, answer, mode, cached) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) "
        "RETURNING id",
        (time.time(), conversation_id, question, normalised, query, query_normalised, scope, shown, model,
         json.dumps(settings, sort_keys=True, ensure_ascii=False), answer, mode, int(cached))).fetchone()[0]
    ungraded = ("FROM answer_log a WHERE grade IS NULL AND none_right = 0 AND NOT EXISTS "
                "(SELECT 1 FROM answer_marks m WHERE m.answer_id = a.id)")
    db.execute(f"DELETE FROM answer_log WHERE id IN (SELECT id {ungraded} AND id < (SELECT id {ungraded} "
               "ORDER BY id DESC LIMIT 1 OFFSET ?))", (MAX_UNGRADED - 1,))
    return answer_id


def previous_answer(db: Connection, conversation_id: int, before: int) -> tuple[int, str, float] | None:
    """(id, question, time) of the conversation's answer just before answer `before`."""
    return db.execute("SELECT id, question, created_at FROM answer_log WHERE conversation_id = ? AND id < ? "
                      "ORDER BY id DESC LIMIT 1", (conversation_id, before)).fetchone()


def add_signal(db: Connection, answer_id: int, kind: str, chunk_id: int | None = None) -> bool:
    """Record "opened" (a source of the answer opened in the viewer) or "reasked"; False for an unknown answer."""
    if not exists(db, answer_id):
        return False
    db.execute("INSERT INTO answer_signals VALUES (?, ?, ?, ?)", (answer_id, kind, chunk_id, time.time()))
    return True


def exists(db: Connection, answer_id: int) -> bool:
    return db.execute("SELECT 1 FROM answer_log WHERE id = ?", (answer_id,)).fetchone() is not None


def set_grade(db: Connection, answer_id: int, grade: str | None) -> bool:
    """Grade an answer (one of GRADES) or take its grade back (None); False for an unknown answer."""
    if grade is not None and grade not in GRADES:
        raise ValueError(f"unknown grade {grade!r}")
    return db.execute("UPDATE answer_log SET grade = ?, graded_at = ? WHERE id = ?",
                      (grade, time.time() if grade else None, answer_id)).rowcount > 0


def mark(db: Connection, answer_id: int, chunk_id: int, chunk: Hit | None, right: bool | None) -> None:
    """Mark a passage right (the one right passage: others lose that mark, "none of them" goes) or wrong, or
    unmark it (None). `chunk`: the chunk as stored now (its text hashed, its file and span kept); None only to
    unmark one gone."""
    db.execute("DELETE FROM answer_marks WHERE answer_id = ? AND chunk_id = ?", (answer_id, chunk_id))
    if right is None or chunk is None:  # unmarked (a passage gone is never marked: grading.mark_passage)
        return
    if right:
        db.execute("DELETE FROM answer_marks WHERE answer_id = ? AND is_right = 1", (answer_id,))
        db.execute("UPDATE answer_log SET none_right = 0 WHERE id = ?", (answer_id,))
    db.execute("INSERT INTO answer_marks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (answer_id, chunk_id, text_hash(chunk.text), int(right), time.time(), chunk.path, chunk.char_start,
                chunk.char_end, squeezed_hash(chunk.text)))


def mark_none(db: Connection, answer_id: int, none: bool) -> None:
    """"None of the passages was right" (its right mark goes), or take that back."""
    if none:
        db.execute("DELETE FROM answer_marks WHERE answer_id = ? AND is_right = 1", (answer_id,))
    db.execute("UPDATE answer_log SET none_right = ? WHERE id = ?", (int(none), answer_id))


def answers(db: Connection, ids: Sequence[int]) -> list[LoggedAnswer]:
    """The logged answers with these ids, in that order (unknown ids skipped)."""
    found: dict[int, LoggedAnswer] = {}
    for start in range(0, len(ids), 500):
        batch = list(ids[start:start + 500])
        rows = db.execute(f"SELECT {_COLUMNS} FROM answer_log WHERE id IN ({','.join('?' * len(batch))})", batch)
        found.update((row[0], _logged(db, row)) for row in rows.fetchall())
    return [found[i] for i in ids if i in found]


def conversation_answer_ids(db: Connection, conversation_id: int) -> list[int]:
    return [r[0] for r in db.execute("SELECT id FROM answer_log WHERE conversation_id = ? ORDER BY id",
                                     (conversation_id,))]


def recent_ungraded_ids(db: Connection, limit: int) -> list[int]:
    """The newest `limit` answers without a grade (and with an answer text)."""
    return [r[0] for r in db.execute("SELECT id FROM answer_log WHERE grade IS NULL AND answer != '' "
                                     "ORDER BY id DESC LIMIT ?", (limit,))]


def graded_ids(db: Connection) -> list[int]:
    """Answers with a grade or a marked passage, oldest first (the export)."""
    return [r[0] for r in db.execute(
        "SELECT id FROM answer_log a WHERE grade IS NOT NULL OR none_right = 1 OR EXISTS "
        "(SELECT 1 FROM answer_marks m WHERE m.answer_id = a.id) ORDER BY id")]


def settings_of(db: Connection, answer_id: int) -> tuple[str, str, float | None, dict]:
    """(scope JSON, mode, graded_at, settings) of an answer, for the export."""
    scope, mode, graded_at, settings = db.execute(
        "SELECT scope, mode, graded_at, settings_json FROM answer_log WHERE id = ?", (answer_id,)).fetchone()
    return scope, mode, graded_at, json.loads(settings)


def signal_counts(db: Connection, answer_id: int) -> dict[str, int]:
    return dict(db.execute("SELECT kind, count(*) FROM answer_signals WHERE answer_id = ? GROUP BY kind",
                           (answer_id,)).fetchall())


def detach_graded(db: Connection, conversation_id: int) -> None:
    """Keep the graded or marked answers of a conversation about to be deleted (they lose its id)."""
    db.execute("UPDATE answer_log SET conversation_id = NULL WHERE conversation_id = ? AND (grade IS NOT NULL OR "
               "none_right = 1 OR EXISTS (SELECT 1 FROM answer_marks m WHERE m.answer_id = answer_log.id))",
               (conversation_id,))


def forget(db: Connection) -> int:
    """Take back every grade and mark (the answers and signals stay); how many answers had one."""
    count = len(graded_ids(db))
    db.execute("DELETE FROM answer_marks")
    db.execute("UPDATE answer_log SET grade = NULL, graded_at = NULL, none_right = 0")
    return count


def week_rows(db: Connection) -> list[tuple[float, str | None, int, int]]:
    """(time, grade, opened, reasked) of every logged answer, oldest first (review statistics)."""
    return db.execute(
        "SELECT created_at, grade, EXISTS (SELECT 1 FROM answer_signals s WHERE s.answer_id = a.id AND "
        "s.kind = 'opened'), EXISTS (SELECT 1 FROM answer_signals s WHERE s.answer_id = a.id AND "
        "s.kind = 'reasked') FROM answer_log a ORDER BY id").fetchall()


def labelled_count(db: Connection) -> int:
    return db.execute("SELECT count(DISTINCT answer_id) FROM answer_marks WHERE is_right = 1").fetchone()[0]


# ---- what feedback reads (search/feedback.py, answer/replay.py) ----

def right_chunk(db: Connection, normalised: str, scope: str) -> tuple[int, str] | None:
    """(chunk id, hash) of the passage last marked right for this normalised question in this scope."""
    return db.execute(
        "SELECT m.chunk_id, m.content_hash FROM answer_marks m JOIN answer_log a ON a.id = m.answer_id "
        "WHERE m.is_right = 1 AND (a.normalised = ? OR a.query_normalised = ?) AND a.scope = ? "
        "ORDER BY m.marked_at DESC LIMIT 1", (normalised, normalised, scope)).fetchone()


def wrong_chunks(db: Connection, normalised: str) -> set[int]:
    """The passages marked wrong for this normalised question (any scope)."""
    return {r[0] for r in db.execute(
        "SELECT m.chunk_id FROM answer_marks m JOIN answer_log a ON a.id = m.answer_id "
        "WHERE m.is_right = 0 AND (a.normalised = ? OR a.query_normalised = ?)", (normalised, normalised))}


def graded_down(db: Connection, normalised: str, answer: str) -> bool:
    """Whether this answer text to this normalised question was graded wrong or refused."""
    return db.execute("SELECT 1 FROM answer_log WHERE normalised = ? AND answer = ? AND grade IN "
                      "('wrong', 'refused') LIMIT 1", (normalised, answer)).fetchone() is not None


def _logged(db: Connection, row: tuple) -> LoggedAnswer:
    marks = db.execute("SELECT chunk_id, is_right FROM answer_marks WHERE answer_id = ? ORDER BY marked_at",
                       (row[0],)).fetchall()
    sources = tuple(_hit(d) for d in json.loads(row[7]))
    return LoggedAnswer(row[0], row[1], row[2], row[3], row[4], row[5], row[6], sources, row[8],
                        next((c for c, right in marks if right), None), bool(row[9]),
                        tuple(c for c, right in marks if not right), row[10])


def _hit(d: dict) -> Hit:
    return Hit(int(d["chunk_id"]), float(d["score"]), d["path"], d["page"], d["heading"], d["text"],
               int(d["file_id"]), int(d["ordinal"]), int(d["char_start"]), int(d["char_end"]))


def _hit_dict(hit: Hit) -> dict:
    return {"chunk_id": hit.chunk_id, "score": hit.score, "path": hit.path, "page": hit.page,
            "heading": hit.heading, "text": hit.text, "file_id": hit.file_id, "ordinal": hit.ordinal,
            "char_start": hit.char_start, "char_end": hit.char_end}
