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
UNMAPPED_SHARE = 0.5  # this share of characters PDFium found no Unicode for: garbage
MOJIBAKE_SHARE = 0.4  # this share of Latin-1 letters and signs that decode as GBK / Shift-JIS / Big5 text
MIX_FAMILIES = 3  # letters from this many non-Latin scripts (each at least MIX_MIN_SHARE of the letters)
MIX_MIN_SHARE = 0.03
MIXED_WORD_SHARE = 0.3  # this share of words mixing two scripts (other than Latin with CJK)

_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ue000-\uf8ff\ufffd\ufffe\uffff\U000f0000-\U0010ffff]")
_CID = re.compile(r"\(cid:\d+\)")
_HIGH_RUN = re.compile("[\u00a1-\u00ff]+")
_SPACE = re.compile(r"\s+")
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
    """Share of the characters that are Latin-1 runs decoding, as bytes, to CJK text in GBK, Shift-JIS or Big5."""
    runs = _HIGH_RUN.findall(text)
    high = sum(len(r) for r in runs)
    if high < MOJIBAKE_SHARE * total:
        return 0.0
    best = 0
    for codec in ("gbk", "cp932", "cp950"):
        decoded = 0
        for run in runs:
            try:
                out = run.encode("latin-1").decode(codec)
            except UnicodeError:
                continue
            if any(_family(c) == "CJK" for c in out):
                decoded += len(run)
        best = max(best, decoded)
    return best / total


def _script_mix(text: str) -> str | None:
    """"script mix" when the letters come from too many scripts, or too many words mix two."""
    counts: dict[str, int] = {}
    letters = 0
    mixed = words = 0
    for word in _SPACE.split(text):
        families = set()
        for ch in word:
            family = "Latin" if ch.isascii() and ch.isalnum() else "" if ch.isascii() else _family(ch)
            if family:
                families.add(family)
                counts[family] = counts.get(family, 0) + 1
                letters += 1
        if families:
            words += 1
            if len(families) >= 2 and families - {"Latin", "CJK"}:
                mixed += 1
    if not letters:
        return None
    foreign = [f for f, n in counts.items() if f != "Latin" and n >= MIX_MIN_SHARE * letters]
    if len(foreign) >= MIX_FAMILIES:
        return "script mix"
    if words >= 5 and mixed >= MIXED_WORD_SHARE * words:
        return "script mix"
    return None


def broken(text: str, unmapped: float = 0.0) -> str | None:
    """Why `text` (one page, as extracted) is not readable text, or None when it is.

    `unmapped` is the share of the page's characters PDFium could not map to Unicode (a font without a usable
    ToUnicode map or encoding: the "text" is glyph numbers)."""
    compact = _SPACE.sub("", text)
    total = len(compact)
    if total < MIN_CHARS:
        return None
    if unmapped >= UNMAPPED_SHARE:
        return "no Unicode map"
    cid = sum(len(m) for m in _CID.findall(compact))
    if (len(_BAD.findall(compact)) + cid) >= BAD_SHARE * total:
        return "(cid:n) marks" if cid else "private-use or control characters"
    if compact.isascii():
        return None
    if _mojibake_share(compact, total) >= MOJIBAKE_SHARE:
        return "mojibake"
    return _script_mix(text)
