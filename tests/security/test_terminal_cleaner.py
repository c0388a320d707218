"""The terminal cleaner: every kind of sequence removed, whole or split at any point of a stream."""

from __future__ import annotations

import re

import pytest

from desktop_rag.cli.terminal import StreamCleaner, clean, clean_line

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
CASES = {
    "osc title + clear screen": ("a \x1b]0;pwned\x07\x1b[2J b", "a  b"),
    "colours": ("\x1b[1;31mred\x1b[0m", "red"),
    "8-bit csi and osc": ("x\x9b2Jy\x9d0;t\x9cz", "xyz"),
    "hyperlink with ST": ("\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"),
    "dcs": ("\x1bP1$r\x1b\\ok", "ok"),
    "unterminated osc": ("keep \x1b]0;lost", "keep "),
    "carriage return, backspace, bell": ("one\r\ntwo\rthree\x08\x07", "one\ntwothree"),
    "bidi override": ("file\u202egpj.exe", "filegpj.exe"),
    "tabs, newlines and Chinese kept": ("中文\t表格\n第二行", "中文\t表格\n第二行"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_clean_removes_sequences_whole_and_split_at_every_point(name):
    raw, expected = CASES[name]
    assert clean(raw) == expected
    for size in (1, 2, 3):
        cleaner = StreamCleaner()
        pieces = [raw[i:i + size] for i in range(0, len(raw), size)]
        streamed = "".join(cleaner.feed(p) for p in pieces) + cleaner.finish()
        assert streamed == expected, (size, streamed)


def test_a_never_ending_sequence_is_not_held_forever():
    cleaner = StreamCleaner()
    out = cleaner.feed("a\x1b]0;") + "".join(cleaner.feed("x" * 1000) for _ in range(10)) + cleaner.feed("b")
    assert not CONTROL.search(out + cleaner.finish())
    assert len(out) < 10_000 and set(out) == {"a", "x", "b"}  # what follows the dropped part is its text
    cleaner = StreamCleaner()
    assert cleaner.feed("\x1b]0;" + "x" * 4092) == ""  # 4,096 characters: still held
    assert cleaner.feed("x") == ""  # one more: dropped
    assert cleaner.feed("x") == "x"


def test_finish_empties_the_cleaner():
    cleaner = StreamCleaner()
    assert cleaner.feed("a\x1b[") == "a" and cleaner.finish() == ""
    assert cleaner.feed("b") == "b" and cleaner.finish() == ""


def test_clean_line_keeps_a_name_on_one_line():
    assert clean_line("report\n[2] fake.pdf\x1b[2J") == "report [2] fake.pdf\ufffd"
    assert clean_line("two  spaces\tand\ttabs\nkept") == "two  spaces and tabs kept"


def test_clean_line_marks_what_it_takes_out_of_a_name():
    """A name's escape sequence taken out without a trace read as another file's name ("evilname.txt")."""
    assert clean_line("evil\x1b[2J\x07\u202ename.txt") == "evil\ufffd\ufffd\ufffdname.txt"
    assert clean("red \x1b[31mtext\x1b[0m") == "red text"  # an answer's text: taken out
