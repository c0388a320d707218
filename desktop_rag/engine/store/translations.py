"""The translation cache: a question's translation into each language, as a language model gave it
(search/translation.py). Not part of the index: no chunk, vector or collection refers to it."""

from __future__ import annotations

from desktop_rag.engine.store.library import Store

def recall(store: Store, question: str, language: str) -> str | None:
    """The stored translation of `question` into `language`, or None."""
    row = store.db.execute("SELECT text FROM query_translations WHERE question = ? AND language = ?",
                           (question, language)).fetchone()
    return row[0] if row else None


def remember(store: Store, question: str, language: str, text: str) -> None:
    """Store a translation, in a short transaction of its own (under the store's rules: busy timeout, WAL)."""
    with store.transaction() as db:
        db.execute("DELETE FROM query_translations WHERE question = ? AND language = ?", (question, language))
        db.execute("INSERT INTO query_translations (question, language, text) VALUES (?, ?, ?)",
                   (question, language, text))
