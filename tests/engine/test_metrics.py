"""The retrieval metrics `desktop-rag eval` and bench/ report (review/metrics.py), against figures worked out by
hand: binary-relevance nDCG@k with the BEIR/trec_eval discount, recall@k, precision@k, and documents ranked by
their best chunk."""

from __future__ import annotations

import math

import pytest

from desktop_rag.engine.review.metrics import docs_by_max_score, ndcg_at, precision_at, recall_at


def _dcg(ranks: list[int]) -> float:
    """DCG of relevant documents at these 1-based ranks."""
    return sum(1 / math.log2(rank + 1) for rank in ranks)


def test_ndcg_with_more_relevant_documents_than_k_is_one_for_a_perfect_list():
    """Twenty relevant documents, the first ten places all relevant: the ideal list can hold only ten of them."""
    relevant = {f"d{i}" for i in range(20)}
    ranked = [f"d{i}" for i in range(10)]
    assert ndcg_at(ranked, relevant, 10) == pytest.approx(1.0)
    assert ndcg_at([*ranked[:9], "x"], relevant, 10) == pytest.approx(_dcg(list(range(1, 10))) / _dcg(
        list(range(1, 11))))


def test_ndcg_by_hand():
    ranked = ["a", "x", "b", "y", "c"]
    relevant = {"a", "b", "c", "z"}
    assert ndcg_at(ranked, relevant, 5) == pytest.approx(_dcg([1, 3, 5]) / _dcg([1, 2, 3, 4]))
    assert ndcg_at(ranked, relevant, 3) == pytest.approx(_dcg([1, 3]) / _dcg([1, 2, 3]))  # only the first 3 count
    eleventh = [f"x{i}" for i in range(10)] + ["a"]
    assert ndcg_at(eleventh, relevant) == 0.0 and ndcg_at(eleventh, relevant, 11) > 0  # k defaults to 10
    assert ndcg_at(["x", "a"], {"a"}, 2) == pytest.approx(1 / math.log2(3))
    assert ndcg_at(["a"], {"a"}, 1) == 1.0


def test_ndcg_of_nothing_relevant_or_nothing_ranked_is_zero():
    assert ndcg_at(["a", "b"], set(), 10) == 0.0
    assert ndcg_at([], {"a"}, 10) == 0.0
    assert ndcg_at(["a"], {"a"}, 0) == 0.0


def test_recall_counts_the_relevant_ids_in_the_first_k():
    relevant = {"a", "b", "c", "d"}
    assert recall_at(["a", "x", "b", "c"], relevant, 3) == pytest.approx(0.5)
    assert recall_at(["a", "x", "b", "c"], relevant, 4) == pytest.approx(0.75)
    assert recall_at(["a", "a", "a"], relevant, 3) == pytest.approx(0.25)  # a repeated id counts once
    assert recall_at(["a"], set(), 5) == 0.0


def test_precision_counts_empty_places_as_not_relevant():
    relevant = {"a", "b"}
    assert precision_at(["a", "x", "b"], relevant, 2) == pytest.approx(0.5)
    assert precision_at(["a", "b"], relevant, 5) == pytest.approx(0.4)  # 2 of 5 places, 3 of them empty
    assert precision_at(["a", "b"], relevant, 0) == 0.0


def test_documents_are_ranked_by_their_best_chunk():
    hits = [("d1", 0.5), ("d2", 0.9), ("d1", 0.95), ("d3", 0.1), ("d2", 0.2)]
    assert docs_by_max_score(hits) == ["d1", "d2", "d3"]
    assert docs_by_max_score([("d1", 0.3), ("d2", 0.3), ("d1", 0.3)]) == ["d1", "d2"]  # ties keep first-seen order
    assert docs_by_max_score([]) == []
