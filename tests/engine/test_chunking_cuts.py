"""Where chunks are cut, exactly: strong boundaries in the second half win, hard cuts, overlaps, size limits."""

from __future__ import annotations

import pytest

from desktop_rag.engine.chunking import split_text


def pieces(text: str, size: int, overlap: int = 0) -> list[str]:
    return [text[a:b] for a, b in split_text(text, size, overlap)]


P1 = "Alpha one two three four five six seven eight nine ten eleven."  # 62 characters
P2 = "Beta one two three four five. Gamma one two three four. Delta one two three four five six."


def test_a_paragraph_end_in_the_second_half_wins_over_a_later_sentence_end():
    # "Beta ... five." would still fit in the first 100 characters; the paragraph end at 62 reads better
    assert split_text(P1 + "\n\n" + P2, 100, 0) == [(0, 62), (64, 154)]


def test_a_paragraph_end_in_the_first_half_does_not_cut_the_chunk_short():
    text = ("Short para.\n\nBeta one two three four five six. Gamma one two three four five. "
            "Delta one two three four five six seven. Eps one.")
    assert pieces(text, 100) == [
        "Short para.\n\nBeta one two three four five six. Gamma one two three four five.",
        "Delta one two three four five six seven. Eps one."]


def test_clauses_then_words_then_characters():
    text = "Clause one, clause two, clause three, clause four, clause five, clause six, clause seven."
    assert pieces(text, 40) == ["Clause one, clause two, clause three,", "clause four, clause five, clause six,",
                                "clause seven."]
    assert pieces("word " * 30, 60) == ["word " * 11 + "word"] * 2 + ["word " * 5 + "word"]
    assert split_text("x" * 250, 100, 0) == [(0, 100), (100, 200), (200, 250)]


def test_text_of_exactly_the_size_is_one_chunk():
    assert split_text("a" * 100, 100, 0) == [(0, 100)]
    assert split_text("a" * 101, 100, 0) == [(0, 100), (100, 101)]
    assert split_text("a" * 100 + "\n\n", 100, 0) == [(0, 100)]  # trailing blank lines are not a chunk


def test_overlap_starts_after_a_sentence_or_word_and_never_inside_a_latin_word():
    text = "First sentence here. Second sentence is here. Third one follows now. Fourth sentence ends it."
    assert pieces(text, 50, 20) == ["First sentence here. Second sentence is here.",
                                    "sentence is here. Third one follows now. Fourth sentence ends it."]
    assert split_text("abcdefghij" * 12, 50, 10) == [(0, 50), (50, 100), (100, 120)]  # no space: no overlap
    assert split_text("一二三四五六七八九十" * 12, 50, 10) == [(0, 50), (40, 100), (90, 120)]  # CJK: any character


def test_overlap_prefers_a_sentence_end_inside_the_window():
    text = "Aaa bbb ccc. Ddd eee fff ggg hhh iii jjj kkk lll mmm nnn ooo ppp qqq rrr."
    spans = split_text(text, 40, 30)
    assert text[spans[1][0]:].startswith("Ddd eee")


@pytest.mark.parametrize("size, overlap", [(0, 0), (-5, 0), (100, -1), (100, 100), (100, 150)])
def test_bad_sizes_are_refused(size, overlap):
    with pytest.raises(ValueError, match="chunk size"):
        split_text("text", size, overlap)


def test_valid_extremes_are_accepted():
    assert split_text("text", 1, 0) == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert split_text("text", 100, 99) == [(0, 4)]


def test_the_preference_holds_when_only_one_piece_is_left_over():
    # the second paragraph is too long for one chunk: it comes as two sentences, the last one left over
    text = (P1 + "\n\nBeta one two three four five. "
            "Gamma one two three four five six seven eight nine ten eleven twelve thirty.")
    assert split_text(text, 100, 0) == [(0, 62), (64, 93), (94, 170)]
