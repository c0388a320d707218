"""The sources panel's query-term highlighter: which words are marked, escaping, Chinese, hostile queries."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextDocument

from desktop_rag.gui.text import highlight_html, query_terms
from tests.support.highlight import highlighted_runs


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
    assert query_terms("What is the water temperature?") == ["temperature", "water"]  # longest first


def test_only_whole_words_are_marked(qapp):
    runs, _ = marked("Start the art class; artists and smart art lovers.", "art")
    assert runs == ["art", "art"]


def test_chinese_query_marks_character_pairs(qapp):
    assert sorted(query_terms("绿茶水温")) == sorted(["绿茶", "茶水", "水温"])
    runs, _ = marked("冲泡绿茶的水温一般在八十度左右。", "绿茶水温是多少？")
    assert "绿茶" in runs and "水温" in runs and "八十度" not in "".join(runs)
    runs, _ = marked("红茶和绿茶", "茶")  # a single character is a term on its own
    assert runs == ["茶", "茶"]


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
    assert runs == ["c-3po"]
    runs, _ = marked("Letters [a-z]+ match any word, or so a regex would say.", "[a-z]+")
    assert runs == ["a-z"]  # the word in the query, literally; not every lower-case word


def test_wrapped_lines_are_joined_and_paragraphs_kept(qapp):
    runs, shown = marked("first line of\na paragraph about tea\n\nsecond paragraph, tea again", "tea")
    assert shown == "first line of a paragraph about tea\n\nsecond paragraph, tea again"
    assert runs == ["tea", "tea"]
