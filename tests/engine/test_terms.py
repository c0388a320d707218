"""The one home of the text rules: the stemmer, stopwords, CJK ranges, tokens, folding."""

from __future__ import annotations

import pytest

from desktop_rag.engine.text import terms
from desktop_rag.engine.text.terms import (
    ENGLISH_STOPWORDS,
    QUESTION_STOPWORDS,
    REQUEST_WORDS,
    cjk_bigrams,
    cjk_ratio,
    fold,
    has_han,
    stem,
    tokens,
)


@pytest.mark.parametrize("word, stemmed", [
    ("relations", "rel"), ("relation", "rel"), ("nations", "nation"),  # "n" would be too short a stem
    ("studies", "stud"), ("meeting", "meet"), ("doing", "doing"), ("boxes", "box"), ("asked", "ask"),
    ("used", "used"), ("quickly", "quick"), ("cells", "cell"), ("cats", "cat"), ("bus", "bus"),
    ("cell", "cell"), ("cafés", "cafés"), ("gpu2s", "gpu2s"),
])
def test_stemmer_strips_one_suffix_from_ascii_words_of_four_letters_or_more(word, stemmed):
    assert stem(word) == stemmed


def test_stopwords_are_one_list_and_request_words_extend_it_for_questions():
    assert {"the", "of", "and", "is", "what", "before", "after"} <= ENGLISH_STOPWORDS
    assert {"tell", "please", "explain", "describe"} <= REQUEST_WORDS
    assert not REQUEST_WORDS & ENGLISH_STOPWORDS
    assert QUESTION_STOPWORDS == ENGLISH_STOPWORDS | REQUEST_WORDS
    assert len(ENGLISH_STOPWORDS) == 125 and len(REQUEST_WORDS) == 17  # the measured list is not edited by accident


@pytest.mark.parametrize("char, han, cjk", [
    ("中", True, True), ("\u3400", True, True), ("\u9fff", True, True), ("\uf900", True, True),
    ("\U00020000", True, True), ("\U0003134f", True, True),
    ("か", False, True), ("カ", False, True), ("한", False, True),
    ("a", False, False), ("。", False, False), ("，", False, False),
    ("\u33ff", False, False), ("\U00031350", False, False),
])
def test_cjk_ranges(char, han, cjk):
    assert has_han(char) is han
    assert bool(terms.CJK_CHAR.match(char)) is cjk


def test_tokens_are_cjk_runs_and_words_of_letters_and_digits():
    found = [(m.group(1), m.group(2)) for m in tokens("GPU加速2020年, don't_stop! Café")]
    assert found == [(None, "GPU"), ("加速", None), (None, "2020"), ("年", None), (None, "don"), (None, "t"),
                     (None, "stop"), (None, "Café")]
    assert cjk_bigrams("防守丢了") == ["防守", "守丢", "丢了"] and cjk_bigrams("猫") == ["猫"]


def test_fold_matches_the_index_case_and_diacritics_folding():
    assert fold("Café") == "cafe" and fold("NAÏVE") == "naive" and fold("Straße") == "straße"
    assert fold("ABC") == "abc" and fold("防守") == "防守"


def test_cjk_ratio_counts_cjk_among_letters_and_digits():
    assert cjk_ratio("") == 0.0 and cjk_ratio("abc") == 0.0
    assert cjk_ratio("ab加速") == 0.5 and cjk_ratio("加速!!") == 1.0 and cjk_ratio("かな") == 1.0
