"""The rules that place a scanned page's recognised boxes, without OCR (tests/engine/test_ocr_lines.py reads real
scans, 50 s a session): a box's pixels through its image's placement to display points, its characters found in the
page's cleaned text, what is left out (off the page, not finite, not found, past MAX_LINES); and the lines as the
library stores, drops and reads them for a passage (store/ocr_lines.py, on a real SQLite library)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest.loaders.ocr_boxes import MAX_LINES, SLACK, Placement, page_lines, placed
from desktop_rag.engine.store import ocr_lines
from desktop_rag.engine.store.values import OcrLine

SIZE = (600.0, 800.0)  # a page in display points


def test_a_whole_page_image_scales_its_pixels_to_the_page():
    placement = Placement.whole_page(600.0, 800.0, 1200, 2000)
    assert placement.rect((120.0, 200.0, 360.0, 400.0)) == (60.0, 80.0, 180.0, 160.0)


def test_an_image_drawn_turned_and_moved_places_its_boxes_where_it_is_drawn():
    """An image of 200 x 100 pixels drawn turned a quarter clockwise, its top-left corner at (300, 100): its top edge
    runs down the page, its left edge leftwards."""
    placement = Placement((300.0, 100.0), (300.0, 300.0), (200.0, 100.0), 200, 100)
    assert placement.rect((20.0, 10.0, 60.0, 30.0)) == (270.0, 120.0, 290.0, 160.0)
    shear = Placement((10.0, 20.0), (110.0, 40.0), (30.0, 220.0), 100, 200)  # each corner counts, each axis apart
    assert shear.rect((0.0, 0.0, 100.0, 200.0)) == (10.0, 20.0, 130.0, 240.0)
    assert shear.rect((50.0, 100.0, 50.0, 100.0)) == (70.0, 130.0, 70.0, 130.0)


def test_an_image_of_no_pixels_places_its_boxes_without_dividing_by_zero():
    assert Placement.whole_page(600.0, 800.0, 0, 0).rect((0.5, 0.25, 1.0, 1.0)) == (300.0, 200.0, 600.0, 800.0)


def test_boxes_are_placed_only_when_their_images_placement_is_known():
    boxes = [("one", (0.0, 0.0, 10.0, 10.0)), ("two", (10.0, 10.0, 20.0, 20.0))]
    assert placed(boxes, None) == [("one", None), ("two", None)]
    placement = Placement.whole_page(100.0, 100.0, 20, 20)
    assert placed(boxes, placement) == [("one", (0.0, 0.0, 50.0, 50.0)), ("two", (50.0, 50.0, 100.0, 100.0))]


def test_each_box_gets_its_exact_characters_in_the_pages_text():
    text = "Harbour log\n  the storm came at four"
    pieces = [("Harbour", (1.0, 1.0, 2.0, 2.0)), ("log", (3.0, 1.0, 4.0, 2.0)),
              ("the  storm", (1.0, 3.0, 2.0, 4.0)), ("came at four", (1.0, 5.0, 2.0, 6.0))]
    lines = page_lines(pieces, text, 7, SIZE)
    assert lines == (OcrLine(7, 0, 7, 1.0, 1.0, 2.0, 2.0), OcrLine(7, 8, 11, 3.0, 1.0, 4.0, 2.0),
                     OcrLine(7, 14, 23, 1.0, 3.0, 2.0, 4.0), OcrLine(7, 24, 36, 1.0, 5.0, 2.0, 6.0))
    assert [text[line.start:line.end] for line in lines] == ["Harbour", "log", "the storm", "came at four"]


def test_a_chinese_box_is_found_as_cleaning_joined_it():
    text = "灯塔看守人在凌晨四点"
    assert page_lines([("灯 塔 看 守 人", (1.0, 1.0, 5.0, 2.0)), ("在凌晨四点", (1.0, 3.0, 5.0, 4.0))], text, 1,
                      SIZE) == (OcrLine(1, 0, 5, 1.0, 1.0, 5.0, 2.0), OcrLine(1, 5, 10, 1.0, 3.0, 5.0, 4.0))


def test_a_word_hyphenated_at_a_lines_end_is_found_without_its_hyphen():
    lines = page_lines([("light-", (1.0, 1.0, 2.0, 2.0)), ("house", (1.0, 3.0, 2.0, 4.0))], "lighthouse", 1, SIZE)
    assert [(line.start, line.end) for line in lines] == [(0, 5), (5, 10)]
    assert page_lines([("-", (1.0, 1.0, 2.0, 2.0))], "- x", 1, SIZE) == (OcrLine(1, 0, 1, 1.0, 1.0, 2.0, 2.0),)
    assert page_lines([("-", (1.0, 1.0, 2.0, 2.0))], "x", 1, SIZE) == ()  # a lone hyphen is no empty match
    lines = page_lines([("e-", (1.0, 1.0, 2.0, 2.0)), ("mail", (1.0, 3.0, 2.0, 4.0))], "email", 1, SIZE)
    assert [(line.start, line.end) for line in lines] == [(0, 1), (1, 5)]  # one letter before the hyphen


def test_only_a_hyphen_may_be_missing_from_a_boxs_characters():
    """"storm" is not found in "stork": only a hyphen at a box's end may be gone (joined with the next line)."""
    assert page_lines([("storm", (1.0, 1.0, 2.0, 2.0))], "stork", 1, SIZE) == ()
    assert page_lines([("storms", (1.0, 1.0, 2.0, 2.0))], "storm", 1, SIZE) == ()


def test_a_box_not_found_where_the_last_one_ended_has_no_line_and_the_next_is_looked_for_there():
    """Only whitespace may come between one box's characters and the next's: "storm" is not looked for further on,
    and the box after it is looked for where "the" ended."""
    text = "the gale storm"
    pieces = [("the", (1.0, 1.0, 2.0, 2.0)), ("storm", (1.0, 3.0, 2.0, 4.0)), ("gale", (1.0, 5.0, 2.0, 6.0)),
              ("", (1.0, 7.0, 2.0, 8.0)), ("storm", (1.0, 9.0, 2.0, 10.0))]
    assert [(line.start, line.end, line.top) for line in page_lines(pieces, text, 1, SIZE)] == [
        (0, 3, 1.0), (4, 8, 5.0), (9, 14, 9.0)]


def test_a_box_looked_for_past_the_pages_last_character_is_not_found():
    assert [(line.start, line.end) for line in page_lines(
        [("one", (1.0, 1.0, 2.0, 2.0)), ("two", (1.0, 3.0, 2.0, 4.0))], "one \n ", 1, SIZE)] == [(0, 3)]


def test_a_box_without_a_place_on_the_page_is_no_line_but_its_characters_are_passed():
    text = "one two three"
    pieces = [("one", (1.0, 1.0, 2.0, 2.0)), ("two", None), ("three", (1.0, 3.0, 2.0, 4.0))]
    assert [(line.start, line.end) for line in page_lines(pieces, text, 1, SIZE)] == [(0, 3), (8, 13)]
    off = [("one", (1.0, 1.0, 2.0, 2.0)), ("two", (1.0, 900.0, 2.0, 910.0)), ("three", (1.0, 3.0, 2.0, 4.0))]
    assert [(line.start, line.end) for line in page_lines(off, text, 1, SIZE)] == [(0, 3), (8, 13)]


@pytest.mark.parametrize(("rect", "kept"), [
    ((-SLACK, -SLACK, 600.0 + SLACK, 800.0 + SLACK), True),  # a line at the very edge, rounded
    ((-SLACK - 0.01, 10.0, 50.0, 20.0), False), ((10.0, -SLACK - 0.01, 50.0, 20.0), False),
    ((10.0, 10.0, 600.0 + SLACK + 0.01, 20.0), False), ((10.0, 10.0, 50.0, 800.0 + SLACK + 0.01), False),
    ((10.0, 10.0, 10.0, 20.0), False), ((10.0, 20.0, 50.0, 20.0), False),  # no width, no height
    ((50.0, 10.0, 10.0, 20.0), False), ((10.0, 20.0, 50.0, 10.0), False),  # turned inside out
    ((math.nan, 10.0, 50.0, 20.0), False), ((10.0, math.nan, 50.0, 20.0), False),
    ((10.0, 10.0, math.inf, 20.0), False), ((10.0, 10.0, 50.0, math.inf), False),
])
def test_a_box_is_a_line_only_within_the_page(rect, kept):
    assert bool(page_lines([("word", rect)], "word", 1, SIZE)) is kept


@pytest.mark.parametrize("size", [(math.nan, 800.0), (600.0, math.nan), (math.inf, 800.0), (600.0, math.inf)])
def test_a_page_of_no_finite_size_has_no_lines(size):
    assert page_lines([("word", (10.0, 10.0, 50.0, 20.0))], "word", 1, size) == ()


def test_a_page_keeps_at_most_max_lines_and_the_last_ones_still_find_their_characters():
    many = [(f"w{i}", (1.0, 1.0, 2.0, 2.0)) for i in range(MAX_LINES + 1)]
    text = " ".join(piece for piece, _ in many)
    lines = page_lines(many, text, 1, SIZE)
    assert len(lines) == MAX_LINES and text[lines[-1].start:lines[-1].end] == f"w{MAX_LINES - 1}"


@pytest.fixture
def library(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("scan.txt", "other.txt"):
        (docs / name).write_text("Harbour log\n\nThe storm came at four.", encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    engine.index([docs])
    yield engine, {Path(path).name: file_id for file_id, path in engine.store.db.execute("SELECT id, path FROM files")}
    engine.close()


def test_a_files_lines_are_stored_replaced_dropped_and_read_for_a_passage(library, tmp_path: Path):
    engine, ids = library
    store, scan, other = engine.store, str(tmp_path / "docs" / "scan.txt"), str(tmp_path / "docs" / "other.txt")
    first, second, third = (OcrLine(2, 0, 7, 1.0, 2.0, 3.0, 4.0), OcrLine(2, 8, 11, 5.0, 6.0, 7.0, 8.0),
                            OcrLine(2, 12, 20, 1.5, 2.5, 3.5, 4.5))
    with store.transaction():
        ocr_lines.write(store, ids["scan.txt"], [third, first, second, OcrLine(3, 0, 7, 1.0, 1.0, 2.0, 2.0)])
        ocr_lines.write(store, ids["other.txt"], [OcrLine(2, 0, 7, 9.0, 9.0, 9.5, 9.5)])
    assert ocr_lines.lines_of(store, scan, 2, 0, 20) == (first, second, third)  # in order of their characters
    assert ocr_lines.lines_of(store, scan, 2, 7, 8) == ()  # touching is not overlapping
    assert ocr_lines.lines_of(store, scan, 2, 6, 9) == (first, second)
    assert ocr_lines.lines_of(store, scan, 3, 0, 1) == (OcrLine(3, 0, 7, 1.0, 1.0, 2.0, 2.0),)
    assert ocr_lines.lines_of(store, other, 2, 0, 20) == (OcrLine(2, 0, 7, 9.0, 9.0, 9.5, 9.5),)
    with store.transaction():
        ocr_lines.write(store, ids["scan.txt"], [second])  # replaced, not added to
    assert ocr_lines.lines_of(store, scan, 2, 0, 20) == (second,)
    with store.transaction():
        ocr_lines.write(store, ids["scan.txt"], [])
    assert ocr_lines.lines_of(store, scan, 2, 0, 20) == ()
    with store.transaction():
        ocr_lines.drop(store, ids["other.txt"])
    assert ocr_lines.lines_of(store, other, 2, 0, 20) == ()
