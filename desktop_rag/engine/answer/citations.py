"""Find and clean `[n]` passage citations in model answers (ASCII and full-width forms)."""

from __future__ import annotations

import re

# One bracketed group of 1-3 digit numbers: [1], [1, 2], [1-3], 【1】, ［2］, [1，2], 【1、2】, and a Markdown
# footnote's [^1] (which the answer view would show as it is). Four-digit numbers ([2023]) are not citations.
_NUM = r"\d{1,3}"
_SEP = r"\s*(?:,|，|、|;|；|-|–|~)\s*"
_MARKER = re.compile(rf"(?P<open>\[\^?|【|［)\s*(?P<body>{_NUM}(?:{_SEP}{_NUM})*)\s*(?P<close>\]|】|］)")
_RANGE = re.compile(rf"({_NUM})\s*(?:-|–|~)\s*({_NUM})")
_MAX_RANGE = 20


def _numbers(body: str) -> list[int]:
    """The numbers in one marker body, ranges expanded (short ranges only)."""
    out: list[int] = []
    for part in re.split(r"\s*(?:,|，|、|;|；)\s*", body):
        span = _RANGE.fullmatch(part)
        if span:
            lo, hi = int(span.group(1)), int(span.group(2))
            if lo <= hi and hi - lo <= _MAX_RANGE:
                out.extend(range(lo, hi + 1))
                continue
            out.extend((lo, hi))
        elif part.strip().isdigit():
            out.append(int(part))
    return out


def _matches(text: str) -> list[re.Match[str]]:
    """Citation markers, skipping Markdown links like [1](http://...)."""
    return [m for m in _MARKER.finditer(text) if not text.startswith("(", m.end())]


def clean_citations(text: str, n_passages: int) -> tuple[str, list[int]]:
    """Drop citations of passages that do not exist; return (text, cited numbers in first-use order).

    Kept markers are normalised to ASCII `[n]` (several numbers become `[1][2]`), so views can
    link them with one pattern. A removed marker takes one preceding space with it.
    """
    cited: dict[int, None] = {}
    pieces: list[str] = []
    pos = 0
    for m in _matches(text):
        valid = [n for n in _numbers(m.group("body")) if 1 <= n <= n_passages]
        valid = list(dict.fromkeys(valid))
        before = text[pos : m.start()]
        if valid:
            pieces.append(before + "".join(f"[{n}]" for n in valid))
            for n in valid:
                cited.setdefault(n, None)
        else:
            pieces.append(before[:-1] if before.endswith(" ") else before)
        pos = m.end()
    pieces.append(text[pos:])
    return "".join(pieces), list(cited)


# The end of streamed text that may still become (or still be) a marker: an opening bracket and what a marker body
# holds, maybe its closing bracket (a Markdown link's "(" may follow), and the one space a removed marker takes.
_OPEN_TAIL = re.compile(r"\s?(?:\[\^?|【|［)[\d\s,，、;；\-–~]*(?:\]|】|］)?\Z|\s\Z")
_MAX_TAIL = 48


class CitationStream:
    """`clean_citations` for an answer arriving in pieces: `feed` returns what can be shown now, `finish` the rest;
    together they are the finished answer's cleaned text (a marker split across pieces is cleaned whole)."""

    def __init__(self, n_passages: int) -> None:
        self._n = n_passages
        self._held = ""

    def feed(self, piece: str) -> str:
        text = self._held + piece
        tail = _OPEN_TAIL.search(text)
        cut = tail.start() if tail and len(text) - tail.start() <= _MAX_TAIL else len(text)
        self._held = text[cut:]
        return clean_citations(text[:cut], self._n)[0]

    def finish(self) -> str:
        held, self._held = self._held, ""
        return clean_citations(held, self._n)[0]
