"""The sources panel's highlighter marks what keyword search matched; escaping, Chinese, hostile queries."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextDocument

from desktop_rag.engine.text.keyword import query_terms
from desktop_rag.engine.text.terms import fold
from desktop_rag.gui.text import highlight_html
from tests.support.highlight import highlighted_runs, marked_occurrences, retrieval_matched_words


def marked(text: str, query: str) -> tuple[list[str], str]:
    """The runs a user sees marked, and the plain text shown, once the highlighter's HTML is rendered."""
    document = QTextDocument()
    document.setHtml(highlight_html(text, query))
    return highlighted_runs(document), document.toPlainText()


def test_query_words_are_marked_everywhere_and_stop_words_never(qapp):
    runs, shown = marked("The Water temperature matters. Boil the water, then wait for the water to cool.",
                         "What is the water temperature?")
    assert runs == ["Water", "temperature", "water", "water"]  # case-insensitive, every occurrence
    assert shown == "The Water temperature matters. Boil the water, then wait for the water to cool."
    assert query_terms("What is the water temperature?") == [("water", True), ("temperature", True)]


def test_only_whole_words_are_marked(qapp):
    runs, _ = marked("Start the art class; artists and smart art lovers.", "art")
    assert runs == ["art", "art"]


def test_chinese_query_marks_character_pairs(qapp):
    assert [t for t, _ in query_terms("绿茶水温")] == ["绿茶", "茶水", "水温"]
    runs, _ = marked("冲泡绿茶的水温一般在八十度左右。", "绿茶水温是多少？")
    assert runs == ["绿茶", "水温"]
    # a lone character is a prefix term: it matches the pairs it starts ("茶叶") and itself alone, but the
    # index holds no pair starting with the "茶" that ends "红茶", so the search never matched that one
    mark = '<span style="background-color:#ffe082;">茶</span>'
    assert highlight_html("红茶。茶叶。茶", "茶") == f"红茶。{mark}叶。{mark}"


def test_passage_html_is_escaped_and_terms_inside_markup_stay_text(qapp):
    text = 'Use <b>bold</b> & <script>alert("tea")</script> for tea'
    out = highlight_html(text, "tea bold")
    assert "<script" not in out and "<b>" not in out and "&amp;" in out
    runs, shown = marked(text, "tea bold")
    assert shown == text  # what the document said, literally
    assert runs == ["bold", "tea", "tea"]


@pytest.mark.parametrize("query", [".*", "(", "\\b", "?", "", "the of"])
def test_hostile_or_empty_queries_mark_nothing_and_never_fail(qapp, query):
    runs, shown = marked("Plain text (with brackets) [a-z]+ and .* symbols.", query)
    assert runs == [] and shown == "Plain text (with brackets) [a-z]+ and .* symbols."


def test_regex_characters_in_words_are_literal(qapp):
    runs, _ = marked("Ask about c-3po, not c3po or cX3po.", "c-3po")
    assert runs == ["c", "3po"]  # the index splits at "-", and so does the search: two terms, each marked
    runs, _ = marked("Letters [a-z]+ match any word, or so a regex would say.", "[a-z]+")
    assert runs == ["z"]  # "a" is a stop word; the letters literally, not every lower-case word


def test_wrapped_lines_are_joined_and_paragraphs_kept(qapp):
    runs, shown = marked("first line of\na paragraph about tea\n\nsecond paragraph, tea again", "tea")
    assert shown == "first line of a paragraph about tea\n\nsecond paragraph, tea again"
    assert runs == ["tea", "tea"]


@pytest.mark.parametrize("passage, query", [
    ("Cell biology: a cell, two cells, cellular signals, a cellar; excellent cells.", "cells"),
    ("The studies studied one study by a student.", "What do the studies say?"),
    ("Naïve café owners; a naive CAFE.", "cafe naive"),
    ("Relations and relational data relate.", "relation"),
])
def test_marks_exactly_the_words_keyword_retrieval_matched(qapp, passage, query):
    runs, _ = marked(passage, query)
    matched = retrieval_matched_words(passage, query)
    assert matched and {fold(r) for r in runs} == matched
    assert len(runs) == marked_occurrences(passage, matched)  # every occurrence


def test_cells_marks_the_singular_the_search_found(qapp):
    # before the highlighter shared the search's terms it marked "cells" only, while the search matched "cell"*
    runs, _ = marked("A cell divides; cells grow; cellular life.", "cells")
    assert runs == ["cell", "cells", "cellular"]
