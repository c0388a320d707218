"""Neighbouring chunks of one file that overlap or touch reach the prompt as one passage, at the better rank."""

from __future__ import annotations

from desktop_rag.engine.search.retrieval import merge_neighbours
from desktop_rag.engine.store.values import Hit

TEXT = "".join(f"Sentence number {i:03d} of the document. " for i in range(40))  # 40 chars each


def chunk(chunk_id: int, ordinal: int, start: int, end: int, score: float = 0.5, *, file_id: int = 1,
          page: int | None = None, heading: str = "", ocr: bool = False) -> Hit:
    """A hit for TEXT[start:end], as the chunker cuts it (its offsets into the file's text)."""
    return Hit(chunk_id, score, f"/docs/{file_id}.txt", page, heading, TEXT[start:end], file_id, ordinal, start, end,
               ocr)


def test_overlapping_neighbours_become_one_passage_at_the_better_rank():
    first, second = chunk(10, 0, 0, 200, 0.6, heading="Intro"), chunk(11, 1, 160, 360, 0.9, heading="Body")
    other = chunk(20, 0, 0, 120, 0.8, file_id=2)
    merged = merge_neighbours([second, other, first])
    assert [h.chunk_id for h in merged] == [11, 20]  # the better hit's id, score and place; the other file stays
    passage = merged[0]
    assert passage.text == TEXT[0:360]  # the overlap is not repeated
    assert (passage.char_start, passage.char_end, passage.ordinal) == (0, 360, 0)
    assert (passage.score, passage.heading, passage.file_id, passage.path) == (0.9, "Body", 1, "/docs/1.txt")
    assert merged[1] == other


def test_adjacent_chunks_join_and_a_small_gap_is_a_paragraph_break():
    adjacent = merge_neighbours([chunk(1, 0, 0, 120), chunk(2, 1, 120, 240)])
    assert len(adjacent) == 1 and adjacent[0].text == TEXT[0:240]
    gap = merge_neighbours([chunk(1, 0, 0, 120), chunk(2, 1, 122, 240)])  # a blank line between the chunks
    assert len(gap) == 1 and gap[0].text == TEXT[0:120] + "\n\n" + TEXT[122:240]
    assert (gap[0].char_start, gap[0].char_end) == (0, 240)


def test_merged_passage_says_ocr_when_either_chunk_was_recognised():
    merged = merge_neighbours([chunk(1, 0, 0, 120), chunk(2, 1, 100, 240, ocr=True)])
    assert len(merged) == 1 and merged[0].ocr
    assert not merge_neighbours([chunk(1, 0, 0, 120), chunk(2, 1, 100, 240)])[0].ocr


def test_what_is_not_merged():
    apart = [chunk(1, 0, 0, 120, 0.9), chunk(2, 1, 123, 240, 0.8)]  # three characters apart: not touching
    assert merge_neighbours(apart) == apart
    pages = [chunk(1, 0, 0, 120, page=1), chunk(2, 1, 100, 240, page=2)]  # never across pages
    assert merge_neighbours(pages) == pages
    files = [chunk(1, 0, 0, 120, file_id=1), chunk(2, 1, 100, 240, file_id=2)]
    assert merge_neighbours(files) == files
    not_neighbours = [chunk(1, 0, 0, 120), chunk(3, 2, 100, 240)]  # ordinals two apart
    assert merge_neighbours(not_neighbours) == not_neighbours
    assert merge_neighbours([]) == []


def test_each_hit_joins_the_first_kept_neighbour_only():
    a, b, c = chunk(1, 0, 0, 120, 0.9), chunk(2, 1, 100, 240, 0.8), chunk(3, 5, 400, 520, 0.7)
    merged = merge_neighbours([a, c, b])
    assert [h.chunk_id for h in merged] == [1, 3] and merged[0].text == TEXT[0:240] and merged[1] == c


def test_a_merged_passage_reaches_the_neighbour_of_either_chunk():
    """Chunks 3+4 joined keep ordinal 3, yet chunk 5 touches 4: it must join the passage, not reach the prompt
    again as a separate, overlapping hit."""
    c3, c4, c5 = chunk(3, 3, 0, 200, 0.9), chunk(4, 4, 160, 360, 0.8), chunk(5, 5, 320, 520, 0.7)
    merged = merge_neighbours([c3, c4, c5])
    assert [h.chunk_id for h in merged] == [3]
    assert merged[0].text == TEXT[0:520] and (merged[0].char_start, merged[0].char_end) == (0, 520)
    assert (merged[0].ordinal, merged[0].score) == (3, 0.9)


def test_a_chunk_between_two_kept_hits_bridges_them_into_one_passage():
    """5 and 3 are kept apart (two ordinals apart); 4 touches both, so all three become one passage at the
    best rank, whichever of them came first."""
    c3, c4, c5 = chunk(3, 3, 0, 200, 0.7), chunk(4, 4, 160, 360, 0.6), chunk(5, 5, 320, 520, 0.9)
    other = chunk(20, 0, 0, 120, 0.8, file_id=2)
    for order in ([c5, other, c3, c4], [c3, other, c5, c4], [c4, c3, c5, other]):
        merged = merge_neighbours(order)
        assert [h.chunk_id for h in merged] == [order[0].chunk_id, 20], order
        passage = merged[0]
        assert passage.text == TEXT[0:520] and (passage.char_start, passage.char_end, passage.ordinal) == (0, 520, 3)
        assert passage.score == order[0].score


def test_a_neighbour_inside_the_passage_adds_nothing_and_keeps_its_end():
    """A neighbour whose text the kept hit already holds must not cut the passage's end back to its own."""
    merged = merge_neighbours([chunk(1, 0, 0, 360), chunk(2, 1, 100, 200)])
    assert len(merged) == 1 and merged[0].text == TEXT[0:360] and (merged[0].char_start, merged[0].char_end) == (0, 360)


def test_a_merged_passage_stops_growing_at_three_chunks():
    """A long run of matching chunks (a document of similar paragraphs) does not become one whole-document
    passage: past three chunks a neighbour stays a passage of its own."""
    run = [chunk(n, n, 100 * n, 100 * n + 120, 0.9 - n / 100) for n in range(6)]  # 20 characters of overlap
    merged = merge_neighbours(run)
    assert [(h.chunk_id, h.char_start, h.char_end) for h in merged] == [(0, 0, 320), (3, 300, 620)]
    assert merged[0].text == TEXT[0:320] and merged[1].text == TEXT[300:620]
