"""Keyword search over the store's FTS5 index: BM25 with a budget on how many chunks a query may score."""

from __future__ import annotations

import sqlite3

from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.text import keyword

KEYWORD_POSTINGS_BUDGET = 20_000  # matching-chunk count a keyword query may score (bench/query.py)
VOCABULARY_VIEW = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_fts_terms USING fts5vocab(main, chunks_fts, 'row')"


def search(
    db: sqlite3.Connection, query: str, limit: int, within: Restriction | int | None = None
) -> list[tuple[int, float]]:
    """BM25 over the FTS5 index; returns (chunk_id, score) with higher = better.

    FTS5 scores every chunk that matches any term, so the cost grows with the terms' document
    frequencies (uncapped: p50 40 ms, p95 100 ms at 1M synthetic chunks). The rarest terms are kept
    while their frequencies sum to at most KEYWORD_POSTINGS_BUDGET; the commonest ones (low IDF,
    little ranking weight) are dropped beyond it; the rarest term is always kept. Small libraries
    are not affected.
    """
    terms = keyword.query_terms(query)
    if len(terms) > 1:
        terms = _affordable_terms(db, terms)
    expression = keyword.match_expression(terms)
    if expression is None:
        return []
    if isinstance(within, int):  # a collection id (Store.keyword_search's argument)
        within = Restriction(collection=within)
    if within is not None and not within.everything:  # a collection, folders, file types: joined to the file
        where, args = within.files_sql("f")
        rows = db.execute(
            "SELECT chunks_fts.rowid, bm25(chunks_fts) AS s FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid "
            f"JOIN files f ON f.id = c.file_id WHERE chunks_fts MATCH ? AND {where} ORDER BY s LIMIT ?",
            (expression, *args, limit),
        ).fetchall()
        return [(int(r[0]), -float(r[1])) for r in rows]
    rows = db.execute(
        "SELECT rowid, bm25(chunks_fts) AS s FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?",
        (expression, limit),
    ).fetchall()
    return [(int(r[0]), -float(r[1])) for r in rows]


def _affordable_terms(db: sqlite3.Connection, terms: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The query terms to search: rarest first while their document frequencies fit the budget."""
    frequency = {term: _document_frequency(db, *term) for term in terms}
    if sum(frequency.values()) <= KEYWORD_POSTINGS_BUDGET:
        return terms
    kept, spent = set(), 0
    for term in sorted(terms, key=frequency.__getitem__):
        if kept and spent + frequency[term] > KEYWORD_POSTINGS_BUDGET:
            break
        kept.add(term)
        spent += frequency[term]
    return [t for t in terms if t in kept]


def _document_frequency(db: sqlite3.Connection, term: str, prefix: bool) -> int:
    """Chunks holding the term (for a prefix term: the sum over its expansions, an upper bound)."""
    if not prefix:
        row = db.execute("SELECT doc FROM chunks_fts_terms WHERE term = ?", (term,)).fetchone()
        return int(row[0]) if row else 0
    upper = term[:-1] + chr(ord(term[-1]) + 1)
    row = db.execute(
        "SELECT coalesce(sum(doc), 0) FROM chunks_fts_terms WHERE term >= ? AND term < ?", (term, upper)
    ).fetchone()
    return int(row[0])


def document_frequency(db: sqlite3.Connection, word: str) -> int:
    """About how many chunks hold `word` (a Chinese word, an English word or phrase): the fewest of its terms'
    (every chunk holding the word holds each of its terms), from the index's own term counts."""
    terms = keyword.query_terms(word)
    return min((_document_frequency(db, *term) for term in terms), default=0)
