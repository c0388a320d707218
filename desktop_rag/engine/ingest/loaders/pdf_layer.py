"""Is a page's text layer garbage? Private-use, replacement and control characters, `(cid:n)`, characters PDFium
could not map to Unicode, Latin-1 mojibake of GBK / Shift-JIS / Big5 bytes, and script mixes no language has.

`broken(text, unmapped)` names the first sign found (None: the text is readable). It reads raw extracted text
(before cleaning) and costs well under a millisecond for a dense page, so every page is checked.
"""

from __future__ import annotations

import re
import unicodedata

MIN_CHARS = 12  # fewer non-space characters than this: too little to judge (a page number, a stray mark)
BAD_SHARE = 0.3  # this share of private-use / replacement / control characters or (cid:n) marks: garbage
MOJIBAKE_SHARE = 0.4  # this share of Latin-1 letters and signs that decode as GBK / Shift-JIS / Big5 text
MIXED_WORD_SHARE = 0.3  # this share of words mixing two scripts (other than Latin with CJK), of at least 5 words
# PDFium flags characters it found no Unicode value for, but also many it guessed right from glyph names: a page
# with UNMAPPED_SHARE of them is garbage only with a second sign, weaker than the ones above:
UNMAPPED_SHARE = 0.5
UNMAPPED_BAD_SHARE = 0.05  # control / private-use characters (glyph numbers below 32 shown as characters)
UNMAPPED_SYMBOL_SHARE = 0.35  # ASCII punctuation and symbols (glyph numbers of a shifted alphabet: "5(&20('$&")
UNMAPPED_ODD_SHARE = 0.5  # Latin Extended-B, IPA and spacing modifier letters (a shifted Cyrillic alphabet)
UNMAPPED_VOWEL_SHARE = 0.2  # of at least 40 ASCII letters, this few vowels (a shifted Latin alphabet: "7KHOLJKW")
UNMAPPED_FAMILIES = 3  # letters of this many non-Latin scripts, each at least 3 % of the letters

_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ue000-\uf8ff\ufffd\ufffe\uffff\U000f0000-\U0010ffff]")
_CID = re.compile(r"\(cid:\d+\)")
# Latin-1 letters and signs and the characters Windows-1252 puts at 0x80-0x9F: what GBK or Shift-JIS bytes look like
# when read as Latin-1 or Windows-1252
_LATIN_HIGH = re.compile("[\u00a1-\u00ff\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
                         "\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]")
_SYMBOL = re.compile("[!-/:-@\\[-`{-~]")
_ODD = re.compile("[\u0180-\u02ff]")
_ASCII_LETTER = re.compile("[A-Za-z]")
_VOWEL = re.compile("[AEIOUYaeiouy]")
_SPACE = re.compile(r"\s+")
_WORD_BREAK = re.compile(r"[\W_]+")
_CJK_WORDS = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO", "IDEOGRAPHIC", "KATAKANA-HIRAGANA")
_SKIP_WORDS = ("MODIFIER", "SMALL", "SUPERSCRIPT", "SUBSCRIPT", "COMBINING", "MATHEMATICAL", "DOUBLE-STRUCK",
               "SCRIPT", "BLACK-LETTER", "PARENTHESIZED", "CIRCLED", "SQUARED", "NEGATIVE", "TAG")
_family_cache: dict[str, str] = {}


def _family(ch: str) -> str:
    """The script family of a non-ASCII letter or digit: "Latin", "CJK", "GREEK", ...; "" when not telling."""
    family = _family_cache.get(ch)
    if family is not None:
        return family
    family = ""
    if unicodedata.category(ch)[0] in "LN":
        words = unicodedata.name(ch, "").split()
        while words and words[0] in ("FULLWIDTH", "HALFWIDTH"):
            words = words[1:]
        if words and words[0] not in _SKIP_WORDS:
            first = words[0]
            family = "CJK" if first in _CJK_WORDS else "Latin" if first in ("LATIN", "DIGIT") else first
    if len(_family_cache) < 200_000:
        _family_cache[ch] = family
    return family


def _mojibake_share(text: str, total: int) -> float:
    """Share of the text that, written back as Windows-1252 / Latin-1 bytes, reads as GBK, Shift-JIS or Big5 CJK
    text (two bytes a character; spaces kept, so a table of single accented letters does not pair up)."""
    if len(_LATIN_HIGH.findall(text)) < MOJIBAKE_SHARE * total:
        return 0.0
    data = _SPACE.sub(" ", text).encode("cp1252", "ignore")
    best = 0
    for codec in ("gbk", "cp932", "cp950"):
        decoded = data.decode(codec, "replace")
        best = max(best, sum(1 for c in decoded if not "\uff61" <= c <= "\uff9f" and _family(c) == "CJK"))
    return 2 * best / max(total, 1)


def _scripts(text: str) -> tuple[float, int]:
    """(share of words mixing two scripts other than Latin with CJK, number of non-Latin scripts with at least 3 %
    of the letters)."""
    counts: dict[str, int] = {}
    letters = mixed = words = 0
    for word in _WORD_BREAK.split(text):
        families = set()
        for ch in word:
            family = ("Latin" if ch.isalnum() else "") if ch.isascii() else _family(ch)
            if family:
                families.add(family)
                counts[family] = counts.get(family, 0) + 1
                letters += 1
        if families:
            words += 1
            mixed += len(families) >= 2 and bool(families - {"Latin", "CJK"})
    foreign = sum(1 for f, n in counts.items() if f != "Latin" and n >= 0.03 * letters)
    return (mixed / words if words >= 5 else 0.0), foreign


def _few_vowels(compact: str) -> bool:
    letters = len(_ASCII_LETTER.findall(compact))
    return letters >= 40 and len(_VOWEL.findall(compact)) < UNMAPPED_VOWEL_SHARE * letters


def broken(text: str, unmapped: float = 0.0) -> str | None:
    """Why `text` (one page, as extracted) is not readable text, or None when it is.

    `unmapped` is the share of the page's characters PDFium found no Unicode value for (a font with no usable
    ToUnicode map or encoding: the "text" may be glyph numbers)."""
    compact = _SPACE.sub("", text)
    total = len(compact)
    if total < MIN_CHARS:
        return None
    cid = sum(len(m) for m in _CID.findall(compact))
    bad = (len(_BAD.findall(compact)) + cid) / total
    if bad >= BAD_SHARE:
        return "(cid:n) marks" if cid else "private-use or control characters"
    ascii_only = compact.isascii()
    if not ascii_only and _mojibake_share(text, total) >= MOJIBAKE_SHARE:
        return "mojibake"
    mixed, families = (0.0, 0) if ascii_only else _scripts(text)
    if mixed >= MIXED_WORD_SHARE:
        return "script mix"
    if unmapped >= UNMAPPED_SHARE and (
        bad >= UNMAPPED_BAD_SHARE or len(_SYMBOL.findall(compact)) >= UNMAPPED_SYMBOL_SHARE * total
        or len(_ODD.findall(compact)) >= UNMAPPED_ODD_SHARE * total or families >= UNMAPPED_FAMILIES
        or _few_vowels(compact)
    ):
        return "no Unicode map"
    return None
