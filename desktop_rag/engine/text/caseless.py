"""Caseless matching for Find (the viewer's, in a text document and on a PDF's pages): what a person typing a word
expects it to find, and exactly which characters of the original text matched.

The rule: each character is compared by its folding, `NFKD(casefold(NFKD(c)))` (Unicode's compatibility caseless
match, character by character), so
- any case matches: "istanbul" finds "İstanbul" (the Turkish capital İ folds to a plain "i": its dot is not an
  accent), "STRASSE" finds "straße" and "straße" finds "STRASSE" (ß and ẞ fold to "ss"), "ΟΔΟΣ" finds "οδος" (a
  final sigma is a sigma);
- compatibility forms match their plain letters: full-width "ＡＢＣ" is "abc", "１２" is "12", half-width "ｶ" is
  "カ", the ligature "ﬁ" is "fi", "①" and "²" are digits;
- accents count: "e" does not find "é", nor "cafe" "café"; a dotless "ı" is a letter of its own, not "i";
- only whole characters match: "s" does not find half of "ß", "e" not the "e" inside a precomposed "é", "가" not
  the start of "각"; a match is given back as the original characters whose foldings it covers, however long
  those foldings are.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import cached_property, lru_cache

_START = "\x01"  # a mark's first character: where a character's folding starts


@lru_cache(maxsize=1 << 16)
def _fold_char(ch: str) -> str:
    """One character's folding (never empty)."""
    return "i" if ch == "\u0130" else _folded(ch)


def _folded(text: str) -> str:
    """`text` folded whole at C speed: as one character at a time but for combining marks out of canonical order
    (NFKD puts them in it)."""
    return unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())


@lru_cache(maxsize=1)
def _leading_marks() -> re.Pattern[str]:
    """The characters whose folding, or decomposition, starts with a combining mark (the marks themselves, half-width
    "ﾞ", Tibetan "ཱི"), and any beyond the BMP (a class of those would be searched slowly): only these let NFKD move a
    mark across characters when a text is folded whole. Built once, in about 0.03 s."""
    combining = unicodedata.combining
    ranges: list[list[int]] = []
    for code in range(0x10000):
        ch = chr(code)
        if combining(ch) or ((unicodedata.decomposition(ch) or ch.casefold() != ch) and (
                combining(unicodedata.normalize("NFKD", ch)[0]) or combining(_fold_char(ch)[0]))):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    spans = "".join(f"\\u{first:04x}-\\u{last:04x}" for first, last in ranges)
    return re.compile(f"[{spans}\\U00010000-\\U{sys.maxunicode:08x}]")


class _Folding:
    """`text` folded (`folded`: whole, at C speed, until `per_character` makes it character by character where the
    two can differ) and, where foldings grow, the way back to its offsets."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._grown = False  # some character folds to more than one
        if text.isascii():
            self.folded = text.lower()
            return
        self.folded = _folded(text.replace("\u0130", "i"))
        self._grown = len(self.folded) != len(text)

    def per_character(self) -> None:
        """Make `folded` exactly the characters' foldings one after another where folding the text whole may have
        moved a combining mark across characters (slow: a dictionary look-up per character). Without such a mark
        the whole folding is that already (NFKD reorders only runs of marks, and none then spans two characters)."""
        if not self._text.isascii() and _leading_marks().search(self._text):
            self.folded = self._text.translate(self._folds)

    @cached_property
    def _folds(self) -> dict[int, str]:
        return {ord(ch): _fold_char(ch) for ch in set(self._text)}

    @cached_property
    def _marks(self) -> str | None:
        """Aligned with `folded`: _START where a character's folding starts (None: one character each). Made once a
        match is to be checked, not for a piece without one."""
        if not self._grown:
            return None
        return self._text.translate({key: _START.ljust(len(fold), "\0") for key, fold in self._folds.items()})

    def whole(self, start: int, end: int) -> bool:
        """Whether folded[start:end] begins and ends where characters' foldings do."""
        marks = self._marks
        return marks is None or all(at == len(marks) or marks[at] == _START for at in (start, end))

    def original(self, start: int, end: int) -> tuple[int, int]:
        """The text's offsets of folded[start:end] (whole characters)."""
        marks = self._marks
        if marks is None:
            return start, end
        first = marks.count(_START, 0, start)
        return first, first + marks.count(_START, start, end)


def caseless_fold(text: str) -> str:
    """`text` folded as Find compares it (the rule above)."""
    folding = _Folding(text)
    folding.per_character()
    return folding.folded


def caseless_find(text: str, needle: str, last: bool = False) -> tuple[int, int] | None:
    """The first (`last`: the last) span of `text` whose characters fold to `needle` (already `caseless_fold`ed), as the
    text's offsets; None: not there."""
    if not needle:
        return None
    folding = _Folding(text)
    if folding.folded.find(needle) < 0 and not any(map(unicodedata.combining, needle)):
        return None  # the exact folding differs at most in the order of combining marks: not there either
    folding.per_character()
    folded, length = folding.folded, len(needle)
    low, high = 0, len(folded)
    while True:
        at = folded.rfind(needle, low, high) if last else folded.find(needle, low, high)
        if at < 0:
            return None
        if folding.whole(at, at + length):
            return folding.original(at, at + length)
        if last:
            high = at + length - 1
        else:
            low = at + 1
