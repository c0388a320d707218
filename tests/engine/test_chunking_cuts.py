"""Where chunks are cut, exactly: strong boundaries in the second half win, hard cuts, overlaps, size limits."""

from __future__ import annotations

import pytest

from desktop_rag.engine.ingest.chunking import chunk_document, split_text
from desktop_rag.engine.ingest.documents import ParsedDocument, Section


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


# ---- the rules the mutation run found untested (bench/README.md, mutation section) ----


def test_a_cjk_overlap_of_one_character_is_kept():
    # CJK has no spaces: the overlap may start at any character, even for an overlap of 1
    assert pieces("一二三四五六七八九十", 4, 1) == ["一二三四", "四五六七八", "八九十"]


def test_a_piece_of_exactly_the_size_is_not_split_further():
    # "Green tea is hot" is exactly 16: it stays whole rather than being cut at its words
    assert pieces("Tea\nGreen tea is hot", 16) == ["Tea", "Green tea is hot"]


def test_the_tail_of_a_hard_cut_keeps_the_boundary_that_ends_it():
    # "klmno" (the rest of a word cut every 10 characters) ends at a clause: the next chunk starts after it
    assert pieces("abcdefghijklmno, pq rs tu vw", 10) == ["abcdefghij", "klmno,", "pq rs tu", "vw"]


def test_an_odd_size_keeps_the_exact_half_way_rule():
    # size 11: a paragraph end after 5 characters (11 // 2) is in the second half, so the chunk stops there
    assert pieces("Tea\n\nis hot and sweet", 11) == ["Tea", "is hot and", "sweet"]
    # size 19: the sentence end 9 characters (19 // 2) into the second chunk counts as its second half
    assert pieces("Aa bb cc dd ee ff gg hhhh. Ii, kk ll mm nn oo pp qq rr ss", 19) == [
        "Aa bb cc dd ee ff", "gg hhhh.", "Ii, kk ll mm nn oo", "pp qq rr ss"]


def test_a_later_chunk_measures_its_half_from_its_own_start():
    # the second chunk starts at "Short."; its paragraph end is in its first half, so it is not cut there
    assert pieces("Intro line here.\n\nShort.\n\nA longer paragraph with many words in it", 20) == [
        "Intro line here.", "Short.\n\nA longer", "paragraph with many", "words in it"]
    assert pieces("Aa bb cc dd ee ff gg h. Ii, kk ll mm nn oo pp qq rr ss", 20) == [
        "Aa bb cc dd ee ff", "gg h. Ii,", "kk ll mm nn oo pp", "qq rr ss"]


def test_the_last_of_equally_strong_boundaries_in_the_second_half_wins():
    assert pieces("Aa bb cc dd ee ff gg hh. Ii. Jj. kk ll mm nn oo pp qq rr ss", 20) == [
        "Aa bb cc dd ee ff", "gg hh. Ii. Jj.", "kk ll mm nn oo pp", "qq rr ss"]
    assert pieces("Aa bb cc dd ee ff gg hh. Ii. kk ll mm nn oo pp qq rr ss", 20) == [
        "Aa bb cc dd ee ff", "gg hh. Ii.", "kk ll mm nn oo pp", "qq rr ss"]


def test_a_separator_at_the_end_of_a_piece_is_not_a_cut_of_its_own():
    assert pieces("Aa bb cc dd ee ff gg hhhh. Ii, kk ll mm nn oo pp qq rr ss", 21) == [
        "Aa bb cc dd ee ff gg", "hhhh. Ii, kk ll mm", "nn oo pp qq rr ss"]


def test_a_long_paragraph_is_cut_at_its_lines_before_its_sentences():
    lines = "First line of text\nSecond line of text\nThird line"
    assert pieces(lines + "\n\nEnd.", 30) == ["First line of text", "Second line of text", "Third line\n\nEnd."]
    assert pieces("Intro.\n\n" + lines, 30) == ["Intro.\n\nFirst line of text", "Second line of text\nThird line"]


def test_empty_text_has_no_chunks_and_a_refusal_says_why():
    assert split_text("", 10, 0) == [] and split_text("\n\n", 10, 0) == []
    with pytest.raises(ValueError, match=r"^chunk size must be positive and overlap smaller than the size$"):
        split_text("text", 10, 10)


def test_the_defaults_are_500_characters_with_50_of_overlap():
    text = "一" * 600  # CJK: the overlap is exactly 50 characters
    assert split_text(text) == split_text(text, 500, 50) == [(0, 500), (450, 600)]
    doc = ParsedDocument(sections=(Section(text, page=3, heading_path=("A", "B"), ocr=True),))
    chunks = chunk_document(doc)
    assert [(c.char_start, c.char_end) for c in chunks] == [(0, 500), (450, 600)]
    assert all(c.ocr and c.page == 3 and c.heading == "A > B" for c in chunks)
    assert not any(c.ocr for c in chunk_document(ParsedDocument(sections=(Section("Typed text."),))))


def test_a_paragraph_end_is_stronger_than_a_line_end():
    # 30 characters: "Tea is hot.\n\nMilk is cold." would fit, but the paragraph end reads better than the line end
    assert pieces("Tea is hot.\n\nMilk is cold.\nSugar is sweet.", 30) == [
        "Tea is hot.", "Milk is cold.\nSugar is sweet."]
