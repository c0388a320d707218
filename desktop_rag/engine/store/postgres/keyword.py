"""Keyword search on PostgreSQL: the app's own tokens in a tsvector, ranked by BM25 computed in SQL.

PostgreSQL's text parser does not segment Chinese, so the app writes each chunk's tokens itself, the very
tokens SQLite's FTS5 gets (`text.terms`: words folded like unicode61 with remove_diacritics 2, each CJK run as
overlapping bigrams), as a tsvector literal with positions (`chunks.terms`) and their number (`term_count`).
A term's frequency in a chunk is `ts_rank_cd(terms, term, 0) * 10` (0.1 per occurrence for a one-term query,
prefix terms counting every matching word), so the score is FTS5's bm25() exactly: k1 = 1.2, b = 0.75,
idf = ln((N - n + 0.5) / (n + 0.5)) (at least 1e-6), N and the average length from the library's totals
(`library_counters`, kept by triggers), n the chunks holding the term. As on FTS5, the commonest terms are dropped
while the terms' estimated document frequencies (PostgreSQL's own statistics of the column) pass the budget.
"""

from __future__ import annotations

from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.text import keyword
from desktop_rag.engine.text.terms import cjk_bigrams, fold, tokens

K1, B = 1.2, 0.75
MAX_LEXEME_BYTES = 2046  # PostgreSQL refuses a longer word in a tsvector
MAX_POSITIONS = 256  # a tsvector keeps at most this many positions of one word
MAX_POSITION = 16383
RESCORED, MIN_RESCORED = 5, 200  # chunks scored exactly (tf read from their tsvector): 5 x the limit, at least 200
_NORM = f"(1 - {B} + {B} * {{}} / (SELECT avgdl FROM totals))"


def index_terms(heading: str, text: str) -> tuple[str, int]:
    """The tsvector literal of a chunk's keyword text (heading and text, as FTS5 indexes them) and its length in
    tokens."""
    body = f"{heading}\n{text}" if heading else text
    positions: dict[str, list[int]] = {}
    count = 0
    for match in tokens(body):
        run, word = match.group(1), match.group(2)
        for term in (cjk_bigrams(run) if run is not None else (fold(word),)):
            count += 1
            if len(term.encode("utf-8")) <= MAX_LEXEME_BYTES:
                positions.setdefault(term, []).append(min(count, MAX_POSITION))
    literal = " ".join(f"{_quoted(term)}:{','.join(map(str, spots[:MAX_POSITIONS]))}"
                       for term, spots in positions.items())
    return literal, count


def query_terms(query: str) -> list[tuple[str, str]]:
    """The query's terms as (term, tsquery literal): the same terms as the FTS5 query (`keyword.query_terms`)."""
    out = []
    for term, prefix in keyword.query_terms(query):
        term = fold(term)
        if term and len(term.encode("utf-8")) <= MAX_LEXEME_BYTES:
            out.append((term, _quoted(term) + (":*" if prefix else "")))
    return out


def search(db, query: str, limit: int, within: Restriction | None, budget: int) -> list[tuple[int, float]]:
    """(chunk id, BM25 score), best first, within the restriction (None or everything: the whole library)."""
    terms = query_terms(query)
    if not terms:
        return []
    if len(terms) > 1:
        terms = _affordable(db, terms, budget)
    where, args = ("", ())
    if within is not None and not within.everything:
        scope, args = within.files_sql("f")
        where = f"JOIN files f ON f.id = m.file_id WHERE {scope}"
    rows = db.execute(
        "WITH q AS (SELECT t.term, t.query::tsquery AS query FROM unnest(?::text[], ?::text[]) AS t(term, query)), "
        "totals AS (SELECT greatest(sum(chunks), 1)::float8 AS n, "
        "greatest(sum(tokens), 1)::float8 / greatest(sum(chunks), 1) AS avgdl FROM library_counters), "
        f"matches AS MATERIALIZED (SELECT c.id, c.file_id, q.term, q.query, {_NORM.format('c.term_count')} AS norm "
        "FROM q JOIN chunks c ON c.terms @@ q.query), "
        "idf AS (SELECT m.term, greatest(ln((t.n - count(*) + 0.5) / (count(*) + 0.5)), 1e-6) AS w "
        "FROM matches m CROSS JOIN totals t GROUP BY m.term, t.n), "
        # the score each match would have with the term once (no detoasting): the best candidates for the exact one
        f"likely AS (SELECT m.id, sum(i.w * {K1 + 1} / (1 + {K1} * m.norm)) AS s FROM matches m "
        f"JOIN idf i USING (term) {where} GROUP BY m.id ORDER BY s DESC, m.id LIMIT ?) "
        f"SELECT id, sum(w * tf * {K1 + 1} / (tf + {K1} * norm)) AS score FROM (SELECT m.id, i.w, m.norm, "
        "ts_rank_cd(c.terms, m.query, 0) * 10 AS tf FROM likely l JOIN matches m ON m.id = l.id "
        "JOIN idf i USING (term) JOIN chunks c ON c.id = m.id OFFSET 0) exact "
        "GROUP BY id ORDER BY score DESC, id LIMIT ?",
        ([t for t, _ in terms], [q for _, q in terms], *args, max(limit * RESCORED, MIN_RESCORED), limit),
    ).fetchall()
    return [(int(r[0]), float(r[1])) for r in rows]


def document_frequency(db, word: str) -> int:
    """About how many chunks hold `word` (a Chinese word, an English word or phrase): the fewest of its terms' (every
    chunk holding the word holds each of its terms), counted as SQLite counts them (for a prefix term, the sum over
    the words it begins: FTS5's term table), so both backends weigh a question's topic terms alike."""
    counts = []
    for term, prefix in keyword.query_terms(word):
        term = fold(term)
        if not term or len(term.encode("utf-8")) > MAX_LEXEME_BYTES:
            continue
        if prefix:
            row = db.execute("SELECT count(*) FROM chunks c CROSS JOIN LATERAL unnest(c.terms) AS u "
                             "WHERE c.terms @@ ?::tsquery AND starts_with(u.lexeme, ?)",
                             (_quoted(term) + ":*", term)).fetchone()
        else:
            row = db.execute("SELECT count(*) FROM chunks c WHERE c.terms @@ ?::tsquery", (_quoted(term),)).fetchone()
        counts.append(int(row[0]))
    return min(counts, default=0)


def _affordable(db, terms: list[tuple[str, str]], budget: int) -> list[tuple[str, str]]:
    """The rarest terms while their estimated document frequencies fit the budget (the rarest always kept):
    estimates from PostgreSQL's statistics of `chunks.terms` (a word not among its most common is rare)."""
    found = db.execute(
        "SELECT e.term, e.frequency * greatest(c.reltuples, 0) FROM pg_stats s "
        "JOIN pg_class c ON c.relname = s.tablename JOIN pg_namespace n ON n.oid = c.relnamespace "
        "AND n.nspname = s.schemaname "
        "CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(term, frequency) "
        "WHERE s.schemaname = current_schema() AND s.tablename = 'chunks' AND s.attname = 'terms' "
        "AND e.term = ANY (?::text[])", ([t for t, _ in terms],)).fetchall()
    estimate = dict.fromkeys((t for t, _ in terms), 0.0) | {t: float(n) for t, n in found}
    if sum(estimate.values()) <= budget:
        return terms
    kept, spent = set(), 0.0
    for term, _ in sorted(terms, key=lambda t: estimate[t[0]]):
        if kept and spent + estimate[term] > budget:
            break
        kept.add(term)
        spent += estimate[term]
    return [t for t in terms if t[0] in kept]


def _quoted(term: str) -> str:
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"
