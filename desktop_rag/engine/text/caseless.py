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


_MOST_PAIRS = 50_000  # marks next to marks looked at one by one in a piece; more: it is folded one by one


@lru_cache(maxsize=1)
def _mark_pairs() -> re.Pattern[str]:
    """Where a character whose decomposition or folding ends with a combining mark is followed by one whose
    decomposition or folding starts with one (every character beyond the BMP counted as both: a class of those
    would be searched slowly). Built once, in about a tenth of a second."""
    ends: list[list[int]] = []
    starts: list[list[int]] = []
    for code in range(0x10000):
        ch = chr(code)
        changed = unicodedata.decomposition(ch) or ch.casefold() != ch
        forms = (unicodedata.normalize("NFKD", ch), _fold_char(ch)) if changed else (ch,)
        for into, at in ((ends, -1), (starts, 0)):
            if any(unicodedata.combining(form[at]) for form in forms):
                if into and into[-1][1] == code - 1:
                    into[-1][1] = code
                else:
                    into.append([code, code])

    def spans(ranges: list[list[int]]) -> str:
        return "".join(f"\\u{first:04x}-\\u{last:04x}" for first, last in ranges) + "\\U00010000-\\U0010ffff"

    return re.compile(f"[{spans(ends)}](?=[{spans(starts)}])")


@lru_cache(maxsize=1 << 12)
def _swapped(first: str, second: str) -> bool:
    """Whether NFKD, sorting a run of marks by combining class, puts a mark of `second` before one of `first` (İ
    taken with its dot, as a text folded whole does not: at worst a piece folded one character at a time)."""
    decomposed = (unicodedata.normalize("NFKD", first), unicodedata.normalize("NFKD", second))
    for left, right in (decomposed, (_fold_char(first), _fold_char(second))):
        after = unicodedata.combining(right[0])
        if after and unicodedata.combining(left[-1]) > after:
            return True
    return False


def _moves_marks(text: str) -> bool:
    """Whether folding `text` whole moves a combining mark across characters (so it is not their foldings one after
    another): only where a character's marks end in a higher class than the next one's start."""
    for count, pair in enumerate(_mark_pairs().finditer(text)):
        at = pair.start()
        if count == _MOST_PAIRS or _swapped(text[at], text[at + 1]):
            return True
    return False


def _stays_put(needle: str) -> bool:
    """Whether `needle`'s characters all stand where they do in the characters' foldings one after another when a
    text is folded whole (which only moves combining marks, and U+0345, a mark sorted among marks before it folds to
    ι): so a needle not in the whole folding is not in the exact one."""
    return "\u03b9" not in needle and not any(map(unicodedata.combining, needle))


_MOST_OTHERS = 32  # characters folding into a needle's that are looked for in a piece; more: it is folded


@lru_cache(maxsize=1)
def _folded_from() -> dict[str, str]:
    """Each character that the folding of some other character holds (or whose own folding is not itself), to those
    other characters (itself among them then), over all of Unicode. Built once, in about a quarter of a second."""
    into: dict[str, str] = {}
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        if ch.casefold() == ch and unicodedata.is_normalized("NFKD", ch):
            continue  # folds to itself
        fold = _fold_char.__wrapped__(ch)  # not kept in its cache: most of these are never met
        if fold == ch:
            continue
        for part in set(fold) | {ch}:
            into[part] = into.get(part, "") + ch
    return into


@lru_cache(maxsize=8)  # asked once a piece of the text searched; few, as a needle may be long
def _others(needle: str) -> str | None:
    """The characters whose presence in a text could make a match of `needle` other than its very characters (None:
    more than _MOST_OTHERS, not worth looking for)."""
    into = _folded_from()
    others = "".join(sorted({other for ch in set(needle) for other in into.get(ch, "")}))
    return others if len(others) <= _MOST_OTHERS else None


def _only_itself(text: str, needle: str) -> bool:
    """Whether `needle` can only match its very characters in `text`, so its matches are `str.find`'s on the text,
    nothing folded: each of its characters folds to itself, and no other character of the text folds to anything
    holding one of them. No other character at all for most Han (not for about a thousand of the commonest, which
    Kangxi radicals and compatibility ideographs fold to), kana, many symbols; else the few there are are looked
    for in the text."""
    others = _others(needle)
    return others is not None and not any(other in text for other in others)


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
        moved a combining mark across characters (slow: a dictionary look-up per character); else the whole
        folding is that already."""
        if not self._text.isascii() and _moves_marks(self._text):
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
    if _only_itself(text, needle):
        at = text.rfind(needle) if last else text.find(needle)
        return None if at < 0 else (at, at + len(needle))
    return _find_folded(text, needle, last)


def _find_folded(text: str, needle: str, last: bool) -> tuple[int, int] | None:
    """`caseless_find` in the text's folding (any needle)."""
    folding = _Folding(text)
    if folding.folded.find(needle) < 0 and _stays_put(needle):
        return None  # not in the exact folding either
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
