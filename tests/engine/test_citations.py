"""Citation parsing and cleaning: ASCII, grouped, adjacent and full-width markers."""

from __future__ import annotations

from desktop_rag.engine.answer.citations import clean_citations


def cited(text: str) -> list[int]:
    """Every cited number in order of first use (clean_citations' second part, all numbers valid)."""
    return clean_citations(text, 10_000)[1]


def test_find_in_first_use_order_without_duplicates():
    text = "B is true [2]. A is true [1][2]. Both [3, 1]. 中文【4】和［5］。Range [6-8]."
    assert cited(text) == [2, 1, 3, 4, 5, 6, 7, 8]


def test_find_ignores_years_links_and_plain_brackets():
    assert cited("In [2023] see [docs](http://x) and [1](http://y) or [a] [ ]") == []


def test_clean_removes_only_invalid_numbers():
    text, cited = clean_citations("Paris is big [1]. It is old [7]. Both [1, 9] and [2][3].", 2)
    assert text == "Paris is big [1]. It is old. Both [1] and [2]."
    assert cited == [1, 2]


def test_clean_full_width_and_chinese_separators():
    text, cited = clean_citations("巴黎很大【1、3】。历史悠久【2】【5】。", 2)
    assert text == "巴黎很大[1]。历史悠久[2]。"
    assert cited == [1, 2]


def test_clean_zero_and_no_passages():
    assert clean_citations("Nothing [0] here [1].", 0) == ("Nothing here.", [])


def test_clean_keeps_text_without_citations():
    assert clean_citations("No citations at all.", 3) == ("No citations at all.", [])


def test_clean_order_is_first_use():
    assert clean_citations("x [3] y [1] z [3]", 3)[1] == [3, 1]


def test_ranges_expand_only_when_short_and_ascending():
    assert cited("[2-2] [4-1] [5~7]") == [2, 4, 1, 5, 6, 7]  # a backwards range: its two ends
    assert cited("[1-21]") == list(range(1, 22))  # 20 apart: expanded
    assert cited("[1-22]") == [1, 22]  # longer: a typo or a year-like span, not 22 citations
    assert cited("[1-2, 5]") == [1, 2, 5]  # parts after a range are read too


def test_clean_normalises_groups_and_removes_a_marker_without_a_space():
    assert clean_citations("See [1, 2] and [2–3].", 3) == ("See [1][2] and [2][3].", [1, 2, 3])
    assert clean_citations("Old[7].", 2) == ("Old.", [])


def test_a_footnote_marker_is_a_citation():
    """A model writing Markdown footnotes ([^1]) got "[^1]" shown as it was, never a link, and [^7] of two passages kept."""
    assert clean_citations("Tea [^1] and coffee [^2][^7].", 2) == ("Tea [1] and coffee [2].", [1, 2])
