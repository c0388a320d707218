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


class _Folding:
    """`text` folded character by character (`folded`) and, where foldings grow, the way back to its offsets."""

    def __init__(self, text: str) -> None:
        self._text, self._folds = text, None
        if text.isascii():
            self.folded = text.lower()
            return
        self.folded = _folded(text.replace("\u0130", "i"))
        if len(self.folded) != len(text):  # a character grew: folded one by one
            self._folds = {ord(ch): _fold_char(ch) for ch in set(text)}
            self.folded = text.translate(self._folds)

    @cached_property
    def _marks(self) -> str | None:
        """Aligned with `folded`: _START where a character's folding starts (None: one character each). Made once a
        match is to be checked, not for a piece without one."""
        if self._folds is None:
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
    return _Folding(text).folded


def caseless_find(text: str, needle: str, last: bool = False) -> tuple[int, int] | None:
    """The first (`last`: the last) span of `text` whose characters fold to `needle` (already `caseless_fold`ed), as the
    text's offsets; None: not there."""
    if not needle:
        return None
    folding = _Folding(text)
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
