"""Cleaning: control characters, page numbers, repeated headers/footers and broken lines."""

from __future__ import annotations

import time

import pytest

from desktop_rag.engine.ingest.cleaning import (
    clean_pages,
    clean_text,
    is_page_number_line,
    join_broken_lines,
    normalize_text,
    strip_repeated_lines,
)


def test_normalize_text() -> None:
    raw = "a\r\nb\rc\x00\x07d\u200b e   f\t g\u00a0\u00a0h\n\n\n\n  i  \n\x0c"
    assert normalize_text(raw) == "a\nb\ncd e f g h\n\ni"


def test_normalize_keeps_code_indentation() -> None:
    raw = "text   here\n```\n    indented  code\n```"
    assert normalize_text(raw) == "text here\n```\n    indented  code\n```"


@pytest.mark.parametrize(
    "line",
    ["12", " 7 ", "- 12 -", "— 3 —", "Page 3", "page 3 of 10", "PAGE 3 OF 10", "3 / 10", "p. 4",
     "第 3 页", "第3页", "第3页 共10页", "第 3 页，共 10 页", "第三页", "iv", "- xii -"],
)
def test_page_number_lines(line: str) -> None:
    assert is_page_number_line(line)


@pytest.mark.parametrize(
    "line",
    ["", "12 apples", "Page three is here", "1.2 Install", "第3章", "civil", "I", "2024年", "Chapter 3"],
)
def test_not_page_number_lines(line: str) -> None:
    assert not is_page_number_line(line)


BODIES = ["Apples grow on trees.", "Bananas are yellow.", "Cherries are red.", "Dates are sweet.",
          "Elderberries make jam."]


def _pages(n: int) -> list[str]:
    return [
        f"ACME Report {2020 + i}\n{BODIES[i]}\nSee {BODIES[(i + 1) % 5]}\nConfidential - page {i + 1}"
        for i in range(n)
    ]


def test_repeated_headers_and_footers_removed() -> None:
    out = strip_repeated_lines(_pages(5))
    for i, page in enumerate(out):
        assert page == f"{BODIES[i]}\nSee {BODIES[(i + 1) % 5]}"


def test_repeated_lines_need_enough_pages() -> None:
    pages = _pages(2)
    assert strip_repeated_lines(pages) == pages  # fewer than 3 pages: nothing is a header
    pages = _pages(5)
    pages[0] = "Only here header\n" + pages[0]
    pages[1] = "Only here header\n" + pages[1]
    out = strip_repeated_lines(pages)
    assert out[0].startswith("Only here header")  # on 2 of 5 pages: not a header


def test_repeated_line_in_the_middle_is_kept() -> None:
    pages = [f"Top {i}\nx{i}\nSame middle line\ny{i}\nBottom {i}w" for i in range(4)]
    pages = [p.replace(f"Top {i}", f"Top {'abcd'[i]}") for i, p in enumerate(pages)]
    out = strip_repeated_lines(pages)
    assert all("Same middle line" in p for p in out)


def test_clean_pages_pipeline() -> None:
    pages = [f"Handbook\nFirst line of sentence {w} that\ngoes on to {w}.\n- {i + 1} -" for i, w in enumerate("abc")]
    assert clean_pages(pages) == [f"First line of sentence {w} that goes on to {w}." for w in "abc"]


def test_join_english_and_hyphenation() -> None:
    text = "The quick brown fox jumps over\nthe lazy dog. It is an exam-\nple of text.\nNew Sentence here."
    assert join_broken_lines(text) == (
        "The quick brown fox jumps over the lazy dog. It is an example of text.\nNew Sentence here."
    )


def test_join_chinese_without_space() -> None:
    text = "知识库可以帮助我们\n快速找到答案。\n下一句开始了，\n然后继续。"
    assert join_broken_lines(text) == "知识库可以帮助我们快速找到答案。\n下一句开始了，然后继续。"


def test_headings_and_structure_are_not_joined() -> None:
    text = (
        "# Setup\nlowercase after a markdown heading\n"
        "1.2 Install\nthe steps follow\n"
        "第一章 概述\n本章介绍系统\n"
        "Short heading\n\nlowercase paragraph after a blank line\n"
        "- list item one\n- list item two\n"
        "Part | Count\nbolt | 4\n"
        "```\ncode line\nmore code\n```"
    )
    assert join_broken_lines(text) == text


def test_sentence_end_stops_join() -> None:
    assert join_broken_lines("Done.\nthen more") == "Done.\nthen more"
    assert join_broken_lines("完成。\n接着") == "完成。\n接着"


def test_clean_text_keeps_paragraphs() -> None:
    text = "Para one line\ncontinues.\n\n\n\nPara two.\r\n"
    assert clean_text(text) == "Para one line continues.\n\nPara two."
    assert clean_text("Page 2\nBody", page_numbers=True) == "Body"
    assert clean_text("Page 2\nBody") == "Page 2\nBody"


def test_joining_many_lines_is_linear() -> None:
    text = "知识库可以回答关于文档的问题，检索系统在本地运行\n" * 100_000 + "word wrapped\nline\n" * 50_000
    t0 = time.perf_counter()
    out = join_broken_lines(text)
    assert time.perf_counter() - t0 < 2.0
    assert out.count("\n") < 10
