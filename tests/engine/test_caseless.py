"""Caseless matching for Find (engine/text/caseless.py): the rule a person expects (any case, compatibility forms as
their plain letters, accents counting, whole characters only) and spans that are exactly the original characters
matched, however long their foldings are."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from desktop_rag.engine.text.caseless import _fold_char, _Folding, caseless_find, caseless_fold


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
    assert caseless_find("ab ßAB", "ab") == (0, 2)  # the first, unless asked for the last


def test_the_fast_paths_fold_as_character_by_character_does():
    """A text is folded whole at C speed: for every code point that folding is the one of the rule, and a text of
    every seventh code point (marks after marks, İ, foldings that grow) folds as its characters one by one."""
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    for ch in chars:
        alone = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", ch).casefold())
        assert _fold_char(ch) == ("i" if ch == "İ" else alone), hex(ord(ch))
    text = "".join(chars[::7])
    assert caseless_fold(text) == "".join(map(_fold_char, text))
    assert caseless_fold("Plain ASCII, Mixed Case") == "plain ascii, mixed case"


def _reference(text: str, needle: str, last: bool) -> tuple[int, int] | None:
    """The rule spelt out: the characters' foldings one after another, a match starting and ending where they do."""
    starts, at = {}, 0
    for index, ch in enumerate(text):
        starts[at] = index
        at += len(_fold_char(ch))
    starts[at] = len(text)
    folded = "".join(map(_fold_char, text))
    spans = [(starts[i], starts[i + len(needle)]) for i in range(len(folded))
             if folded.startswith(needle, i) and i in starts and i + len(needle) in starts]
    return (spans[-1] if last else spans[0]) if spans else None


def test_every_path_finds_what_the_rule_says():
    """Grown foldings with and without marks NFKD would move across characters (ǰ then a dot below: one by one, the
    caron stays first; ᾳ then an acute: its ypogegrammeni, moved behind the acute, becomes ι), half-width voiced marks,
    İ, marks out of canonical order: the span is the rule's, forwards and backwards, for needles taken from the texts
    and folded from queries."""
    import random

    from desktop_rag.engine.text import caseless

    caseless._mark_pairs.cache_clear()  # built and asked again here, whatever ran before
    caseless._swapped.cache_clear()
    rng = random.Random(11)
    alphabet = ["a", "A", "s", "S", "ß", "ẞ", "e", "é", "\u0301", "\u0323", "\u030c", "ǰ", "j", "ﬁ", "f", "i", "İ",
                "ｶ", "ﾞ", "カ", "ガ", "Σ", "ς", "ᾳ", "α", "ι", "\u0345", " "]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        if rng.random() < 0.5:
            query = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3)))
        else:
            start = rng.randrange(len(text))
            query = text[start:start + rng.randint(1, 3)]
        needle = caseless_fold(query)
        if not needle:
            continue
        for last in (False, True):
            assert caseless_find(text, needle, last) == _reference(text, needle, last), (text, query, last)


def test_a_grown_text_without_the_needle_is_not_folded_one_character_at_a_time():
    """The fast path: a piece whose foldings grow (ß) is searched in its whole folding; without a match, and with a
    needle of no combining mark, no character is folded alone (no look-up table, no per-character pass)."""
    text = "Die Straße am Hafen; Größe und Maße der Schiffe.\n" * 2000
    _fold_char.cache_clear()
    assert caseless_find(text, caseless_fold("kraken")) is None
    assert _fold_char.cache_info().currsize == 0
    assert caseless_find(text, caseless_fold("GRÖSSE"), last=True) == (text.rindex("Größe"), text.rindex("Größe") + 5)
    folding = _Folding(text)
    whole = folding.folded
    folding.per_character()
    assert folding.folded is whole  # no mark moved: the whole folding is the exact one, kept


def test_marks_next_to_marks_are_looked_at_a_bounded_number_of_times(monkeypatch):
    """Thai's vowel below then tone mark (classes 103, 107: kept in order) is looked at pair by pair; past
    _MOST_PAIRS of them a piece is folded one character at a time instead (a hostile run of marks stays cheap)."""
    from desktop_rag.engine.text import caseless

    text = "ผู้ใหญ่ " * 5
    assert not caseless._moves_marks(text)
    monkeypatch.setattr(caseless, "_MOST_PAIRS", 3)
    assert caseless._moves_marks(text)
    assert caseless_find(text, caseless_fold("ใหญ่"), last=True) == (len(text) - 5, len(text) - 1)


def test_a_needle_only_its_own_characters_match_is_found_in_the_text_as_folding_would():
    """The fast path (`str.find` on the original, nothing folded) where only a needle's very characters can match it:
    on mixed texts (Chinese with the radicals, compatibility ideographs and half-width forms that fold to its
    characters, Latin, ß, İ, final sigma, full-width) it finds what folding finds, and what the rule says."""
    import random

    from desktop_rag.engine.text import caseless

    caseless._folded_from.cache_clear()  # built and asked again here, whatever ran before
    caseless._others.cache_clear()
    rng = random.Random(12)
    alphabet = ["中", "国", "人", "⼈", "一", "⼀", "量", "子", "数", "据", "豈", "豈", "。", "｡", "，", ",", "カ", "ｶ",
                "ﾞ", "ガ", "ひ", "１", "1", "Ａ", "a", "A", "ß", "s", "S", "İ", "i", "ς", "σ", "Σ", "é", "\u0301", " "]
    fast = 0
    for _ in range(4000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14)))
        start = rng.randrange(len(text))
        query = text[start:start + rng.randint(1, 3)] if rng.random() < 0.6 else rng.choice(["中国", "数据", "量子"])
        needle = caseless_fold(query)
        if not needle:
            continue
        fast += caseless._only_itself(text, needle)
        for last in (False, True):
            found = caseless_find(text, needle, last)
            assert found == caseless._find_folded(text, needle, last) == _reference(text, needle, last), (text, query)
    assert fast > 1000  # the fast path was taken often, not only tried


def test_a_chinese_needle_is_found_without_folding_the_text(monkeypatch):
    """Han a radical or compatibility ideograph folds to, and full-width punctuation in the text, still leave the
    text unfolded when none of those characters is in it; one that is makes it folded, and found."""
    from desktop_rag.engine.text import caseless

    text = "第三章：数据的收集与整理，样本与问卷。\n" * 500 + "中国人口普查（２０２０）"
    absent, china, data, people = map(caseless_fold, ("量子纠缠", "中国人口", "数据", "人口"))
    monkeypatch.setattr(caseless, "_Folding", None)  # folding the text would fail
    assert caseless_find(text, absent) is None
    assert caseless_find(text, china) == (text.index("中国人口"), text.index("中国人口") + 4)
    assert caseless_find(text, data, last=True) == (text.rindex("数据"), text.rindex("数据") + 2)
    monkeypatch.undo()
    assert caseless_find(text + "⼈口", people, last=True) == (len(text), len(text) + 2)
    assert caseless._others("人") == "".join(sorted("⼈㆟")) and caseless._others("数") == ""
