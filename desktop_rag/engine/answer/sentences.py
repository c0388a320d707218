"""The sentences of passages, as the extractive answer and context compression read them: English and Chinese
sentence ends, hard-wrapped lines joined, headings told apart, the words (terms) a sentence holds; and each
passage's quotable sentences, a table row quoted under its header.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_rag.engine.ingest.tables import markdown_tables
from desktop_rag.engine.text.terms import HAN_RUN, QUESTION_STOPWORDS, fold, stem, tokens
from desktop_rag.engine.store.values import Hit

MAX_SENTENCE_CHARS = 300

# Sentence ends: . ! ? before whitespace (not after an abbreviation or initial), and Chinese
# 。！？； with any closing quotes/brackets that follow them.
_EN_END = re.compile(r"(?<=[.!?])\s+")
_ZH_END = re.compile(r"([。！？；]+[”’」』）)]*)")
_BLOCK_START = re.compile(r"(#{1,6}\s|[-*•·]\s|\d{1,3}[.)、]\s?|[（(]?\d{1,3}[）)])")
_HEADING = re.compile(r"#{1,6}\s")  # a Markdown heading is one line: nothing joins onto it
_HEAD_CHARS = 8  # _HEADING matches within a line's first 7 characters
_ABBREVIATIONS = frozenset("e.g. i.e. etc. vs. mr. mrs. ms. dr. prof. fig. no. p. pp. cf. approx.".split())
_WORD_TAIL = max(map(len, _ABBREVIATIONS)) + 1  # a word this long is no abbreviation and no initial
_ZH_STOP_CHARS = frozenset("的了是在和与及或吗呢吧啊么什怎如何哪谁为请问这那个些有也都就把被给对从到中上下里一不我你他她它们")


# A sentence that opens by referring back to the one before it (a pronoun, a demonstrative, a connective)
_CONTINUES = re.compile(r"(它|他|她|这|该|此|其|那(些|时|个|里|么|样)|后者|前者|同时|因此|所以|但(?!丁)|然而|并且|而且"
                        r"|此外|另外|随后|之后)|(it|its|this|these|they|their|he|his|she|her|that|those|however|thus"
                        r"|therefore|then|later|as a result)\b", re.I)


@dataclass(frozen=True)
class Sentence:
    """A quotable sentence: its text (a table row: "name: value; ..." under its header), its passage's position in
    the hits, its position there, its terms, and for a table row the row's span in the passage's text."""

    text: str
    hit_index: int  # 0-based position of its passage in `hits`
    position: int
    terms: frozenset[str]
    span: tuple[int, int] | None = None  # a table row: where its line is (the focus); else found by its text
    parts: int = 1  # the sentences its text holds: more when one continues another (`joined`)


def continues(sentence: Sentence) -> bool:
    """Whether a sentence of prose opens by referring back to the one before it ("它位于…", "This makes…"): alone,
    it is half a statement."""
    return sentence.span is None and _CONTINUES.match(sentence.text) is not None


def joined(first: Sentence, then: Sentence) -> Sentence:
    """`first` quoted with the sentence that continues it, as one quote (a space between them unless `first` ends in
    Chinese)."""
    glue = "" if first.text[-1:] in "。！？；" or HAN_RUN.fullmatch(first.text[-1:]) else " "
    return Sentence(first.text + glue + then.text, first.hit_index, first.position, first.terms | then.terms,
                    parts=first.parts + then.parts)


def _unwrap(text: str) -> str:
    """Join hard-wrapped lines; keep breaks at blank lines, list items and around headings.

    Each output line is built as a list of parts (joined once at the end), so a long paragraph costs linear time.
    """
    lines: list[list[str]] = []
    heads: list[str] = []  # each output line's first characters, enough to tell a Markdown heading
    for line in text.splitlines():
        line = line.strip()
        if not line or not lines or _BLOCK_START.match(line) or lines[-1] == [""] or _HEADING.match(heads[-1]):
            lines.append([line])
            heads.append(line[:_HEAD_CHARS])
            continue
        glue = "" if HAN_RUN.fullmatch(lines[-1][-1][-1]) and HAN_RUN.fullmatch(line[0]) else " "
        lines[-1].append(glue + line)
        if len(heads[-1]) < _HEAD_CHARS:
            heads[-1] = (heads[-1] + glue + line)[:_HEAD_CHARS]
    return "\n".join("".join(parts) for parts in lines)


def split_sentences(text: str) -> list[str]:
    """English and Chinese sentences, stripped, without empty pieces (wrapped lines joined)."""
    marked = _ZH_END.sub(lambda m: m.group(1) + "\n", _unwrap(text))
    marked = _EN_END.sub(_english_break, marked)
    return [" ".join(p.split()) for p in marked.split("\n") if p.strip()]


def is_heading_like(sentence: str) -> bool:
    """Markdown headings and short unpunctuated fragments (titles) make poor answers."""
    if sentence.startswith("#"):
        return True
    if sentence[-1:] in ".!?。！？；;:：…)）”\"":
        return False
    if re.search(r"\d", sentence):
        return False
    cjk = sum(len(r) for r in HAN_RUN.findall(sentence))
    return cjk < 12 if cjk else len(sentence.split()) < 10


def _english_break(m: re.Match[str]) -> str:
    """A newline after a sentence end, but not after an abbreviation or a single initial."""
    before = m.string[max(0, m.start() - _WORD_TAIL): m.start()].rsplit(None, 1)  # (not the whole text before)
    word = before[-1].lower() if before else ""
    if word in _ABBREVIATIONS or re.fullmatch(r"[a-z]\.", word):
        return m.group(0)
    return "\n"


def terms(text: str) -> frozenset[str]:
    """Folded, stemmed words (no stopwords or request words) and CJK bigrams (not of two function characters)."""
    out: set[str] = set()
    for m in tokens(text):
        run, word = m.group(1), m.group(2)
        if word is not None:
            w = fold(word)
            if w not in QUESTION_STOPWORDS:
                out.add(stem(w))
            continue
        if len(run) == 1 and run not in _ZH_STOP_CHARS:
            out.add(run)
        for a, b in zip(run, run[1:]):
            if not (a in _ZH_STOP_CHARS and b in _ZH_STOP_CHARS):
                out.add(a + b)
    return frozenset(out)


def candidates(hits: Sequence[Hit], quotable: Sequence[int], question: str = "") -> list[Sentence]:
    """The passages' sentences that may be quoted: not a repeat, not a heading, found in the passage; a Markdown
    table's rows as records under their header (`question`: which cells to keep when a row is too long).

    A sentence is found in its passage when its non-space characters come next among the passage's
    (split_sentences keeps every non-space character, in order): one pass, not one search per sentence.
    """
    seen: set[str] = set()
    out: list[Sentence] = []
    asked = terms(question)
    for i in quotable:
        text, position = hits[i].text, 0
        at = 0
        for table in markdown_tables(text) if "|" in text else ():
            position = _prose(text[at:table.start], i, position, seen, out)
            for cells, span in table.rows:
                shown = row_record(table.header, cells, asked)
                if shown and shown.lower() not in seen:
                    seen.add(shown.lower())
                    out.append(Sentence(shown, i, position, terms(shown), span))
                position += 1
            at = table.end
        _prose(text[at:], i, position, seen, out)
    return out


def _prose(text: str, hit_index: int, position: int, seen: set[str], out: list[Sentence]) -> int:
    letters, at = "".join(text.split()), 0
    for sentence in split_sentences(text):
        key = "".join(sentence.split())
        found = letters.startswith(key, at)  # a quote must exist in its source (up to whitespace)
        at += len(key) if found else 0
        if found and sentence.lower() not in seen and not is_heading_like(sentence):  # overlapping chunks repeat
            seen.add(sentence.lower())
            out.append(Sentence(sentence, hit_index, position, terms(sentence)))
        position += 1
    return position


def row_record(header, cells, asked: frozenset[str] = frozenset()) -> str:
    """A table row as "name: value; name: value" under its header (cells alone without one); past
    MAX_SENTENCE_CHARS only the first cell and the cells whose name or value holds a word of the question."""
    pairs = [(header[k].text if header is not None and k < len(header) else "", c.text) for k, c in enumerate(cells)]
    pairs = [(name, value) for name, value in pairs if value]
    shown = _joined(pairs)
    if len(shown) > MAX_SENTENCE_CHARS and asked:
        kept = [p for k, p in enumerate(pairs) if k == 0 or terms(f"{p[0]} {p[1]}") & asked]
        shown = _joined(kept) + ("; …" if len(kept) < len(pairs) else "")
    return shown


def _joined(pairs: list[tuple[str, str]]) -> str:
    return "; ".join(f"{name}: {value}" if name else value for name, value in pairs)
