"""Tests for the CJK-aware keyword layer against a real in-memory SQLite FTS5 table."""

from __future__ import annotations

import sqlite3

import pytest

from desktop_rag.engine.text.keyword import (
    ENGLISH_STOPWORDS,
    cjk_ratio,
    index_text,
    is_cjk_heavy,
    match_query,
    query_terms,
)

DOCS = {
    1: "黑豹队的防守只丢了308分，在联赛中排名第六。",
    2: "芝加哥大学的校园在二十世纪变得更现代。",
    3: "Vitamin D deficiency is associated with reduced cell proliferation.",
    4: "The Huguenots settled in the New World; GPU加速 was not known then.",
    5: "小猫喜欢睡觉。猫",
    6: "Café owners discussed the naïve approach.",
}


@pytest.fixture()
def fts() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE f USING fts5(body, tokenize='unicode61 remove_diacritics 2')")
    db.executemany(
        "INSERT INTO f(rowid, body) VALUES (?, ?)", [(i, index_text(t)) for i, t in DOCS.items()]
    )
    yield db
    db.close()


def search(db: sqlite3.Connection, query: str) -> list[int]:
    expr = match_query(query)
    if expr is None:
        return []
    rows = db.execute("SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f)", (expr,)).fetchall()
    return [r[0] for r in rows]


def test_index_text_makes_overlapping_bigrams_and_keeps_latin() -> None:
    assert index_text("防守丢了").split() == ["防守", "守丢", "丢了"]
    assert index_text("猫").split() == ["猫"]
    # CJK runs are separated from adjacent Latin text so both become their own tokens.
    assert index_text("GPU加速2020年").split() == ["GPU", "加速", "2020", "年"]
    assert index_text("plain English, unchanged.") == "plain English, unchanged."


@pytest.mark.parametrize("word, doc", [("防守", 1), ("联赛", 1), ("芝加哥", 2), ("校园", 2)])
def test_chinese_words_match(fts: sqlite3.Connection, word: str, doc: int) -> None:
    assert search(fts, word)[0] == doc


def test_chinese_question_ranks_its_paragraph_first(fts: sqlite3.Connection) -> None:
    assert search(fts, "黑豹队的防守丢了多少分？")[0] == 1
    assert search(fts, "芝加哥大学的校园外观是从哪一年代起变得更现代的？")[0] == 2


def test_single_chinese_character_matches_words_starting_with_it(fts: sqlite3.Connection) -> None:
    assert match_query("猫") == '"猫"*'
    assert set(search(fts, "猫")) == {5}


def test_mixed_script_token_is_split(fts: sqlite3.Connection) -> None:
    assert search(fts, "加速") == [4]
    assert search(fts, "gpu") == [4]


def test_english_exact_case_and_diacritics(fts: sqlite3.Connection) -> None:
    assert search(fts, "VITAMIN") == [3]
    assert search(fts, "cafe") == [6]
    assert search(fts, "naive") == [6]


def test_light_stemming_via_prefix(fts: sqlite3.Connection) -> None:
    # "cells" is searched as "cell"*, so the singular in the document matches.
    assert ("cell", True) in query_terms("cells")
    assert search(fts, "cells") == [3]
    assert search(fts, "settlement") == []  # "settlement" is not a prefix of "settled"
    assert search(fts, "settling") == [4]  # "settl"* matches "settled"


def test_stopwords_dropped_unless_only_stopwords() -> None:
    assert match_query("what is the effect of vitamin D") == '"effect"* OR "vitamin"* OR "d"'
    assert match_query("the of and") == '"the" OR "of" OR "and"'
    assert {"the", "of", "and", "is", "what"} <= ENGLISH_STOPWORDS
    # A stopword-only English part does not block Chinese terms.
    assert match_query("the 防守") == '"防守"'


def test_duplicate_terms_are_removed() -> None:
    assert match_query("防守 防守 vitamin Vitamin") == '"防守" OR "vitamin"*'


@pytest.mark.parametrize(
    "query",
    [
        '"',
        '""',
        '"unbalanced',
        "*",
        "a*",
        "AND",
        "OR NOT",
        "vitamin AND NOT cell",
        "NEAR(vitamin cell, 2)",
        "-vitamin",
        "body:vitamin",
        "{body}: x",
        "^start",
        "(((",
        "x OR",
        "'; DROP TABLE f; --",
        "\x00\x01\x02",
        "😀🎉",
        "e\u0301",
        "_",
        "a_b",
        "１２３",
        "黑豹队\"的*防守",
    ],
)
def test_hostile_queries_never_raise(fts: sqlite3.Connection, query: str) -> None:
    search(fts, query)  # must not raise sqlite3.OperationalError


def test_nothing_searchable_gives_none() -> None:
    for query in ["", "   ", "？！。", "!!! --- ***", "😀"]:
        assert match_query(query) is None


def test_operator_words_are_plain_terms(fts: sqlite3.Connection) -> None:
    assert match_query("NOT") == '"not"'
    assert search(fts, "NOT") == [4]  # "was not known then"


def test_cjk_ratio_and_heaviness() -> None:
    assert cjk_ratio("") == 0.0
    assert cjk_ratio("hello world") == 0.0
    assert cjk_ratio("黑豹队") == 1.0
    assert is_cjk_heavy("黑豹队的防守丢了多少分？")
    assert is_cjk_heavy("GPU加速的深度学习")
    assert not is_cjk_heavy("What does GPU mean? 加")


def test_index_text_is_fast() -> None:
    import time

    text = ("黑豹队的防守只丢了308分，在联赛中排名第六。Vitamin D deficiency. " * 12)[:500]
    start = time.perf_counter()
    for _ in range(2000):
        index_text(text)
    # 2,000 mixed 500-character chunks; generous bound for a loaded CI machine.
    assert time.perf_counter() - start < 2.0


def test_term_coverage_counts_terms_the_way_the_index_matches_them():
    from desktop_rag.engine.text.keyword import query_terms, term_coverage

    terms = query_terms("How hot should the water be when making green tea?")
    assert term_coverage(terms, "Water temperature matters when brewing coffee.") == pytest.approx(1 / len(terms))
    assert term_coverage(terms, "Making green tea: hot water, not boiling.") == 1.0
    assert term_coverage(query_terms("绿茶水温"), "冲泡绿茶的水温") == pytest.approx(2 / 3)
    assert term_coverage([], "anything") == 0.0


def test_term_spans_are_where_the_index_matches_each_term(fts: sqlite3.Connection) -> None:
    from desktop_rag.engine.text.keyword import term_spans

    text = "Cell, cells, cellular; an excellent Café, 小猫 and 猫咪 and 猫"
    terms = query_terms("cells cafe 猫 cat cats")
    assert terms == [("cell", True), ("cafe", True), ("猫", True), ("cat", False), ("cat", True)]
    spans = term_spans(terms, text)
    assert [(text[a:b], terms[i][0]) for a, b, i in spans] == [
        ("Cell", "cell"), ("cells", "cell"), ("cellular", "cell"), ("Café", "cafe"),
        ("猫", "猫"), ("猫", "猫")]  # "excellent" does not start with "cell"; the 猫 ending 小猫 starts no pair
    assert term_spans(query_terms("cat cats"), "a cat, cats") == [(2, 5, 0), (2, 5, 1), (7, 11, 1)]
    assert term_spans(query_terms("防守丢了"), "他们防守丢了") == [(2, 4, 0), (3, 5, 1), (4, 6, 2)]
    assert term_spans([], "anything") == []
    # the rows FTS5 matches are the rows with a span
    for query in ("cells", "猫", "cafe", "naive", "防守丢了", "vitamin D"):
        terms = query_terms(query)
        assert {i for i, t in DOCS.items() if term_spans(terms, t)} == set(search(fts, query)), query
