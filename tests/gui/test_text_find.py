"""Find in a document's whole text (gui/text_find.py): caseless (engine.caseless_find), forwards and backwards from
a place, wrapping around once, across the pieces it is searched in, stopped by its cancel flag."""

from __future__ import annotations

import threading

import pytest

from desktop_rag.gui import text_find
from desktop_rag.gui.text_find import find_text

TEXT = "Alpha beta. BETA gamma; Straße beta ΟΔΟΣ end"


def test_forwards_from_a_place_and_round():
    first = TEXT.index("beta")
    assert find_text(TEXT, "beta", 0) == (first, first + 4)
    assert find_text(TEXT, " Beta ", first + 4) == (TEXT.index("BETA"), TEXT.index("BETA") + 4)  # any case, stripped
    last = TEXT.rindex("beta")
    assert find_text(TEXT, "beta", last) == (last, last + 4)  # a match starting at the place
    assert find_text(TEXT, "beta", last + 1) == (first, first + 4)  # past the last one: round to the first
    assert find_text(TEXT, "alpha", len(TEXT)) == (0, 5)
    assert find_text(TEXT, "delta", 3) is None and find_text(TEXT, "  ", 3) is None
    assert find_text("ab", "abc", 0) is None


def test_backwards_ends_at_the_place_and_wraps_to_the_last():
    second = TEXT.index("BETA")
    assert find_text(TEXT, "beta", second, forward=False) == (6, 10)  # ending at or before the place
    assert find_text(TEXT, "beta", second + 4, forward=False) == (second, second + 4)
    last = TEXT.rindex("beta")
    assert find_text(TEXT, "beta", 3, forward=False) == (last, last + 4)  # before the first: round to the last
    assert find_text(TEXT, "alpha", 0, forward=False) == (0, 5)
    assert find_text(TEXT, "alpha", 20, forward=False) == (0, 5)  # the text's first characters, before the place
    assert find_text("beta", "BETA", 2) == (0, 4) == find_text("beta", "beta", 4, forward=False)  # the whole text


def test_offsets_stay_the_texts_whatever_lower_casing_does():
    text = "İstanbul ΟΔΟΣ odos " * 2  # U+0130 lower-cases to two characters; a final sigma to another letter
    start = text.index("ΟΔΟΣ", 10)
    assert find_text(text, "οδοσ", 10) == (start, start + 4)
    assert find_text(text, "İSTANBUL", 1) == (text.index("İ", 1), text.index("İ", 1) + 8)


@pytest.mark.parametrize("forward", [True, False])
def test_a_match_across_two_pieces_is_found(monkeypatch, forward):
    monkeypatch.setattr(text_find, "CHUNK", 8)
    text = "x" * 30 + "needle" + "y" * 30
    assert find_text(text, "NEEDLE", 3 if forward else 60, forward) == (30, 36)
    for at in range(0, len(text) + 1):
        assert find_text(text, "needle", at, forward) == (30, 36)


@pytest.mark.parametrize("forward", [True, False])
def test_a_match_whose_folding_grows_is_found_across_pieces(monkeypatch, forward):
    """Caseless as `engine.caseless_find` is: the span is the text's characters matched, ß one of them."""
    monkeypatch.setattr(text_find, "CHUNK", 4)
    text = "ab İstanbul Straße ＡＢＣ ende"
    spans = {query: (text.index(word), text.index(word) + len(word))
             for query, word in (("ISTANBUL", "İstanbul"), ("strasse", "Straße"), ("abc", "ＡＢＣ"))}
    for query, span in spans.items():
        for at in range(len(text) + 1):
            assert find_text(text, query, at, forward) == span, (query, at)
    sharp = text.index("ß")  # "s" is never half of it
    assert find_text(text, "s", sharp, forward) == ((4, 5) if forward else (12, 13))


def test_a_cancelled_search_answers_nothing():
    stop = threading.Event()
    stop.set()
    assert find_text("a needle here", "needle", 0, cancel=stop) is None
    assert find_text("a needle here", "needle", 13, forward=False, cancel=stop) is None
