"""Text cleaning: control characters, spacing, page numbers, repeated headers/footers, broken lines."""

from __future__ import annotations

import math
import re
from collections import Counter

from desktop_rag.engine.text.terms import CJK, CJK_PUNCTUATION, HAN, KANA

# Control characters (C0 except \t and \n, DEL, C1) and invisible format characters.
_DROP = {c: None for c in [*range(0, 9), 11, 12, *range(14, 32), *range(127, 160)]}
_DROP.update({ord(c): None for c in "\u200b\u200c\u200d\u2060\ufeff\u00ad"})
_DROP.update({ord("\u00a0"): " ", ord("\u3000"): " ", ord("\u2028"): "\n", ord("\u2029"): "\n\n"})
_DROP.update({ord(k): v for k, v in {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl"}.items()})

_SPACES = re.compile(r"[ \t\f\v]{2,}")
_MANY_BLANKS = re.compile(r"\n{3,}")
_FENCE = re.compile(r"^\s*(```|~~~)")

_PAGE_NUMBER = re.compile(
    r"""^(?:
        [-–—]?\s*\d{1,4}\s*[-–—]?                                  # 12, - 12 -
      | [-–—]?\s*(?-i:(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))\s*[-–—]?  # iv, - xii -
      | (?:page|p\.|pg\.?)\s*\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?      # Page 3, Page 3 of 10
      | \d{1,4}\s*/\s*\d{1,4}                                      # 3 / 10
      | (?:共\s*\d{1,4}\s*页\s*[,，]?\s*)?第\s*[\d一二三四五六七八九十百零〇]{1,6}\s*页
        (?:\s*[,，/]?\s*共\s*\d{1,4}\s*页)?                          # 第 3 页, 第3页 共10页
    )$""",
    re.IGNORECASE | re.VERBOSE,
)

# Characters written without spaces between them (Chinese and Japanese; not Hangul, whose words are spaced):
# ideographs, kana, CJK and full-width punctuation and digits, the ellipsis and dash of tables of contents.
_UNSPACED = f"{HAN}{KANA}\u3001-\u303f\uff01-\uff20\uff3b-\uff40\uff5b-\uff9f\u2026\u2014\u00b7"
_SPACE_IN_CJK = re.compile(f"(?<=[{_UNSPACED}])[ \t]+(?=[{_UNSPACED}])")

_SENTENCE_END = tuple(".!?:;。！？；：…\"'”’)]）】」』")
_CJK_STOP = "。！？；：…"
_NUMBERED_HEADING = re.compile(
    rf"^(?:\d+(?:\.\d+)*\.?\s+[A-Z{HAN}].{{0,80}}"
    r"|第\s*[\d一二三四五六七八九十百零〇]+\s*[章节篇部条]\S*.{0,40}"
    r"|[一二三四五六七八九十]+、.{1,40}"
    r"|(?:Chapter|CHAPTER|Appendix|APPENDIX)\s+\S+.{0,60})$",
)
_CJK_OR_PUNCTUATION = re.compile(f"[{CJK}{CJK_PUNCTUATION}]")
_LIST_OR_BLOCK = re.compile(r"^(?:[-*+>|#]\s|\d+[.)]\s|[-*+]$|#{1,6}$|\|)")


def normalize_text(text: str) -> str:
    """Normalise newlines, drop control characters and collapse runs of spaces.

    Leading indentation inside fenced code blocks is kept; elsewhere lines are stripped.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_DROP)
    out: list[str] = []
    in_fence = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
            out.append(line.strip())
        elif in_fence:
            out.append(line.rstrip())
        else:
            out.append(_SPACES.sub(" ", line).strip())
    return _MANY_BLANKS.sub("\n\n", "\n".join(out)).strip("\n")


def remove_cjk_spaces(text: str) -> str:
    """Drop the spaces PDF extractors put between Chinese or Japanese characters ("目 录" -> "目录"); spaces
    between Latin words, next to Latin letters or digits, and between Korean words stay."""
    return _SPACE_IN_CJK.sub("", text)


def is_page_number_line(line: str) -> bool:
    """True for lines that hold only a page number ("12", "- 12 -", "Page 3 of 10", "第 3 页")."""
    s = line.strip()
    return bool(s) and len(s) <= 30 and _PAGE_NUMBER.match(s) is not None


def remove_page_number_lines(text: str) -> str:
    """Drop lines that hold only a page number."""
    return "\n".join(ln for ln in text.split("\n") if not is_page_number_line(ln))


def _line_key(line: str) -> str:
    """Normalised form of a header/footer candidate: lower-case, digits masked, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"\d+", "#", line.strip().lower()))


def _edge_indices(lines: list[str], edge_lines: int) -> list[int]:
    """Indices of the first and last `edge_lines` non-blank lines."""
    filled = [i for i, ln in enumerate(lines) if ln.strip()]
    return sorted(set(filled[:edge_lines] + filled[-edge_lines:])) if filled else []


def strip_repeated_lines(
    pages: list[str], *, edge_lines: int = 2, threshold: float = 0.6, min_pages: int = 3
) -> list[str]:
    """Remove header/footer lines that repeat at the top or bottom of most pages.

    A line counts as repeated when its normalised form (digits masked) is among the first
    or last `edge_lines` non-blank lines of at least `threshold` of the pages, and of at
    least `min_pages` pages.
    """
    if len(pages) < min_pages:
        return list(pages)
    split = [p.split("\n") for p in pages]
    counts: Counter[str] = Counter()
    for lines in split:
        counts.update({_line_key(lines[i]) for i in _edge_indices(lines, edge_lines)})
    needed = max(min_pages, math.ceil(threshold * len(pages)))
    repeated = {k for k, n in counts.items() if n >= needed and k}
    if not repeated:
        return list(pages)
    result = []
    for lines in split:
        drop = {i for i in _edge_indices(lines, edge_lines) if _line_key(lines[i]) in repeated}
        result.append("\n".join(ln for i, ln in enumerate(lines) if i not in drop).strip("\n"))
    return result


def _is_cjk(ch: str) -> bool:
    """CJK ideographs, kana, Hangul and CJK/full-width punctuation."""
    return _CJK_OR_PUNCTUATION.match(ch) is not None


def _is_heading_like(line: str) -> bool:
    """Markdown headings, numbered headings ("1.2 Install", "第一章 概述"), list items, table rows."""
    return bool(_LIST_OR_BLOCK.match(line) or _NUMBERED_HEADING.match(line) or " | " in line)


def _join_kind(prev: str, nxt: str) -> str | None:
    """How to join two adjacent non-blank lines: 'hyphen', 'space', 'tight' or None (keep)."""
    if _is_heading_like(prev) or _is_heading_like(nxt):
        return None
    last, first = prev[-1], nxt[0]
    if last == "-" and len(prev) > 1 and prev[-2].isalpha() and first.islower():
        return "hyphen"
    if _is_cjk(last) and last not in _CJK_STOP and _is_cjk(first):
        return "tight"
    if first.islower() and first.isascii() and not prev.endswith(_SENTENCE_END):
        return "space"
    return None


def join_broken_lines(text: str) -> str:
    """Join lines broken mid-sentence; keep headings, lists, code blocks and blank lines.

    English: a line without closing punctuation followed by a lower-case line joins with a
    space; "exam-" + "ple" becomes "example". Chinese: a line ending in a CJK character
    (not 。！？；：) followed by a CJK line joins with no space.
    """
    out: list[str] = []  # finished lines
    parts: list[str] = []  # pieces of the line being built (joined with "" at the end)
    prev = ""  # the last original line in `parts`
    in_fence = False
    for line in text.split("\n"):
        structural = bool(_FENCE.match(line)) or in_fence or not line.strip()
        kind = None if structural or not parts else _join_kind(prev, line)
        if kind is None:
            if parts:
                out.append("".join(parts))
            parts = [line]
        elif kind == "hyphen":
            parts[-1] = parts[-1][:-1]
            parts.append(line)
        else:
            parts.append(" " if kind == "space" else "")
            parts.append(line)
        prev = line
        if _FENCE.match(line):
            in_fence = not in_fence
        if structural:  # nothing joins onto a fence, code or blank line
            out.append("".join(parts))
            parts = []
    if parts:
        out.append("".join(parts))
    return "\n".join(out)


def clean_text(text: str, *, join_lines: bool = True, page_numbers: bool = False) -> str:
    """The standard pipeline for one block of text."""
    text = normalize_text(text)
    if page_numbers:
        text = remove_page_number_lines(text)
    if join_lines:
        text = join_broken_lines(text)
    return _MANY_BLANKS.sub("\n\n", text).strip()


def clean_pages(pages: list[str]) -> list[str]:
    """Clean the pages of one PDF: spaces between CJK characters, page numbers, repeated headers/footers, broken
    lines."""
    pages = [remove_page_number_lines(remove_cjk_spaces(normalize_text(p))) for p in pages]
    pages = strip_repeated_lines(pages)
    return [clean_text(p) for p in pages]
