"""What a term of a text is: the CJK script ranges, English stopwords, the stemmer, words and CJK bigrams.

One home for these rules: keyword search (keyword.py), the extractive answer (extractive.py), the
follow-up query rewriting (prompting.py), text cleaning and the sources panel's highlighter use them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

# Character classes (for use inside [...]).
HAN = (
    "\u3400-\u4dbf"  # CJK Unified Ideographs Extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\uf900-\ufaff"  # CJK Compatibility Ideographs
    "\U00020000-\U0003134f"  # Extensions B..G
)
KANA = "\u3040-\u30ff"  # Hiragana, Katakana
HANGUL = "\uac00-\ud7af"  # Hangul syllables
CJK = KANA + HAN + HANGUL  # scripts written without spaces between words: indexed as character bigrams
CJK_PUNCTUATION = "\u3000-\u303f\uff00-\uffef"  # CJK symbols and punctuation, full-width forms

HAN_RUN = re.compile(f"[{HAN}]+")
CJK_CHAR = re.compile(f"[{CJK}]")
CJK_RUN = re.compile(f"[{CJK}]+")
# A token: a CJK run (group 1), or a run of other letters and digits (group 2) -- how FTS5's unicode61
# tokenizer splits the text once keyword.index_text has put spaces around every CJK run.
TOKEN = re.compile(f"([{CJK}]+)|((?:(?![{CJK}])[^\\W_])+)")

# Compact English stopword list (Lucene's classic set plus frequent function words and question words).
# Keyword search drops them from queries (SciFact nDCG@10 0.625 with, 0.618 without; keyword.py).
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
# Words of asking ("tell me", "please explain"): no part of an answer, so the extractive answer and
# the follow-up rewriting drop them too; keyword search keeps them (its list is the measured one).
REQUEST_WORDS: frozenset[str] = frozenset(
    "also describe explain like many may might mine much must please shall tell us versus vs whose".split()
)
QUESTION_STOPWORDS: frozenset[str] = ENGLISH_STOPWORDS | REQUEST_WORDS

# Light English suffix stripping (keyword search measured it as a prefix term: SciFact 0.670).
_SUFFIXES = ("ations", "ation", "ies", "ing", "es", "ed", "ly", "s")
_MIN_STEM = 3
_MIN_STEMMED_WORD = 4


def is_stemmable(word: str) -> bool:
    """Whether `stem` may shorten the word: ASCII letters only, at least four of them."""
    return len(word) >= _MIN_STEMMED_WORD and word.isascii() and word.isalpha()


def stem(word: str) -> str:
    """The word without its first matching suffix (a stem of 3+ letters stays); other words unchanged."""
    if not is_stemmable(word):
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _MIN_STEM:
            return word[: -len(suffix)]
    return word


_add = str.__add__


def cjk_bigrams(run: str) -> list[str]:
    """Overlapping character bigrams of a CJK run; a one-character run stays a unigram."""
    if len(run) == 1:
        return [run]
    return list(map(_add, run, run[1:]))


def tokens(text: str) -> Iterator[re.Match[str]]:
    """The text's tokens in order: group 1 a CJK run, group 2 a word of other letters and digits."""
    return TOKEN.finditer(text)


def fold(word: str) -> str:
    """Lower case without diacritics ("Café" -> "cafe"), as FTS5's unicode61 remove_diacritics 2 compares."""
    if word.isascii():
        return word.lower()
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c))


def has_han(text: str) -> bool:
    """True when the text contains Chinese (Han) characters."""
    return HAN_RUN.search(text) is not None


def cjk_ratio(text: str) -> float:
    """Share of CJK characters among the letters/digits of ``text`` (0.0 when none)."""
    cjk = len(CJK_CHAR.findall(text))
    if not cjk:
        return 0.0
    alnum = sum(1 for ch in text if ch.isalnum())
    return cjk / max(alnum, cjk)
