"""Fusion's rules at their edges (issue 48, from the mutation row's survivors): one passage found, a passage weighed by
the translation in its language, and the topic rule (fusion.topic_precedence) with ties, passages without a dense
score, the dense margin, languages known for one side only and the gloss's share of the lead."""

from __future__ import annotations

from desktop_rag.engine.search.fusion import convex_rule, fuse, topic_precedence
from desktop_rag.engine.search.question import Question, Version
from tests.support.fused import fused

EN, ZH = frozenset({"en"}), frozenset({"zh"})


def order(ranked: list[tuple[int, float]]) -> list[int]:
    return [cid for cid, _ in ranked]


def test_a_search_finding_one_passage_returns_it() -> None:
    assert order(fused([(7, 0.42)], [(7, 3.0)], 5, query="vitamin")) == [7]
    assert order(fused([], [(7, 3.0)], 5, query="vitamin")) == [7]


def test_a_passage_in_the_translation_s_language_weighs_its_cosine_as_that_translation_does() -> None:
    """An English question translated into Chinese, an English-only model: a Chinese passage's cosine is noise, so it
    weighs 0.2 (the Chinese version's dense weight), not the English question's 0.6, and the Chinese passage the
    keyword search matched best leads the one whose cosine is highest."""
    chinese = Version.of("英文词语")
    translated = Question("english words", Version.of("english words"), (("zh", chinese.text),), (chinese,))
    dense = [(1, 0.9), (3, 0.6), (2, 0.5)]
    keyword = [(2, 10.0), (1, 4.0), (3, 0.0)]
    written = {1: ZH, 2: ZH, 3: EN}
    assert order(fused(dense, keyword, 3, question=translated, dense_languages=EN, written=written))[0] == 2
    assert order(fused(dense, keyword, 3, query="english words", dense_languages=EN))[0] == 1  # untranslated


def test_without_given_shares_the_rule_weighs_by_the_query_s_script() -> None:
    dense, keyword = {1: 1.0, 2: 0.0}, {1: 0.3, 2: 1.0}  # 1: strong by meaning; 2: the keyword match

    def top(query: str) -> int:
        rule = convex_rule(dense, keyword, {}, (), query, EN)
        return fuse([(dense, rule.dense), (keyword, rule.keyword)], 2)[0][0]

    assert top("vitamin d and growth") == 1  # English: the model is trusted
    assert top("维生素与细胞生长") == 2  # Chinese, an English-only model: the keyword match leads


# ---- the topic rule ----


def test_an_off_topic_passage_keeps_its_place_above_passages_naming_no_term_either() -> None:
    dense = {1: 0.5, 2: 0.5, 3: 0.5}
    assert order(topic_precedence([(1, 0.9), (2, 0.8)], {1: 0.0, 2: None}, dense)) == [1, 2]  # 2 cannot be judged
    assert order(topic_precedence([(1, 0.9), (3, 0.8)], {1: 0.0, 3: 0.0}, dense)) == [1, 3]  # both off-topic


def test_a_tie_goes_to_the_passage_naming_a_topic_term() -> None:
    dense = {1: 0.5, 2: 0.5, 3: 0.5, 4: 0.5}
    assert order(topic_precedence([(1, 0.8), (2, 0.8)], {1: 0.0, 2: 1.0}, dense)) == [2, 1]
    # with the bonus off, an on-topic passage at the bottom (score 0) still goes above the off-topic one over it
    at_bottom = topic_precedence([(1, 0.9), (2, 0.8), (3, 0.3), (4, 0.0)], {1: 1.0, 2: 1.0, 3: 0.0, 4: 0.5}, dense,
                                 weight=0.0)
    assert order(at_bottom) == [1, 2, 4, 3]


def test_a_passage_without_a_dense_score_has_no_meaning_to_outrank_with() -> None:
    """Passages the keyword search alone found (no dense score): an off-topic one is held below, whatever the
    on-topic one's cosine; an off-topic one strong by meaning stays above an on-topic one found only by keyword."""
    ranked, coverage = [(1, 0.9), (2, 0.8)], {1: 0.0, 2: 1.0}
    assert order(topic_precedence(ranked, coverage, {2: 0.5})) == [2, 1]
    assert order(topic_precedence(ranked, coverage, {1: 0.9})) == [1, 2]


def test_an_off_topic_passage_stronger_by_exactly_the_margin_keeps_its_place() -> None:
    ranked, coverage = [(1, 0.9), (2, 0.8)], {1: 0.0, 2: 1.0}
    assert order(topic_precedence(ranked, coverage, {1: 1.0, 2: 0.75}, margin=0.25)) == [1, 2]
    assert order(topic_precedence(ranked, coverage, {1: 1.0, 2: 0.76}, margin=0.25)) == [2, 1]


def test_a_passage_whose_language_is_not_known_shares_every_language() -> None:
    ranked, coverage, dense = [(1, 0.9), (2, 0.8)], {1: 0.0, 2: 0.5}, {1: 0.5, 2: 0.5}
    assert order(topic_precedence(ranked, coverage, dense, written={1: EN})) == [2, 1]  # 2's language not known
    assert order(topic_precedence(ranked, coverage, dense, written={2: ZH})) == [2, 1]  # 1's language not known


def test_across_languages_the_off_topic_passage_yields_only_when_its_gloss_is_more_than_its_lead() -> None:
    """An English passage naming no rendering of the terms, 0.1 above a Chinese one naming every term (fused scores):
    a gloss part of 0.12 put it there (without it, it would be below), one of 0.08 did not."""
    ranked, coverage = [(1, 0.9), (3, 0.8)], {1: 0.0, 3: 1.0}
    dense, written = {1: 0.6, 3: 0.4}, {1: EN, 3: ZH}
    assert order(topic_precedence(ranked, coverage, dense, written=written, glossed={1: 0.12})) == [3, 1]
    assert order(topic_precedence(ranked, coverage, dense, written=written, glossed={1: 0.08})) == [1, 3]
