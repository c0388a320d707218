"""The answer without a language model: the most relevant sentences of the passages, each cited."""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.config import resource_path
from desktop_rag.engine.document.locate import find_passage, keyed
from desktop_rag.engine.messages import message
from desktop_rag.engine.text.language import text_languages
from desktop_rag.engine.text.terms import HAN_RUN, QUESTION_STOPWORDS, fold, has_han, stem, tokens
from desktop_rag.engine.store.values import Hit

# (question, sentences) -> similarity of each sentence to the question, by meaning (the embedding model)
Similarity = Callable[[str, list[str]], list[float]]
CROSS_LANGUAGE_PASSAGES = 2  # top-ranked passages in another language that contribute their best sentence

MAX_SENTENCE_CHARS = 300
RELATIVE_FLOOR = 0.3  # keep sentences scoring at least this share of the best one
MEANING_MARGIN = 0.05  # an other-language passage's sentence is kept within this cosine of the best such sentence
# The answer's one notice (no model configured) is the DoneEvent's notice (answering.py), not a line here.

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


@dataclass(frozen=True)
class _Sentence:
    text: str
    hit_index: int  # 0-based position of its passage in `hits`
    position: int
    terms: frozenset[str]


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


def _is_heading_like(sentence: str) -> bool:
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


# Question intents and the sentence features that answer them (a small boost, not a filter).
_NUMBER = r"\d|[一二两三四五六七八九十百千万半]"
_INTENTS = (
    (re.compile(r"how (many|much|long|hot|cold|old|far|often)|temperature|ratio|price|cost|多少|几|多久|多长|温度|比例|价格", re.I),
     re.compile(_NUMBER)),
    (re.compile(r"\bwhere\b|哪里|在哪|什么地方|何处|地址|位置", re.I),
     re.compile(r"地址|地点|位于|位置|楼|路|address|located|location|floor|building|street|room", re.I)),
    (re.compile(r"\bwhen\b|what time|什么时候|何时|哪天|几点|日期", re.I),
     re.compile(_NUMBER + r"|月|日|星期|周|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\b(am|pm)\b", re.I)),
)
INTENT_BOOST = 1.6


def _intent_patterns(question: str) -> list[re.Pattern[str]]:
    return [answer for asks, answer in _INTENTS if asks.search(question)]


_MARKDOWN_ACTIVE = re.compile(r"([\\`<\[\]])")


def _as_markdown_text(sentence: str) -> str:
    """A document's sentence as literal Markdown text: it cannot open a link, an image, HTML or a code span."""
    return _MARKDOWN_ACTIVE.sub(r"\\\1", sentence)


def _clip(sentence: str) -> str:
    return sentence if len(sentence) <= MAX_SENTENCE_CHARS else sentence[: MAX_SENTENCE_CHARS - 1].rstrip() + "…"


# The app's own help text (a bundled sample) answers questions about the app, not about the user's documents.
_HELP_TEXT = ("samples", "getting-started.md")
_ABOUT_APP = re.compile(r"desktop[\s-]?rag|\b(this|the) (app|application|program|software)\b|本(应用|软件|程序)|这个(应用|软件|程序)",
                        re.I)


@functools.cache
def _help_text_path() -> Path:
    return resource_path(*_HELP_TEXT).resolve()


def _help_text(path: str) -> bool:
    try:
        return Path(path).resolve() == _help_text_path()
    except (OSError, ValueError):
        return False


def _quotable(question: str, hits: Sequence[Hit]) -> list[int]:
    """Positions of the passages an answer may quote: the app's help text only when it is the best passage or
    the question names the app."""
    about_app = bool(_ABOUT_APP.search(question))
    return [i for i, hit in enumerate(hits) if i == 0 or about_app or not _help_text(hit.path)]


def _candidates(hits: Sequence[Hit], quotable: Sequence[int]) -> list[_Sentence]:
    """The passages' sentences that may be quoted: not a repeat, not a heading, found in the passage.

    A sentence is found in its passage when its non-space characters come next among the passage's
    (split_sentences keeps every non-space character, in order): one pass, not one search per sentence.
    """
    seen: set[str] = set()
    out: list[_Sentence] = []
    for i in quotable:
        hit = hits[i]
        letters, at = "".join(hit.text.split()), 0
        for pos, text in enumerate(split_sentences(hit.text)):
            key = "".join(text.split())
            found = letters.startswith(key, at)  # a quote must exist in its source (up to whitespace)
            at += len(key) if found else 0
            if not found or text.lower() in seen or _is_heading_like(text):
                continue  # overlapping chunks repeat sentences
            seen.add(text.lower())
            out.append(_Sentence(text, i, pos, terms(text)))
    return out


def _score(
    sentence: _Sentence, query: frozenset[str], idf: dict[str, float], intents: Sequence[re.Pattern[str]] = ()
) -> float:
    matched = query & sentence.terms
    if not matched:
        return 0.0
    weight = sum(idf[t] for t in matched)
    if any(p.search(sentence.text) for p in intents):
        weight *= INTENT_BOOST
    length_penalty = 1.0 + 0.1 * math.log1p(len(sentence.terms))
    rank_bonus = 1.0 / (1.0 + 0.1 * sentence.hit_index)
    return weight / length_penalty * rank_bonus


def _idf(sentences: Sequence[_Sentence], query: frozenset[str]) -> dict[str, float]:
    n = len(sentences)
    return {t: math.log(1.0 + (n + 1) / (1 + sum(t in s.terms for s in sentences))) for t in query}


def best_sentences(
    question: str, hits: Sequence[Hit], max_sentences: int = 4, similarity: Similarity | None = None
) -> list[_Sentence]:
    """The most relevant sentences, in passage order then document order.

    Sentences are matched word by word; a passage written in another language than the question
    shares no words with it, so with `similarity` (the embedding model) each of the top such
    passages contributes its sentence closest in meaning to the question.
    """
    sentences = _candidates(hits, _quotable(question, hits))
    cross = _other_language_passages(question, hits) if similarity else set()
    picked: list[_Sentence] = []
    query = terms(question)
    same = [s for s in sentences if s.hit_index not in cross]
    if query and same:
        idf = _idf(same, query)
        intents = _intent_patterns(question)
        scored = [(s, _score(s, query, idf, intents)) for s in same]
        ranked = sorted((x for x in scored if x[1] > 0), key=lambda x: (-x[1], x[0].hit_index, x[0].position))
        if ranked:
            floor = ranked[0][1] * RELATIVE_FLOOR
            picked = [s for s, score in ranked[:max_sentences] if score >= floor]
    # other-language passages speak only when they rank above every passage quoted word by word
    first_quoted = min((s.hit_index for s in picked), default=len(hits))
    by_meaning = _by_meaning(question, [s for s in sentences if s.hit_index in cross and s.hit_index < first_quoted],
                             similarity)
    picked = by_meaning + picked[:max(max_sentences - len(by_meaning), 0)]
    return sorted(picked, key=lambda s: (s.hit_index, s.position))


def _other_language_passages(question: str, hits: Sequence[Hit]) -> set[int]:
    asked = text_languages(question)
    if not asked:
        return set()
    return {i for i, hit in enumerate(hits) if (langs := text_languages(hit.text)) and not langs & asked}


def _by_meaning(question: str, sentences: list[_Sentence], similarity: Similarity | None) -> list[_Sentence]:
    """The sentence closest in meaning to the question from each of the top other-language passages."""
    passages = sorted({s.hit_index for s in sentences})[:CROSS_LANGUAGE_PASSAGES]
    pool = [s for s in sentences if s.hit_index in passages]
    if not pool or similarity is None:
        return []
    scores = similarity(question, [s.text for s in pool])
    intents = _intent_patterns(question)
    best: dict[int, tuple[float, _Sentence]] = {}
    for sentence, score in zip(pool, scores):
        score += 0.02 if any(p.search(sentence.text) for p in intents) else 0.0
        if sentence.hit_index not in best or score > best[sentence.hit_index][0]:
            best[sentence.hit_index] = (score, sentence)
    top = max(score for score, _ in best.values())
    return [sentence for score, sentence in best.values() if score >= top - MEANING_MARGIN]


def extractive_answer(
    question: str, hits: Sequence[Hit], max_sentences: int = 4, similarity: Similarity | None = None
) -> str:
    """The answer's text alone (see `quoted_answer`)."""
    return quoted_answer(question, hits, max_sentences, similarity)[0]


def quoted_answer(
    question: str, hits: Sequence[Hit], max_sentences: int = 4, similarity: Similarity | None = None
) -> tuple[str, list[Hit]]:
    """The most relevant sentences, each followed by `[n]` (no label: the answer's notice says what it is), and
    the hits with `focus` set to the spans of the sentences quoted from each.

    `n` is the 1-based position of the sentence's passage in `hits`. The "nothing found"
    message follows the question's language (Chinese or English).
    """
    picked = best_sentences(question, hits, max_sentences, similarity)
    if not picked:
        return message("no_answer_in_documents", "zh" if has_han(question) else "en"), list(hits)
    lines = [f"- {_as_markdown_text(_clip(s.text))} [{s.hit_index + 1}]" for s in picked]
    return "\n".join(lines), _focused(hits, picked)


def _focused(hits: Sequence[Hit], picked: Sequence[_Sentence]) -> list[Hit]:
    """Each hit with the character spans (in its text) of the sentences quoted from it."""
    spans: dict[int, list[tuple[int, int]]] = {}
    keys: dict[int, tuple[str, list[int]]] = {}  # each passage's keyed form, made once (a passage may be long)
    for s in picked:
        text = hits[s.hit_index].text
        if s.text not in text and s.hit_index not in keys:
            keys[s.hit_index] = keyed(text)
        found = find_passage(text, s.text, keys=keys.get(s.hit_index))
        if found is not None:
            spans.setdefault(s.hit_index, []).append((found[0], found[1]))
    return [dataclasses.replace(hit, focus=tuple(sorted(spans[i]))) if i in spans else hit
            for i, hit in enumerate(hits)]
