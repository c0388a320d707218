"""How much of a query the embedding model covers, by script: Latin, CJK, other alphabets, declared codes."""

from __future__ import annotations

import pytest

from desktop_rag.engine.search.fusion import dense_coverage

EN, ZH, RU = frozenset({"en"}), frozenset({"zh"}), frozenset({"ru"})


def test_a_query_without_letters_counts_as_latin():
    assert [dense_coverage(q, EN) for q in ("", "?!")] == [1.0, 1.0]
    assert [dense_coverage(q, ZH) for q in ("", "?!")] == [0.0, 0.0]
    assert dense_coverage("?!", RU) == 0.0


def test_language_codes_with_regions_and_everything_codes():
    assert dense_coverage("中文问题", frozenset({"zh_CN"})) == 1.0
    assert dense_coverage("中文问题", frozenset({"zh-Hans"})) == 1.0
    assert dense_coverage("中文问题", frozenset({"multilingual"})) == 1.0
    assert dense_coverage("中文问题", None) == 1.0


def test_other_alphabets_and_the_latin_boundary():
    assert dense_coverage("привет", RU) == 1.0 and dense_coverage("привет", EN) == 0.0
    assert dense_coverage("a", EN) == 1.0 and dense_coverage("7", EN) == 1.0
    assert dense_coverage("\u024f", EN) == 1.0  # the last Latin Extended-B letter
    assert dense_coverage("\u0250", EN) == 0.0 and dense_coverage("\u0250", RU) == 1.0  # IPA: another alphabet
    assert dense_coverage("abc привет", EN) == pytest.approx(3 / 9)
    assert dense_coverage("abc привет", RU) == pytest.approx(6 / 9)


def test_shares_of_a_mixed_query_add_up():
    for query in ("中文abc", "绿茶 green tea", "水温 90"):
        assert dense_coverage(query, EN) + dense_coverage(query, ZH) == pytest.approx(1.0), query
        assert 0.0 < dense_coverage(query, ZH) < 1.0
