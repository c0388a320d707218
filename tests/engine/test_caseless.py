"""Caseless matching for Find (engine/text/caseless.py): the rule a person expects (any case, compatibility forms as
their plain letters, accents counting, whole characters only) and spans that are exactly the original characters
matched, however long their foldings are."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from desktop_rag.engine.text.caseless import _fold_char, caseless_find, caseless_fold


def _found(text: str, query: str, last: bool = False) -> str | None:
    span = caseless_find(text, caseless_fold(query), last)
    return None if span is None else text[span[0]:span[1]]


@pytest.mark.parametrize(("text", "query", "matched"), [
    ("Visit İstanbul today", "istanbul", "İstanbul"),  # U+0130 folds to a plain i (casefold: i + a dot above)
    ("Visit İSTANBUL today", "İstanbul", "İSTANBUL"),
    ("visit istanbul today", "İSTANBUL", "istanbul"),
    ("Die Straße ist lang", "STRASSE", "Straße"),  # ß is "ss", one character matched by two
    ("DIE STRASSE IST LANG", "straße", "STRASSE"),
    ("GROẞE Sache", "große", "GROẞE"),  # the capital sharp s
    ("ο δρόμος ΟΔΟΣ τέλος", "οδος", "ΟΔΟΣ"),  # a final sigma is a sigma
    ("τέλος της οδού", "ΤΈΛΟΣ", "τέλος"),
    ("型号 ＡＢＣ－１２ 规格", "abc-12", "ＡＢＣ－１２"),  # full-width Latin, digits, hyphen
    ("型号 abc-12 规格", "ＡＢＣ", "abc"),
    ("ｶﾞｲﾄﾞ", "ガイド", "ｶﾞｲﾄﾞ"),  # half-width katakana, the voiced mark a character of its own
    ("a ﬁle here", "FILE", "ﬁle"),  # a ligature
    ("Kelvin 5 K", "5 k", "5 K"),  # U+212A
])
def test_what_a_person_expects_to_find(text, query, matched):
    assert _found(text, query) == matched
    assert _found(text, query, last=True) == matched


@pytest.mark.parametrize(("text", "query"), [
    ("café", "cafe"),  # accents count
    ("resume", "résumé"),
    ("ıstanbul", "istanbul"),  # a dotless ı is a letter of its own
    ("Maße", "s"),  # half of ß is not a match: whole characters only
    ("Straße", "stras"),
    ("é", "e"),  # nor the e inside a precomposed é
    ("각", "가"),  # nor the start of a Hangul syllable
])
def test_what_it_does_not_find(text, query):
    assert _found(text, query) is None and _found(text, query, last=True) is None


def test_a_partial_match_is_skipped_for_the_whole_one_after_it():
    text = "Maße mase"
    assert caseless_find(text, caseless_fold("se")) == (7, 9)  # not the "se" starting in half of ß
    assert caseless_find(text, caseless_fold("sse")) == (2, 4)  # ß and e, whole
    assert caseless_find("mass Maße", caseless_fold("ma"), last=True) == (5, 7)
    assert caseless_find(text, caseless_fold("ss")) == (2, 3)  # ß alone is "ss"
    assert caseless_find("ßß", caseless_fold("ss"), last=True) == (1, 2)


def test_spans_are_the_original_characters_after_growing_foldings():
    text = "ŉ İİ ßẞ ﬁ ① x İstanbul"  # every one of these folds to more than one character
    start = text.index("İstanbul")
    assert caseless_find(text, caseless_fold("ISTANBUL")) == (start, start + 8)
    assert caseless_find(text, caseless_fold("x istanbul"), last=True) == (start - 2, start + 8)
    assert caseless_find(text, caseless_fold("ssss")) == (5, 7)
    assert caseless_find("abc", "") is None and caseless_find("", "a") is None


def test_the_fast_paths_fold_as_character_by_character_does():
    """A text whose foldings all keep one character is folded at C speed (`str.translate`); for every code point
    that folding is the one of the rule."""
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    for ch in chars:
        alone = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", ch).casefold())
        assert _fold_char(ch) == ("i" if ch == "İ" else alone), hex(ord(ch))
    text = "".join(chars[::7])
    assert caseless_fold(text) == "".join(map(_fold_char, text))
    assert caseless_fold("Plain ASCII, Mixed Case") == "plain ascii, mixed case"
