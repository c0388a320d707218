"""PDF tables (ingest/loaders/pdf_tables.py): when a page's first table continues the previous page's (the header
carried over: only at the page edges, with the same columns), and the detection's limits, each on hand-built PDFs
(tests/support/pdf_build) or on the pages' found tables directly."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.engine.ingest.loaders import load
from desktop_rag.engine.ingest.loaders import pdf_tables as pt
from desktop_rag.engine.ingest.loaders.pdf_tables import PageTables, carry_headers
from tests.support import pdf_build as build

HEADER = ["City", "Country", "Population", "Area km2"]
WIDTHS = [110, 110, 110, 110]
TOWNS = [[f"Town {n:02d}", "Nowhere", f"{n * 1000:,}", str(n)] for n in range(1, 17)]
PROSE = ["The second survey, below, was made in another year with its own columns and towns."]
OTHER = [["Lake", "Region", "Depth m", "Fish"], ["Mirror", "North", "42", "trout"], ["Silver", "East", "17", "perch"],
         ["Stone", "West", "88", "pike"]]


def _groups(path: Path) -> list[tuple[int | None, list[str]]]:
    return [(s.page, s.text.splitlines()) for s in load(path, max_bytes=0).sections if s.text.startswith("| ")]


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _pdf(tmp_path: Path, pages: list) -> Path:
    path = tmp_path / "tables.pdf"
    path.write_bytes(build.placed_pdf(pages))
    return path


def test_prose_above_the_table_on_the_next_page_keeps_the_header_on_its_own_page(tmp_path):
    """Page 1 ends with a table; page 2 opens with prose, then a table in the same columns: a new table (its first
    row is its header), not page 1's continued."""
    pages = [build.table_lines([], [HEADER, *TOWNS[:8]], [], WIDTHS),
             build.table_lines(PROSE, TOWNS[8:], [], WIDTHS)]
    groups = _groups(_pdf(tmp_path, pages))
    assert [lines[0] for page, lines in groups if page == 2] == [_row(TOWNS[8])]
    assert all(_row(HEADER) not in lines for page, lines in groups if page == 2)
    assert any(PROSE[0] in s.text for s in load(_pdf(tmp_path, pages), max_bytes=0).sections if s.page == 2)


def test_a_page_number_above_the_continued_table_still_carries_the_header(tmp_path):
    pages = [build.table_lines([], [HEADER, *TOWNS[:8]], [], WIDTHS),
             build.table_lines(["Page 2"], TOWNS[8:], [], WIDTHS)]
    groups = _groups(_pdf(tmp_path, pages))
    assert [lines[0] for page, lines in groups if page == 2] == [_row(HEADER)]


# ---- carry_headers on the pages' tables ----

def _page(tables: list[list[list[str]]], columns: list[tuple[float, ...]], before: int = 0,
          after: int = 0) -> PageTables:
    return PageTables("", tables, columns, before, after)


COLS = (56.0, 166.0, 276.0)
TABLE = [["A", "B", "C"], ["1", "2", "3"], ["4", "5", "6"]]
MORE = [["7", "8", "9"], ["10", "11", "12"]]


def test_the_next_pages_first_table_gets_the_header():
    carried = carry_headers({0: _page([TABLE], [COLS]), 1: _page([MORE, TABLE], [COLS, COLS])})
    assert carried[1].tables == [[TABLE[0], *MORE], TABLE]  # only its first table
    assert carried[0].tables == [TABLE]


@pytest.mark.parametrize("after, before, carried", [
    (pt.EDGE_CHARS, pt.EDGE_CHARS, True), (pt.EDGE_CHARS + 1, 0, False), (0, pt.EDGE_CHARS + 1, False)])
def test_at_most_edge_chars_may_stand_between_the_tables_and_the_page_edges(after, before, carried):
    pages = carry_headers({0: _page([TABLE], [COLS], after=after), 1: _page([MORE], [COLS], before=before)})
    assert (pages[1].tables[0][0] == TABLE[0]) is carried


@pytest.mark.parametrize("shift, carried", [(pt.COLUMN_SLACK, True), (pt.COLUMN_SLACK + 0.5, False),
                                            (-pt.COLUMN_SLACK, True), (-pt.COLUMN_SLACK - 0.5, False)])
def test_columns_must_start_within_the_slack(shift, carried):
    moved = tuple(c + (shift if i == 1 else 0) for i, c in enumerate(COLS))
    pages = carry_headers({0: _page([TABLE], [COLS]), 1: _page([MORE], [moved])})
    assert (pages[1].tables[0][0] == TABLE[0]) is carried


def test_another_number_of_columns_or_no_table_carries_nothing():
    assert carry_headers({0: _page([TABLE], [COLS]), 1: _page([MORE], [COLS[:2]])})[1].tables == [MORE]
    assert carry_headers({0: _page([], []), 1: _page([MORE], [COLS])})[1].tables == [MORE]
    assert carry_headers({0: _page([TABLE], [COLS]), 1: _page([], [])})[1].tables == []
    assert carry_headers({0: _page([TABLE], [COLS]), 2: _page([MORE], [COLS])})[2].tables == [MORE]  # not next


def test_a_repeated_header_is_not_doubled_and_a_carried_header_carries_on():
    repeated = carry_headers({0: _page([TABLE], [COLS]), 1: _page([[TABLE[0], *MORE]], [COLS])})
    assert repeated[1].tables == [[TABLE[0], *MORE]]
    three = carry_headers({5: _page([TABLE], [COLS]), 6: _page([MORE], [COLS]), 7: _page([MORE], [COLS])})
    assert three[7].tables == [[TABLE[0], *MORE]]  # page 6's carried header reaches page 7


def test_the_last_table_of_a_page_is_the_one_continued():
    last = [["X", "Y", "Z"], ["x", "y", "z"], ["x", "y", "z"]]
    pages = carry_headers({0: _page([TABLE, last], [(1.0, 2.0, 3.0), COLS]), 1: _page([MORE], [COLS])})
    assert pages[1].tables[0][0] == ["X", "Y", "Z"]


# ---- the detection's limits, on real pages ----

def _page_text(path: Path) -> str:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        return document[0].get_textpage().get_text_range()
    finally:
        document.close()


def test_a_page_with_more_characters_than_the_limit_is_not_looked_at(tmp_path, monkeypatch):
    path = _pdf(tmp_path, [build.table_lines([], [HEADER, *TOWNS[:6]], [], WIDTHS)])
    chars = len(_page_text(path))  # PDFium's characters (here one a letter of its text)
    monkeypatch.setattr(pt, "MAX_CHARS", chars)
    assert _groups(path)  # at the limit: looked at
    monkeypatch.setattr(pt, "MAX_CHARS", chars - 1)
    assert _groups(path) == []


def test_a_row_of_one_cell_stays_inside_its_table(tmp_path):
    rows = [HEADER, ["Lisbon", "Portugal", "545,000", "100"], ["Oslo", "", "", ""], ["Quito", "Ecuador", "2,800",
                                                                                      "372"]]
    groups = _groups(_pdf(tmp_path, [build.table_lines([], rows, [], WIDTHS)]))
    assert groups == [(1, [_row(HEADER), "| --- | --- | --- | --- |", _row(rows[1]), "| Oslo |  |  |  |",
                           _row(rows[3])])]


def test_six_text_objects_in_three_rows_are_a_table(tmp_path):
    rows = [["Name", "Job"], ["Ada", "analyst"], ["Alan", "coder"]]  # the fewest objects a table can have
    assert [lines[2:] for _, lines in _groups(_pdf(tmp_path, [build.table_lines([], rows, [], [200, 200])]))] == [
        [_row(rows[1]), _row(rows[2])]]


PROSE_LINES = [f"Line {i} of the report says nothing about cities." for i in range(16)]


@pytest.mark.parametrize("prose, found", [(15, True), (16, False)])
def test_a_page_is_looked_at_only_with_half_again_as_many_text_objects_as_lines(tmp_path, prose, found):
    """A small table (12 objects in 3 lines) under lines of prose (one object a line): 27 objects in 18 lines are
    exactly 1.5 a line and the page is looked at; one line more and it is not (the cost bound of prose pages)."""
    table = [HEADER, TOWNS[0], TOWNS[1]]
    path = _pdf(tmp_path, [build.table_lines(PROSE_LINES[:prose], table, [], WIDTHS)])
    assert _page_text(path).count("\n") + 1 == prose + 3
    assert bool(_groups(path)) is found


def test_two_rows_and_a_header_make_a_table_and_fewer_do_not(tmp_path):
    assert [lines[2:] for _, lines in _groups(_pdf(tmp_path, [build.table_lines([], OTHER[:3], [], WIDTHS)]))] == [
        [_row(OTHER[1]), _row(OTHER[2])]]
    assert _groups(_pdf(tmp_path, [build.table_lines([], OTHER[:2], [], WIDTHS)])) == []


def test_rows_far_apart_are_two_tables_or_none(tmp_path):
    near = [(56.0 + 110 * c, 72.0 + 16 * r, cell) for r, row in enumerate(OTHER) for c, cell in enumerate(row)]
    far = [(x, y + (400 if y > 72 + 16 else 0), text) for x, y, text in near]  # header and row 1 | rows 2-3
    assert len(_groups(_pdf(tmp_path, [near]))) == 1
    assert _groups(_pdf(tmp_path, [far])) == []  # neither part has three rows


def test_cells_with_an_empty_place_stay_in_their_columns(tmp_path):
    rows = [HEADER, ["Lisbon", "Portugal", "", "100"], ["Oslo", "", "709,000", "454"], ["Quito", "Ecuador", "2,800",
                                                                                         ""]]
    groups = _groups(_pdf(tmp_path, [build.table_lines([], rows, [], WIDTHS)]))
    assert groups[0][1][2:] == ["| Lisbon | Portugal |  | 100 |", "| Oslo |  | 709,000 | 454 |",
                                "| Quito | Ecuador | 2,800 |  |"]


def test_words_inside_a_cell_keep_their_spaces(tmp_path):
    rows = [["Name", "Job"], ["Ada Lovelace", "analyst"], ["Alan Mathison Turing", "code breaker"],
            ["Grace Hopper", "admiral"]]
    groups = _groups(_pdf(tmp_path, [build.table_lines([], rows, [], [200, 200])]))
    assert groups[0][1][2:] == [_row(r) for r in rows[1:]]


def test_long_cells_in_two_columns_are_prose(tmp_path):
    width = pt.MAX_MEAN_CELL_TWO + 4
    rows = [["Left" + "x" * width, "Right" + "y" * width] for _ in range(4)]
    assert _groups(_pdf(tmp_path, [build.table_lines([], rows, [], [300, 300])])) == []
    short = [[f"Left {n}", f"Right {n}"] for n in range(4)]
    assert _groups(_pdf(tmp_path, [build.table_lines([], short, [], [300, 300])]))


# ---- what a page's tables leave of its text ----

def _found(path: Path):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        textpage = document[0].get_textpage()
        text = textpage.get_text_range()
        return pt.find_tables(textpage, text, pt.looks_tabular(textpage, text))
    finally:
        document.close()


def test_the_page_text_loses_the_tables_characters_and_the_spaces_between_them(tmp_path):
    before, after = ["Towns of the coast, as counted this year."], ["All figures are rounded to the nearest ten."]
    found = _found(_pdf(tmp_path, [build.table_lines(before, [HEADER, *TOWNS[:3]], after, WIDTHS)]))
    assert found.text == f"{before[0]}\r\n\r\n{after[0]}"  # only the line breaks at the table's edges stay
    assert found.tables == [[HEADER, *TOWNS[:3]]]
    assert found.columns == [(56.0, 166.0, 276.0, 386.0)]  # where each column starts
    assert (found.before, found.after) == (len("".join(before[0].split())), len("".join(after[0].split())))


def test_labels_scattered_over_a_figure_are_no_table(tmp_path):
    """Four columns of places, four rows, seven labels: less than half the cells hold text."""
    scattered = [["North", "Hill", "", ""], ["", "", "", "Lake"], ["", "", "Mill", "Bridge"], ["Wood", "", "Ford", ""]]
    assert _groups(_pdf(tmp_path, [build.table_lines([], scattered, [], WIDTHS)])) == []
    half = [["North", "Hill", "", ""], ["", "", "Weir", "Lake"], ["", "", "Mill", "Bridge"], ["Wood", "", "Ford", ""]]
    assert [lines[0] for _, lines in _groups(_pdf(tmp_path, [build.table_lines([], half, [], WIDTHS)]))] == [
        "| North | Hill |  |  |"]


@pytest.mark.parametrize("width, found", [(30, True), (40, True), (41, False)])
def test_three_columns_take_cells_of_up_to_forty_letters_on_average(tmp_path, width, found):
    """A two-column table's cells must be shorter (24 on average): long ones are two columns of prose."""
    cell = ("Riverside" * 5)[:width]
    rows = [["Name", cell, "Note"], *([f"N{n}", cell, "ok"] for n in range(4))]  # the middle column: `width` each
    assert bool(_groups(_pdf(tmp_path, [build.table_lines([], rows, [], [60, 300, 60])]))) is found
