"""The window of a long document the viewer lays out around the passage (gui/text_window.py): the whole text when
it fits, else the passage and what fits around it, cut at row groups (else lines), with the lines left out counted.
Pure Python (the huge sheet opened in the viewer: test_viewer_long.py)."""

from __future__ import annotations

import random

import pytest

from desktop_rag.gui.text_window import TextWindow, text_window


def test_the_window_is_the_whole_text_when_it_fits_and_cut_at_row_groups_when_not():
    small = text_window("a\n\nb", 3, 4)
    assert small.shown == "a\n\nb" and not small.cut and small.span(3, 4) == (3, 4)
    groups = "".join(f"| h |\n| --- |\n| {i} |\n\n" for i in range(1000))  # 20 characters a group
    at = groups.index("| 500 |")
    window = text_window(groups, at, at + 7, max_chars=200)
    assert window.shown.startswith("| h |") and window.shown.rstrip().endswith("|")  # whole row groups
    assert window.shown[slice(*window.span(at, at + 7))] == "| 500 |" and len(window.shown) <= 200
    assert window.before == groups.count("\n", 0, window.offset)
    assert window.before + window.shown.count("\n") + window.after == groups.count("\n")
    end = text_window(groups, len(groups) - 3, len(groups) - 2, max_chars=200)  # near the end: the room goes before
    assert end.after == 0 and len(end.shown) > 150


def lines(pick: random.Random) -> str:
    return "".join("x" * pick.randint(1, 9) + "\n" for _ in range(300))


def row_groups(pick: random.Random) -> str:  # opening on a blank line
    return "\n" + "".join(pick.choice(["", "\n"]) + "x" * pick.randint(1, 9) + "\n" for _ in range(300))


def long_lines(pick: random.Random) -> str:  # lines longer than the room
    return "".join("x" * pick.randint(1, 300) + "\n" for _ in range(30))


def checked_window(text: str, pick: random.Random) -> tuple[int, int, int, int, int]:
    """A window of `text` around a random passage, checked for what every window holds: (max_chars, start, end,
    and the window's first and last offsets)."""
    max_chars = pick.randint(60, 200)
    start = pick.randrange(len(text) - 20)
    end = start + pick.randint(0, 20)
    window = text_window(text, start, end, max_chars)
    lo, hi = window.offset, window.offset + len(window.shown)
    assert window.shown == text[lo:hi] and len(window.shown) <= max_chars
    assert lo <= start and end <= hi and window.shown[slice(*window.span(start, end))] == text[start:end]
    assert (window.before, window.after) == (text.count("\n", 0, lo), text.count("\n", hi, len(text)))
    assert window.cut == bool(lo or hi < len(text))
    assert window.holds(start, end) and window.holds(lo, hi)  # what the find bar asks before moving the window
    assert not window.holds(lo - 1, lo + 1) and not window.holds(hi - 1, hi + 1)
    return max_chars, start, end, lo, hi


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("make", [row_groups, long_lines], ids=["row groups", "long lines"])
def test_a_window_holds_the_passage_within_its_room_and_counts_the_lines_left_out(seed: int, make):
    pick = random.Random(seed)
    checked_window(make(pick), pick)


@pytest.mark.parametrize("seed", range(40))
def test_a_window_is_whole_lines_around_the_passage_using_its_room(seed: int):
    pick = random.Random(seed)
    text = lines(pick)  # lines, no row groups
    max_chars, start, end, lo, hi = checked_window(text, pick)
    assert lo == 0 or text[lo - 1] == "\n"  # whole lines (a line here is at most 10 characters)
    assert hi == len(text) or text[hi] == "\n"
    assert hi - lo > max_chars - 2 * 11  # the room is used, less a part line at each end
    if lo and hi < len(text):  # half the room before the passage, half after (less the cuts)
        assert abs((start - lo) - (hi - end)) <= 2 * 11


def test_a_cut_falls_on_a_row_group_or_line_starting_where_the_room_ends():
    text = "a" * 9 + "\n" + "b" * 9 + "\n" + "c" * 9 + "\n"  # lines of 10 characters
    assert text_window(text, 10, 20, max_chars=10) == TextWindow("b" * 9 + "\n", 10, 1, 1)
    assert text_window(text, 10, 19, max_chars=12).shown == "b" * 9  # the room ends past a line: back to its end
    groups = "a" * 8 + "\n\n" + "b" * 8 + "\n\n" + "c" * 8 + "\n\n"
    assert text_window(groups, 10, 18, max_chars=10).offset == 10  # a group starting where the room does
    assert text_window(text, 10, 19, max_chars=10).shown == "b" * 9  # a line ending where the room does
    assert text_window(groups, 10, 18, max_chars=9).shown == "b" * 8  # a group ending where the room does
    assert text_window("a\n" + text, 3, 5, max_chars=15).offset == 0  # near the start: the room left goes after
    inner = "a" * 8 + "\n\n" + "b" * 8 + "\n" + "c" * 8 + "\n" + "d" * 8 + "\n"  # a blank line inside the passage
    assert text_window(inner, 0, 18, max_chars=22).shown == inner[:18]  # no row group after it: cut at a line
    several = "a" * 8 + "\n\n" + "b" * 3 + "\n\n" + "c" * 3 + "\n\n" + "d" * 20
    assert text_window(several, 0, 8, max_chars=20).shown == several[:18]  # the last row group that fits
    assert TextWindow("abc", 5).span(0, 2) == (0, 0) and TextWindow("abc", 5).span(7, 99) == (2, 3)


def test_a_boundary_exactly_at_the_rooms_edge_is_taken():
    """A row group ending (or starting) exactly where the window's room does is inside the window, not cut off."""
    groups = "a" * 4 + "\n\n" + "b" * 4 + "\n\n" + "c" * 40
    assert text_window(groups, 0, 4, max_chars=10).shown == "aaaa\n\nbbbb"  # ends at 10, where the room does
    before = "x" * 40 + "\n\n" + "a" * 4 + "\n\n" + "b" * 4
    assert text_window(before, len(before) - 4, len(before), max_chars=10).shown == "aaaa\n\nbbbb"


def test_a_window_never_loses_most_of_its_room_to_a_boundary_near_the_passage():
    """A long text whose only break is right at the passage is cut where the room ends instead: the window is
    never empty (a passage not found, at the document's start that opens on a blank line, showed nothing)."""
    window = text_window("\n\n" + "x" * 900, 0, 0, max_chars=50)
    assert len(window.shown) > 25 and window.shown == ("\n\n" + "x" * 900)[:len(window.shown)]
    tail = "x" * 900 + "\n\n"
    late = text_window(tail, len(tail), len(tail), max_chars=50)
    assert len(late.shown) > 25 and late.offset + len(late.shown) == len(tail)


def test_a_cut_gives_up_at_most_half_the_window_and_never_passes_the_room():
    near = "\n\n" + "x" * 20 + "\n" + "x" * 900  # a line break 23 characters in: less than half of 50
    assert len(text_window(near, 0, 0, max_chars=50).shown) == 50
    after = "a" * 4 + "b" * 6 + "c" + "\n\n" + "d" * 40  # a row group ending one past the room
    assert text_window(after, 0, 4, max_chars=10).shown == "aaaabbbbbb"
    before = "d" * 40 + "\n\n" + "c" + "b" * 6 + "a" * 4  # one starting one before it
    assert text_window(before, len(before) - 4, len(before), max_chars=10).shown == "cbbbbbbaaaa"[1:]
