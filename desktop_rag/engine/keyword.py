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

__all__ = [
    "ENGLISH_STOPWORDS",
    "cjk_ratio",
    "index_text",
    "is_cjk_heavy",
    "match_query",
    "query_terms",
]

# Han (basic, ext. A, compatibility, ext. B+), CJK symbols-free: kana, Hangul syllables.
_CJK_CLASS = (
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3400-\u4dbf"  # CJK Unified Ideographs Extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK Compatibility Ideographs
    "\U00020000-\U0003134f"  # Extensions B..G
)
_CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
_CJK_SPLIT = re.compile(f"([{_CJK_CLASS}]+)")
_CJK_CHAR = re.compile(f"[{_CJK_CLASS}]")
# A query term: a CJK run, or a run of other word characters (letters, digits).
_TERM = re.compile(f"([{_CJK_CLASS}]+)|((?:(?![{_CJK_CLASS}])[^\\W_])+)")

# Compact English stopword list (Lucene's classic set plus frequent function words and
# question words). Used on the query side only; the index keeps every word.
ENGLISH_STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your
    yours yourself yourselves
    """.split()
)


_add = str.__add__


def _bigrams(run: str) -> list[str]:
    """Overlapping character bigrams of a CJK run; a one-character run stays a unigram."""
    if len(run) == 1:
        return [run]
    return list(map(_add, run, run[1:]))




# Light English suffix stripping for the query side only: the stripped stem is searched
# as an FTS5 prefix term ("cells" -> "cell"*), which also matches the exact word.
_SUFFIXES = ("ations", "ation", "ies", "ing", "es", "ed", "ly", "s")
_MIN_STEM = 3
_MIN_PREFIX_WORD = 4


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _MIN_STEM:
            return word[: -len(suffix)]
    return word


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
    for m in _TERM.finditer(query):
        run, word = m.group(1), m.group(2)
        if run is not None:
            items.extend((bg, len(bg) == 1, None) for bg in _bigrams(run))
            continue
        w = word.lower()
        if len(w) >= _MIN_PREFIX_WORD and w.isascii() and w.isalpha():
            items.append((_stem(w), True, w))
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


def term_coverage(terms: list[tuple[str, bool]], text: str) -> float:
    """Share (0..1) of the query terms (from `query_terms`) that occur in `text`, the way FTS5 matches them."""
    if not terms:
        return 0.0
    words = set(re.findall(r"[^\W_]+", text.lower()))
    bigrams = set(index_text(text).split()) if _CJK_CHAR.search(text) else set()
    found = 0
    for term, is_prefix in terms:
        if _CJK_CHAR.match(term):
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


def cjk_ratio(text: str) -> float:
    """Share of CJK characters among the letters/digits of ``text`` (0.0 when none)."""
    cjk = len(_CJK_CHAR.findall(text))
    if not cjk:
        return 0.0
    alnum = sum(1 for ch in text if ch.isalnum())
    return cjk / max(alnum, cjk)


def is_cjk_heavy(text: str, threshold: float = 0.3) -> bool:
    """True when at least ``threshold`` of the text's letters/digits are CJK characters."""
    return cjk_ratio(text) >= threshold
