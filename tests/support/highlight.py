"""What a QTextDocument shows marked, and what keyword retrieval matched in a passage (asked of SQLite FTS5)."""

from __future__ import annotations

import re
import sqlite3

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument

from desktop_rag.engine.text.keyword import index_text, match_query
from desktop_rag.engine.text.terms import fold


def highlighted_runs(document: QTextDocument) -> list[str]:
    """The marked runs in document order (adjacent runs with the same format come as one)."""
    out = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.isValid() and fragment.charFormat().background().style() != Qt.BrushStyle.NoBrush:
                out.append(fragment.text())
            it += 1
        block = block.next()
    return out


def retrieval_matched_words(passage: str, query: str) -> set[str]:
    """The passage's indexed tokens that the keyword search matches, found by SQLite FTS5 itself.

    Every distinct token of the indexed passage (fts5vocab) is stored as its own row; the query's
    real MATCH expression then says which of them it matches.
    """
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE f USING fts5(body, tokenize='unicode61 remove_diacritics 2')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'row')")
    db.execute("INSERT INTO f(rowid, body) VALUES (1, ?)", (index_text(passage),))
    vocabulary = [row[0] for row in db.execute("SELECT term FROM v")]
    db.execute("DELETE FROM f")
    db.executemany("INSERT INTO f(rowid, body) VALUES (?, ?)", list(enumerate(vocabulary, start=1)))
    rows = db.execute("SELECT rowid FROM f WHERE f MATCH ?", (match_query(query),)).fetchall()
    db.close()
    return {vocabulary[r[0] - 1] for r in rows}


def marked_occurrences(passage: str, matched: set[str]) -> int:
    """How many words of a Latin-script passage are among the matched tokens."""
    return sum(fold(w) in matched for w in re.findall(r"[^\W_]+", passage))
