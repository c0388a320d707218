"""What `desktop-rag eval` reads of the review log (review/labelled.py): the labelled questions, and the chunks
that cover a marked passage's place in its file now."""

from __future__ import annotations

from desktop_rag.engine.store.library import Store


def labelled(store: Store) -> list[tuple]:
    """Every answer with a passage marked right: (answer id, question, search query, scope JSON, chunk id,
    hash of the chunk's text when marked, its file's path, start, end, hash without whitespace), oldest first:
    the user's test set."""
    return store.db.execute(
        "SELECT a.id, a.question, a.query, a.scope, m.chunk_id, m.content_hash, m.path, m.char_start, m.char_end, "
        "m.squeezed_hash FROM answer_log a JOIN answer_marks m ON m.answer_id = a.id WHERE m.is_right = 1 "
        "ORDER BY a.id").fetchall()


def chunks_over(store: Store, path: str, start: int, end: int) -> list[tuple[int, int, int, int, str]]:
    """(chunk id, file id, start, end, text) of the chunks of the file at `path` over [start, end), in order."""
    return store.db.execute(
        "SELECT c.id, c.file_id, c.char_start, c.char_end, c.text FROM chunks c JOIN files f ON f.id = c.file_id "
        "WHERE f.path = ? AND c.char_start < ? AND c.char_end > ? ORDER BY c.char_start", (path, end, start)
    ).fetchall()

