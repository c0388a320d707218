"""When two questions are the same question (text/questions.py), and the metrics `eval` and bench share."""

from __future__ import annotations

import pytest

from desktop_rag.engine.review.metrics import ndcg_at, precision_at, recall_at
from desktop_rag.engine.text.questions import REPHRASED, is_doubt, normalised_question, similarity


def test_normalised_questions():
    assert normalised_question("  How HOT is the   water? ") == normalised_question("how hot is the water")
    assert normalised_question("“新办公室在哪里？”") == "新办公室在哪里"
    assert normalised_question("ＡＢＣ？") == "abc"  # full width folded


@pytest.mark.parametrize("text", ["Are you sure?", "are you certain", "Really?", "Is that right?",
                                  "That's wrong.", "你确定吗？", "确定吗", "真的吗？", "不对", "你错了！"])
def test_doubts(text):
    assert is_doubt(text)


@pytest.mark.parametrize("text", ["Are you sure the office moves on Monday and not on Tuesday of next week, "
                                  "given the notice?", "What is really important here?", "不对称加密是什么？",
                                  "Is that right angle 90 degrees?", "How hot is the water?"])
def test_not_doubts(text):
    assert not is_doubt(text)


def test_rephrasings():
    assert similarity("How hot should the water be for green tea?", "how hot should the water be for green tea") == 1
    assert similarity("How hot should the water be for green tea?",
                      "What water temperature for green tea? How hot?") >= REPHRASED
    assert similarity("How hot should the water be for green tea?", "When do the buses run?") < REPHRASED
    assert similarity("绿茶用多少度的水冲泡？", "绿茶用多少度的水冲泡比较好") >= REPHRASED


def test_metrics():
    ranked = ["a", "x", "b", "y", "z", "c"]
    assert recall_at(ranked, {"a", "b", "c"}, 5) == pytest.approx(2 / 3)
    assert precision_at(ranked, {"a", "b", "c"}, 5) == pytest.approx(2 / 5)
    assert precision_at(["a"], {"a"}, 5) == pytest.approx(1 / 5)  # an empty place is not relevant
    assert ndcg_at(["a"], {"a"}, 10) == 1.0 and ndcg_at(["x", "a"], {"a"}, 10) == pytest.approx(0.6309, abs=1e-4)
