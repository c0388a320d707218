"""Tests for hybrid fusion: weighting, language coverage, edge cases and score range, through the signals as
search declares them (signals.SIGNALS: each one's evidence and weight, summed by fusion.fuse)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from desktop_rag.engine.search import signals
from desktop_rag.engine.search.fusion import (
    COVERED_DENSE_WEIGHT,
    GLOSS_WEIGHT,
    TOPIC_WEIGHT,
    UNCOVERED_DENSE_WEIGHT,
    dense_coverage,
    dense_weight,
    topic_precedence,
)
from desktop_rag.engine.search.question import Question, Version, plain
from desktop_rag.engine.store.values import Hit
from desktop_rag.engine.text.topics import Topic, Topics
from tests.support.fused import fused

EN = frozenset({"en"})


def flat_noise(ids: range, seed: int = 0) -> list[tuple[int, float]]:
    """Dense results that carry no signal: cosines packed in a narrow band, random order."""
    rng = random.Random(seed)
    hits = [(i, 0.50 + rng.uniform(-0.03, 0.03)) for i in ids]
    return sorted(hits, key=lambda h: -h[1])


def test_strong_keyword_hit_stays_on_top_when_dense_is_noise_on_chinese() -> None:
    dense = flat_noise(range(100, 200))
    dense.insert(50, (7, 0.49))  # the right chunk is mid-pack for the English-only model
    keyword = [(7, 30.0), (8, 9.0), (9, 8.5), (10, 8.0), (11, 7.9)]
    out = fused(dense, keyword, 10, query="黑豹队的防守丢了多少分？", dense_languages=EN)
    assert out[0][0] == 7
    assert out[0][1] >= 0.8 and out[0][1] - out[1][1] >= 0.5  # clearly ahead of the noise


def test_multilingual_model_gets_full_weight_on_chinese() -> None:
    query = "黑豹队的防守丢了多少分？"
    assert dense_weight(query, None) == pytest.approx(COVERED_DENSE_WEIGHT)
    assert dense_weight(query, frozenset({"zh", "en"})) == pytest.approx(COVERED_DENSE_WEIGHT)
    assert dense_weight(query, frozenset({"multilingual"})) == pytest.approx(COVERED_DENSE_WEIGHT)
    assert dense_weight(query, EN) == pytest.approx(UNCOVERED_DENSE_WEIGHT)
    # With a model that covers Chinese, a confident dense hit can beat keyword's pick.
    dense = [(1, 0.85), (2, 0.40), (3, 0.38), (4, 0.37)]
    keyword = [(2, 10.0), (1, 5.0), (5, 2.0)]
    assert fused(dense, keyword, 3, query=query, dense_languages=frozenset({"zh"}))[0][0] == 1
    assert fused(dense, keyword, 3, query=query, dense_languages=EN)[0][0] == 2


def test_dense_coverage_follows_query_script() -> None:
    assert dense_coverage("vitamin D and cell growth", EN) == pytest.approx(1.0)
    assert dense_coverage("维生素D与细胞生长", EN) < 0.2
    assert dense_coverage("维生素D与细胞生长", frozenset({"zh-CN"})) > 0.8
    assert dense_coverage("", EN) == pytest.approx(1.0)
    assert dense_coverage("что такое витамин", EN) == pytest.approx(0.0)
    assert dense_coverage("что такое витамин", frozenset({"ru"})) == pytest.approx(1.0)
    mixed = dense_weight("GPU 加速", EN)
    assert UNCOVERED_DENSE_WEIGHT < mixed < COVERED_DENSE_WEIGHT


def test_english_query_uses_both_retrievers() -> None:
    dense = [(1, 0.80), (2, 0.75), (3, 0.30)]
    keyword = [(2, 12.0), (4, 11.0), (1, 2.0)]
    out = dict(fused(dense, keyword, 10, query="vitamin d", dense_languages=EN))
    assert max(out, key=out.get) == 2  # high in both lists beats high in one
    assert set(out) == {1, 2, 3, 4}


def test_dense_only_hits_survive_when_keyword_finds_nothing() -> None:
    dense = [(5, 0.71), (6, 0.64), (7, 0.60)]
    for langs in (EN, None):
        out = fused(dense, [], 2, query="一个没有关键词命中的问题", dense_languages=langs)
        assert [cid for cid, _ in out] == [5, 6]
        assert out[0][1] == pytest.approx(1.0)


def test_keyword_only_when_vectors_are_pending() -> None:
    out = fused([], [(3, 5.0), (4, 1.0)], 5, query="vitamin")
    assert out == [(3, pytest.approx(1.0)), (4, pytest.approx(0.0))]


def test_empty_inputs_and_k() -> None:
    assert fused([], [], 10) == []
    assert fused([(1, 0.5)], [(1, 3.0)], 0) == []
    assert fused([(1, 0.5)], [(2, 3.0)], -1) == []


def test_output_is_bounded_sorted_and_at_most_k() -> None:
    rng = random.Random(1)
    dense = sorted(((i, rng.uniform(-0.2, 0.9)) for i in range(60)), key=lambda h: -h[1])
    keyword = sorted(((i, rng.uniform(0.1, 40.0)) for i in range(30, 120)), key=lambda h: -h[1])
    out = fused(dense, keyword, 25, query="some english words")
    assert len(out) == 25
    scores = [s for _, s in out]
    assert scores == sorted(scores, reverse=True)
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert len({cid for cid, _ in out}) == 25


def test_ties_are_deterministic_and_flat_lists_do_not_divide_by_zero() -> None:
    dense = [(1, 0.5), (2, 0.5), (3, 0.5)]
    keyword = [(3, 2.0), (2, 2.0), (1, 2.0)]
    out = fused(dense, keyword, 3)
    assert [s for _, s in out] == [pytest.approx(1.0)] * 3
    assert [cid for cid, _ in out] == [1, 2, 3]  # first appearance wins a tie
    assert fused(dense, keyword, 3) == out


def test_duplicates_and_non_finite_scores_are_ignored() -> None:
    dense = [(1, 0.9), (1, 0.1), (2, float("nan")), (3, 0.2)]
    out = fused(dense, [], 10)
    assert [cid for cid, _ in out] == [1, 3]


# ---- across languages (a multilingual model) ----


def test_other_language_candidates_are_ranked_by_meaning_alone():
    """An English question over Chinese passages: keyword hits on stray numbers must not outrank meaning."""
    dense = [(1, 0.86), (3, 0.855), (2, 0.80)]  # 1 is the right Chinese paragraph
    keyword = [(3, 9.0), (2, 2.0)]  # "1990" matched in the wrong paragraphs
    plain = fused(dense, keyword, 3, query="What happened in 1990?", dense_languages=None)
    assert plain[0][0] == 3  # what the old fusion did
    crossed = fused(dense, keyword, 3, query="What happened in 1990?", dense_languages=None, other_language=[1, 2, 3])
    assert [cid for cid, _ in crossed] == [1, 3, 2]
    assert crossed[0][1] == pytest.approx(1.0)


def test_other_language_rule_needs_a_multilingual_model():
    dense = [(1, 0.86), (2, 0.84), (3, 0.80)]
    keyword = [(3, 9.0), (2, 2.0)]
    english_only = fused(dense, keyword, 3, query="What happened in 1990?", dense_languages=EN,
                         other_language=[1, 2, 3])
    assert english_only == fused(dense, keyword, 3, query="What happened in 1990?", dense_languages=EN)


def test_partial_keyword_match_is_scaled_by_coverage_in_a_mixed_pool():
    """The samples case: the coffee guide matched only "water"; the Chinese tea passage matches by meaning."""
    dense = [(10, 0.857), (20, 0.850), (30, 0.70)]  # coffee, tea (Chinese), other
    keyword = [(10, 4.4), (30, 1.1)]
    query = "How hot should the water be when making green tea?"
    hits = {10: Hit(10, 0.0, "coffee.md", None, "Coffee", "Pour the water just off the boil."),
            20: Hit(20, 0.0, "tea.md", None, "绿茶", "绿茶用八十度左右的水冲泡。"),
            30: Hit(30, 0.0, "tank.md", None, "", "The water tank holds ten litres.")}
    unscaled = fused(dense, keyword, 3, query=query, dense_languages=EN, other_language=[20], hits=hits)
    assert unscaled[0][0] == 10  # an English-only model: the mixed-pool rule does not apply
    scaled = fused(dense, keyword, 3, query=query, dense_languages=None, other_language=[20], hits=hits)
    assert scaled[0][0] == 20  # "water" is one of the question's five terms: the coffee guide's keyword 1.0 x 0.2
    assert dict(scaled)[10] == pytest.approx(COVERED_DENSE_WEIGHT + (1 - COVERED_DENSE_WEIGHT) * 0.2)


def test_a_passage_in_a_translation_s_language_is_weighed_by_that_translation():
    dense = [(1, 0.9), (2, 0.5)]
    keyword = [(2, 5.0), (1, 1.0)]
    default = dict(fused(dense, keyword, 2, query="english words", dense_languages=EN))
    chinese = Version.of("英文词语")
    translated = Question("english words", Version.of("english words"), (("zh", chinese.text),), (chinese,))
    weighted = dict(fused(dense, keyword, 2, question=translated, dense_languages=EN,
                          written={1: frozenset({"en"}), 2: frozenset({"zh"})}))
    assert weighted[1] == pytest.approx(default[1])  # English: the question's own weight
    assert weighted[2] == pytest.approx(1 - UNCOVERED_DENSE_WEIGHT) and weighted[2] > default[2]  # the Chinese one's


def test_a_dictionary_gloss_lifts_the_other_language_passage_it_matches() -> None:
    dense = [(1, 0.82), (2, 0.80), (3, 0.70), (4, 0.60)]  # 1-3 in the other language, 4 in the question's
    keyword = [(4, 5.0)]
    plain = fused(dense, keyword, 4, other_language=[1, 2, 3])
    assert plain[0][0] == 1  # dense alone: 1 above 2
    glossed = fused(dense, keyword, 4, other_language=[1, 2, 3], glossed={2: 1.0, 4: 1.0, 9: 0.5})
    scores = dict(glossed)
    assert glossed[0][0] == 2  # the gloss matched passage 2: it now leads the other-language ones
    assert scores[2] == pytest.approx((1 - GLOSS_WEIGHT) * dict(plain)[2] + GLOSS_WEIGHT)
    assert scores[4] == dict(plain)[4]  # a same-language passage's score ignores the gloss
    assert 9 not in scores  # a gloss match is evidence only for passages known to be in the other language


def test_without_a_gloss_match_other_language_passages_keep_their_dense_score() -> None:
    dense = [(1, 0.9), (2, 0.5)]
    assert fused(dense, [], 2, other_language=[1, 2], glossed={}) == fused(dense, [], 2, other_language=[1, 2])
    assert fused(dense, [], 2, other_language=[1, 2])[0] == (1, 1.0)


def test_with_an_english_only_model_the_gloss_is_an_other_language_passage_s_keyword_score() -> None:
    dense = [(1, 0.9), (2, 0.3), (3, 0.2)]  # 1 and 2 Chinese (MiniLM's cosines there are noise), 3 English
    keyword = [(3, 4.0), (9, 1.0)]
    scores = dict(fused(dense, keyword, 5, query="green tea", dense_languages=EN, other_language=[1, 2],
                        glossed={2: 1.0}))
    d2 = (0.3 - 0.2) / (0.9 - 0.2)
    assert scores[2] == pytest.approx(UNCOVERED_DENSE_WEIGHT * d2 + (1 - UNCOVERED_DENSE_WEIGHT) * 1.0)
    assert scores[2] > scores[1]  # the passage the gloss found beats the one only noise put first
    alone = dict(fused(dense, keyword, 5, query="green tea", dense_languages=EN, other_language=[1, 2]))
    assert scores[3] == alone[3] and scores[1] == alone[1]  # the others score as before


def test_a_passage_naming_no_topic_term_ranks_below_one_naming_them_unless_far_stronger():
    """Issue 50 item 4, the topic signal: for "绿茶用多少度的水？" the coffee guide (first in both lists: dense 0.747,
    its words) ranked above the green-tea guide (0.714); it names no topic term, so it now stays below unless its
    normalised dense score is TOPIC_DENSE_MARGIN higher. A passage that cannot be judged on the terms counts half."""
    topics = Topics((Topic("绿茶", ("green tea",), 2.0), Topic("龙井", (), 1.0)))
    question = dataclasses.replace(plain("绿茶用多少度的水？"), topics=topics)
    hits = {1: Hit(1, 0.0, "coffee.txt", None, "Coffee", "Brew coffee with water between 90 and 96 degrees."),
            2: Hit(2, 0.0, "tea.md", None, "绿茶", "冲泡绿茶的水温一般在八十度左右。"),
            3: Hit(3, 0.0, "notes.txt", None, "", "Notes on water.")}
    keyword = [(1, 5.0), (2, 4.0)]

    def ranked(dense, asked=question):
        pool = signals.Pool(asked, {"dense": dense, "keyword": keyword, "gloss": []}, None, hits, {}, frozenset())
        return signals.fused(pool, 3)

    close = [(1, 0.747), (2, 0.714), (3, 0.30)]
    assert [cid for cid, _ in ranked(close, plain("绿茶用多少度的水？"))] == [1, 2, 3]  # no topic terms: as before
    out = ranked(close)
    assert [cid for cid, _ in out] == [2, 1, 3] and all(0.0 <= s <= 1.0 for _, s in out)
    before = dict(ranked(close, plain("绿茶用多少度的水？")))
    assert dict(out)[2] == pytest.approx((before[2] + TOPIC_WEIGHT * 2 / 3) / (1 + TOPIC_WEIGHT))  # 绿茶, not 龙井
    longjing = dataclasses.replace(question, topics=Topics((Topic("龙井", (), 1.0),)))  # English text: not judged
    assert dict(ranked(close, longjing))[3] == pytest.approx((before[3] + TOPIC_WEIGHT / 2) / (1 + TOPIC_WEIGHT))
    far = [(1, 0.90), (2, 0.35), (3, 0.30)]  # the coffee guide far stronger by meaning: it keeps its place
    assert [cid for cid, _ in ranked(far)][0] == 1


def test_across_languages_an_off_topic_passage_yields_only_to_one_naming_every_term_that_its_gloss_lifted_it_over():
    """Issue 50: the English paragraph of a Chinese question ("公民不服从", rendered "citizen"; the paragraph says
    "civil disobedience") counted as off-topic and was held below every Chinese passage naming a term, so it left
    the top 10 (the bilingual library's zh questions, other-language Recall@10 0.967 -> 0.954). Across languages it
    now yields only to a passage naming every topic term, and only when its gloss score alone put it above."""
    fused = [(1, 0.9), (3, 0.8), (2, 0.7)]  # 1: English, names no rendering; 3: Chinese, every term; 2: some terms
    coverage = {1: 0.0, 2: 0.5, 3: 1.0}
    dense = {1: 0.6, 2: 0.5, 3: 0.4}
    written = {1: frozenset({"en"}), 2: frozenset({"zh"}), 3: frozenset({"zh"})}
    assert [c for c, _ in topic_precedence(fused, coverage, dense)] == [3, 2, 1]  # one language: below both
    assert [c for c, _ in topic_precedence(fused, coverage, dense, written=written)] == [1, 3, 2]  # its meaning
    lifted = topic_precedence(fused, coverage, dense, written=written, glossed={1: 0.25})
    assert [c for c, _ in lifted] == [3, 1, 2]  # the gloss alone put it over the passage naming every term
    same = {1: frozenset({"en"}), 2: frozenset({"en"}), 3: frozenset({"zh"})}
    assert [c for c, _ in topic_precedence(fused, coverage, dense, written=same)] == [3, 2, 1]  # below 2 (English)
