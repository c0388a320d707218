"""Extractive answers quote only what answers: no help text unless asked about the app, spans for the viewer."""

from __future__ import annotations

import dataclasses

from desktop_rag.config import resource_path
from desktop_rag.engine.answer.extractive import extractive_answer, quoted_answer
from desktop_rag.engine.ingest.tables import table_sections
from desktop_rag.engine.store.values import Hit

COFFEE = ("Water temperature matters more than most people think.\n\n"
          "A good starting ratio is one gram of coffee for every sixteen grams of water. Weigh both.")
HELP = ("Type a question in the chat box and press Enter. The answer cites its sources with numbers in\n"
        "square brackets, such as [1]. Click a number to see the passage it came from.")


def hit(n: int, text: str, path: str | None = None) -> Hit:
    return Hit(chunk_id=n, score=1.0, path=path or f"/docs/{n}.txt", page=None, heading="", text=text)


def help_hit(n: int) -> Hit:
    return hit(n, HELP, str(resource_path("samples", "getting-started.md")))


def test_the_apps_help_text_is_not_quoted_for_a_question_about_something_else():
    hits = [hit(1, COFFEE), hit(2, "Green tea wants water at about eighty degrees."), help_hit(3)]
    answer = extractive_answer("What ratio of coffee to water, with numbers in brackets?", hits)
    assert "sixteen grams of water. [1]" in answer
    assert "square brackets" not in answer and "[3]" not in answer


def test_the_help_text_answers_a_question_about_the_app():
    hits = [hit(1, COFFEE), help_hit(2)]
    assert "square brackets" in extractive_answer("How does Desktop RAG show the numbers of its sources?", hits)
    assert "square brackets" in extractive_answer("What numbers in brackets does the answer show?", [help_hit(1)])


def test_a_copy_of_the_help_text_elsewhere_is_an_ordinary_document():
    hits = [hit(1, COFFEE), hit(2, HELP, "/home/me/notes/getting-started.md")]
    assert "square brackets" in extractive_answer("What ratio of coffee, with numbers in square brackets?", hits)


def test_quoted_sentences_become_the_hits_focus_spans():
    hits = [hit(1, COFFEE), hit(2, "Nothing here about beans.")]
    text, focused = quoted_answer("What ratio of coffee to water?", hits)
    assert "sixteen grams" in text
    spans = focused[0].focus
    assert spans and all(0 <= a < b <= len(COFFEE) for a, b in spans)
    assert any(COFFEE[a:b] == "A good starting ratio is one gram of coffee for every sixteen grams of water."
               for a, b in spans)
    assert focused[1].focus == () and dataclasses.replace(focused[0], focus=()) == hits[0]


def test_a_wrapped_sentence_is_found_across_its_line_break():
    wrapped = "Intro line.\n\nThe ideal range for brewing is between\n90 and 96 degrees Celsius."
    _, focused = quoted_answer("What is the ideal brewing range in degrees?", [hit(1, wrapped)])
    (a, b), = focused[0].focus
    assert wrapped[a:b] == "The ideal range for brewing is between\n90 and 96 degrees Celsius."


def _by_length(question: str, sentences: list[str]) -> list[float]:
    """A stand-in meaning score: the sentence's length in characters over 100 (deterministic, ordered)."""
    return [len(s) / 100 for s in sentences]


def test_an_other_language_sentence_far_below_the_best_is_not_quoted():
    best = "咖啡粉和水的比例通常是一比十六，冲泡前请称量咖啡粉和水的重量，这样味道会更加稳定一些。"
    near = "咖啡粉和水的比例可以按个人口味调整，但一比十五到一比十七之间最常见，也最为容易掌握。"  # 0.01 below
    far = "绿茶适合用八十度左右的水冲泡。"
    question = "What ratio of coffee to water should I use?"
    both = extractive_answer(question, [hit(1, best), hit(2, near)], similarity=_by_length)
    assert "[1]" in both and "[2]" in both  # within another passage's margin: both passages speak
    answer = extractive_answer(question, [hit(1, best), hit(2, far)], similarity=_by_length)
    assert "[1]" in answer and "[2]" not in answer  # 0.28 below the best: dropped


def test_a_sentence_quoted_after_a_table_row_is_lit_too():
    rows = [["职务", "报销类型", "一线城市报销标准（元）"], ["普通员工", "住宿费", "500"], ["部门主管", "住宿费", "600"]]
    (table,) = table_sections(rows, max_chars=500, heading_path=("Sheet1",))
    prose = "部门主管出差时，住宿费标准一律按照每晚六百元报销。"
    text, focused = quoted_answer("部门主管在一线城市的住宿费标准是多少？", [hit(1, table.text), hit(2, prose)])
    assert text.splitlines() == ["- 职务: 部门主管; 报销类型: 住宿费; 一线城市报销标准（元）: 600 [1]", f"- {prose} [2]"]
    assert [table.text[a:b] for a, b in focused[0].focus] == ["| 部门主管 | 住宿费 | 600 |"]
    assert focused[1].focus == ((0, len(prose)),)
