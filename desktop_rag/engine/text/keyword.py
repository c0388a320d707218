"""CJK-aware keyword layer for the FTS5 index: what to store, how to query, language helpers.

The FTS5 table uses the built-in ``unicode61 remove_diacritics 2`` tokenizer (no stemming,
so exact English terms keep working). That tokenizer splits on spaces and punctuation
only, so a run of Chinese text would become one giant token and a two-character query
word could never match. :func:`index_text` therefore rewrites every run of CJK
characters (Han, kana, Hangul) into overlapping character bigrams separated by spaces
(``"防守丢了" -> "防守 守丢 丢了"``); a one-character run is kept as a unigram. Everything
else is left as it is: unicode61 folds case and diacritics itself. :func:`match_query`
applies the same rewriting to the query, drops English stopwords, quotes every term and
ORs them together, so BM25 ranks documents by how many (and how rare) query terms they hold.
:func:`term_spans` says where those terms match a passage (the sources panel marks exactly that).
The rules themselves (CJK ranges, stopwords, the stemmer, tokens) live in ``terms.py``.

Measured (bench/retrieval_research.py and variants; 500-char chunks, max chunk score per
document, nDCG@10):

- XQuAD-zh: CJK bigrams 0.964. Adding every CJK unigram to the index: 0.963 with bigram
  queries, 0.964 with unigram+bigram queries -- no gain for twice the tokens, so not used.
  A lone query character is a prefix term instead (``"猫"*`` matches ``猫咪``). Dropping
  Chinese question words (什么, 多少, 哪个 ...) from queries: +0.001, not worth a list.
- SciFact (English, no stemming in the index): exact terms 0.625; without the stopword
  list 0.618; light query-side stemming searched as a prefix (``"cells"`` -> ``"cell"*``,
  for ASCII words of 4+ letters) 0.670. A prefix without suffix stripping measured 0.642,
  prefixing only the words that lost a suffix 0.653.
- Speed: index_text on 20,000 chunks of 500 characters: about 0.08 s for English and
  0.9-1.3 s for all-Chinese text (about 50 CJK runs per chunk) on a loaded 2-core
  machine; match_query takes about 15-25 microseconds.
"""

from __future__ import annotations

import re

from desktop_rag.engine.text.terms import (
    CJK,
    CJK_CHAR,
    ENGLISH_STOPWORDS,
    cjk_bigrams,
    cjk_ratio,
    fold,
    is_stemmable,
    stem,
    tokens,
)

__all__ = [
    "ENGLISH_STOPWORDS",
    "cjk_ratio",
    "index_text",
    "is_cjk_heavy",
    "match_query",
    "query_terms",
    "term_spans",
]

_CJK_SPLIT = re.compile(f"([{CJK}]+)")
_add = str.__add__


def index_text(text: str) -> str:
    """Return the string to store in the FTS5 column for ``text``.

    Non-CJK text is kept verbatim (the tokenizer folds case and diacritics); each CJK run
    becomes space-separated overlapping bigrams (a one-character run stays as it is).
    """
    parts = _CJK_SPLIT.split(text)  # non-CJK, CJK run, non-CJK, ... (runs at odd indices)
    if len(parts) == 1:
        return text
    join = " ".join
    parts[1::2] = [join(map(_add, run, run[1:])) or run for run in parts[1::2]]
    return join(parts)


def query_terms(query: str) -> list[tuple[str, bool]]:
    """Split a query into distinct search terms, in order: ``(term, is_prefix)``.

    Latin words are lowercased and English stopwords dropped (unless the query holds
    nothing else); an ASCII word of 4+ letters is lightly stemmed and searched as a
    prefix ("cells" -> "cell"*). CJK runs become bigrams; a lone CJK character becomes a
    prefix term so it also matches the bigrams that start with it.
    """
    items: list[tuple[str, bool, str | None]] = []  # (term, is_prefix, source word or None)
    for m in tokens(query):
        run, word = m.group(1), m.group(2)
        if run is not None:
            items.extend((bg, len(bg) == 1, None) for bg in cjk_bigrams(run))
            continue
        w = word.lower()
        if is_stemmable(w):
            items.append((stem(w), True, w))
        else:
            items.append((w, False, w))
    keep_stop = all(src is not None and src in ENGLISH_STOPWORDS for _, _, src in items)
    seen: set[tuple[str, bool]] = set()
    out: list[tuple[str, bool]] = []
    for term, is_prefix, src in items:
        if not keep_stop and src is not None and src in ENGLISH_STOPWORDS:
            continue
        if (term, is_prefix) in seen:
            continue
        seen.add((term, is_prefix))
        out.append((term, is_prefix))
    return out


def term_spans(terms: list[tuple[str, bool]], text: str) -> list[tuple[int, int, int]]:
    """Where the query terms (from `query_terms`) match `text` the way FTS5 matches its indexed form.

    One ``(start, end, term index)`` per match, in text order. The indexed tokens are the words
    (compared without case or diacritics) and the CJK bigrams of `index_text`; a term matches a
    token it equals, a prefix term every token it starts. A matched word is spanned whole ("cell"*
    spans "cellular"); in a CJK run the span is the term's own characters.
    """
    exact: dict[str, list[int]] = {}
    prefixes: list[tuple[str, int]] = []
    for i, (term, is_prefix) in enumerate(terms):
        if is_prefix:
            prefixes.append((fold(term), i))
        else:
            exact.setdefault(fold(term), []).append(i)
    out: list[tuple[int, int, int]] = []
    for m in tokens(text):
        run, word = m.group(1), m.group(2)
        if word is not None:
            token = fold(word)
            out.extend((m.start(), m.end(), i) for i in _matching(token, exact, prefixes))
            continue
        for k, gram in enumerate(cjk_bigrams(run), start=m.start()):
            out.extend((k, k + len(gram), i) for i in exact.get(gram, ()))
            out.extend((k, k + len(p), i) for p, i in prefixes if gram.startswith(p))
    return out


def _matching(token: str, exact: dict[str, list[int]], prefixes: list[tuple[str, int]]) -> list[int]:
    return [*exact.get(token, ()), *(i for p, i in prefixes if token.startswith(p))]


def term_coverage(terms: list[tuple[str, bool]], text: str) -> float:
    """Share (0..1) of the query terms (from `query_terms`) that occur in `text`, nearly the way FTS5 matches them.

    Unlike FTS5 and `term_spans`, a Latin term glued to CJK text ("50" in "第50届") or written with
    diacritics in the text is not counted. Fusion scales other-language keyword scores by this share
    (the en->zh figures in bench/README.md); making it exact needs that bench re-run, so it stays as measured.
    """
    if not terms:
        return 0.0
    words = set(re.findall(r"[^\W_]+", text.lower()))
    bigrams = set(index_text(text).split()) if CJK_CHAR.search(text) else set()
    found = 0
    for term, is_prefix in terms:
        if CJK_CHAR.match(term):
            found += term in bigrams or (is_prefix and any(b.startswith(term) for b in bigrams))
        else:
            found += term in words or (is_prefix and any(w.startswith(term) for w in words))
    return found / len(terms)


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def match_query(query: str) -> str | None:
    """Build a safe FTS5 MATCH expression (quoted terms joined by OR), or None if empty.

    Every term is a quoted FTS5 string, so operators and punctuation in user input
    (``AND``, ``NEAR``, ``"``, ``*``, ``-``, ``:``, ``^``, parentheses) are plain text.
    """
    return match_expression(query_terms(query))


def match_expression(terms: list[tuple[str, bool]]) -> str | None:
    """The MATCH expression for terms from `query_terms` (None when there are none)."""
    if not terms:
        return None
    return " OR ".join(_quote(t) + ("*" if p else "") for t, p in terms)


def is_cjk_heavy(text: str, threshold: float = 0.3) -> bool:
    """True when at least ``threshold`` of the text's letters/digits are CJK characters."""
    return cjk_ratio(text) >= threshold
