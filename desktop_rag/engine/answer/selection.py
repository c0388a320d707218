"""Which sentences answer a question, best first: the extractive answer's bullets, and the order in which passages
reach a model.

Every quotable sentence of the passages (answer/sentences.py) is weighed on five kinds of evidence:

- meaning: its cosine with the question by the library's embedding model (query and passage roles), standardised
  over the sentences (a z-score: the model's cosines sit in a narrow band);
- words: its idf-weighted overlap with the question's terms and its topic terms' renderings in the other language
  (text/topics.py: "department manager" -> 部门主管), as a share of the best sentence's;
- the kind of answer asked (answer/answer_kind.py): a quantity, a time, a person, a place, and whether the sentence
  carries such a token;
- the topic (text/topics.py): a sentence from a passage that names none of the question's topic terms never leads
  while another passage names them, and a passage naming more of them weighs more;
- its passage: its search score, and its share of the question's terms, each weighted by its rarity among the
  passages, against the best share among those in the question's language (of two passages ranked alike, the one
  naming what is distinctive in the question leads; a passage in another language is not judged on it).

Only the MEANING_SENTENCES sentences likeliest by the other evidence are weighed by meaning, and only they may be
quoted (each one's vector is made when the question is asked: on long passages that was most of an answer's time).

The best sentence leads, quoted in one bullet with the sentence after it when that one continues it (opens by
referring back: "它", "这", "However") and is within FOLLOW_MARGIN of its score, and with the one before it when it
continues that one: the answer is often in the continuation ("The board met in May. It chose Lyon."), and a sentence
that continues another is half a statement alone. Another follows only while its score less its passage's coverage
is within FOLLOW_MARGIN of the lead's (with a model, FOLLOW_OTHER_MARGIN for a sentence of another document:
another document is likelier another subject) and it adds something (a sentence next to one already quoted must hold
question terms they lack, or the asked kind), at most MAX_BULLETS. The knowledge boundary (`Boundary`): the
passages cannot answer, and nothing is quoted, when no sentence has any evidence; when the lead is in the
question's language, a good share of the question's content words is named nowhere in the library (ABSENT_SHARE)
and the lead's cosine is below the model's measured floor; when the lead is in the other language and its cosine
is below that language's floor. A model without measured floors (MEANING_FLOORS) refuses only when at least half
the content words are absent (MODEL_FREE_ABSENT) and the lead's passage names under half the topic terms. The
weights and thresholds were chosen on questions outside the bench's samples (bench/README.md, "The first line a
person reads"; `python -m bench.extractive --dev`).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from desktop_rag.engine.answer.answer_kind import answer_kind, carries
from desktop_rag.engine.answer.sentences import Sentence, continues, joined, terms
from desktop_rag.engine.text.terms import has_han
from desktop_rag.engine.text.topics import Topics
from desktop_rag.engine.store.values import Hit

# (question, sentences) -> similarity of each sentence to the question, by meaning (the embedding model)
Similarity = Callable[[str, list[str]], list[float]]

MEANING = 1.0  # weight of the standardised cosine
WORDS = 0.25  # weight of the keyword overlap (0..1); without a model it takes MEANING's weight too
KIND = 1.2  # a sentence carrying a token of the kind asked for
TOPIC = 1.0  # the share of the question's topic terms its passage names (0..1)
SENTENCE_TOPIC = 0.5  # ... and the sentence itself
RANK = 5.0  # its passage's search score (0..1)
COVERAGE = 1.0  # its passage's idf-weighted share of the question's terms, less the best passage's (-1..0)
MIN_SPREAD = 0.02  # the cosines' spread a z-score divides by at least (a few sentences' spread is noise)
FOLLOW_MARGIN = 1.2  # a sentence follows the lead while its score is within this of the lead's
FOLLOW_OTHER_MARGIN = 0.9  # ... one from another document than the lead's, nearer (bench/README.md: 8 of the 82 it
# leaves out on the tuning questions held the answer; the coffee question's green-tea sentence is one of the 74)
MAX_BULLETS = 3
MEANING_SENTENCES = 16  # the sentences an answer weighs by meaning, at most (bench/README.md: its time and quality)
NEUTRAL_TOPIC = 0.5  # the topic share of a passage that cannot be judged on the question's topic terms
ABSENT_SHARE = 0.3  # the share of the question's content words no passage names, from which a weak lead refuses
MODEL_FREE_ABSENT = 0.5  # the same, for a model whose cosines were not measured (then topic coverage decides)
# the lead's cosine below which it is no answer: (in the question's language, in the other), by embedding model
MEANING_FLOORS = {"bundled:multilingual-e5-small": (0.87, 0.745)}


@dataclass(frozen=True)
class Boundary:
    """What tells that the passages cannot answer: the share of the question's content words no passage of the
    library names (text/topics.py), whether the question is Chinese, and the model's cosine floors (None: not
    measured for this model)."""

    absent: float = 0.0
    chinese: bool = False
    floors: tuple[float, float] | None = None


@dataclass(frozen=True)
class Evidence:
    """One sentence and what speaks for it."""

    sentence: Sentence
    meaning: float  # cosine with the question (0.0 without a model)
    words: float  # keyword overlap, as a share of the best sentence's (0..1)
    kind: bool  # carries a token of the kind of answer asked for
    topical: float  # the share of the question's topic terms its passage names (0..1; NEUTRAL_TOPIC: not judged)
    rank: float  # its passage's search score (0..1)
    standard: float = 0.0  # `meaning` standardised over the sentences in its language weighed together
    on_topic: float = 0.0  # the share of all the topic terms the sentence itself names (NEUTRAL_TOPIC: not judged)
    words_weight: float = WORDS  # WORDS, or WORDS + MEANING when there is no model
    matched: frozenset[str] = frozenset()  # the question's terms it holds
    covered: float = 0.0  # its passage's coverage of the question's terms less the best passage's (-1..0)
    document: str = ""  # its passage's file

    @property
    def score(self) -> float:
        return self.own + COVERAGE * self.covered

    @property
    def own(self) -> float:
        """The score less its passage's coverage: what a sentence that may follow the lead is judged on (coverage
        picks the passage that leads; it does not silence another passage's sentence that answers part of it)."""
        return (MEANING * self.standard + self.words_weight * self.words + KIND * self.kind + TOPIC * self.topical
                + SENTENCE_TOPIC * self.on_topic + RANK * self.rank)


def weigh(question: str, hits: Sequence[Hit], sentences: Sequence[Sentence], similarity: Similarity | None,
          topics: Topics) -> list[Evidence]:
    """Every sentence's evidence, best first (ties: the earlier passage, then the earlier sentence)."""
    if not sentences:
        return []
    asked = terms(question) | frozenset().union(*(terms(r) for t in topics.terms for r in t.renderings))
    words = _overlap(asked, sentences)
    kind = answer_kind(question)
    passages = sorted({s.hit_index for s in sentences})
    texts = [f"{hits[i].heading}\n{hits[i].text}" for i in passages]
    topical = {i: _topical(topics, text) for i, text in zip(passages, texts)}
    covered = dict(zip(passages, _relative_coverage(question, texts)))
    words_weight = WORDS if similarity is not None else WORDS + MEANING
    found = [Evidence(s, 0.0, w, carries(kind, s.text), topical[s.hit_index], hits[s.hit_index].score,
                      on_topic=_named(topics, s.text), words_weight=words_weight, matched=asked & s.terms,
                      covered=covered[s.hit_index], document=hits[s.hit_index].path)
             for s, w in zip(sentences, words)]
    if similarity is not None:
        found = _by_meaning(question, found, similarity)
    return sorted(found, key=lambda e: (-e.score, e.sentence.hit_index, e.sentence.position))


def _by_meaning(question: str, found: list[Evidence], similarity: Similarity) -> list[Evidence]:
    """The MEANING_SENTENCES sentences likeliest by the other evidence, with their cosines and z-scores; the rest
    are left out, never quoted (each sentence weighed by meaning is embedded when asked: this bounds an answer's
    time on long passages)."""
    likeliest = sorted(range(len(found)), key=lambda k: -found[k].score)[:MEANING_SENTENCES]
    kept = [found[k] for k in sorted(likeliest)]
    meaning = similarity(question, [e.sentence.text for e in kept])
    standard = _standardised(meaning, [e.sentence for e in kept])
    return [dataclasses.replace(e, meaning=m, standard=z) for e, m, z in zip(kept, meaning, standard)]


def _standardised(meaning: Sequence[float], sentences: Sequence[Sentence]) -> list[float]:
    """Each cosine as a z-score among the sentences written in its language: the model gives a sentence in the
    question's language a higher cosine than the same meaning in the other (bench/README.md)."""
    groups: dict[bool, list[int]] = {}
    for k, s in enumerate(sentences):
        groups.setdefault(has_han(s.text), []).append(k)
    out = [0.0] * len(sentences)
    for members in groups.values():
        values = [meaning[k] for k in members]
        mean, spread = statistics.fmean(values), max(statistics.pstdev(values), MIN_SPREAD)
        for k in members:
            out[k] = (meaning[k] - mean) / spread
    return out


def _topical(topics: Topics, text: str) -> float:
    """The passage's topic coverage; NEUTRAL_TOPIC when it cannot be judged (never excluded for it)."""
    coverage = topics.coverage(text)
    return NEUTRAL_TOPIC if coverage is None else coverage


def _named(topics: Topics, text: str) -> float:
    """The share of all the topic terms a sentence names; NEUTRAL_TOPIC when it cannot be judged on any."""
    return NEUTRAL_TOPIC if topics.coverage(text) is None else topics.named_share(text)


def _overlap(asked: frozenset[str], sentences: Sequence[Sentence]) -> list[float]:
    """Each sentence's idf-weighted share of the `asked` terms (shorter sentences slightly favoured), scaled to the
    best sentence's."""
    idf = _idf(asked, [s.terms for s in sentences])
    raw = [sum(idf[t] for t in idf.keys() & s.terms) / (1.0 + 0.1 * math.log1p(len(s.terms))) for s in sentences]
    top = max(raw, default=0.0)
    return [r / top if top > 0 else 0.0 for r in raw]


def _relative_coverage(question: str, passages: Sequence[str]) -> list[float]:
    """Each passage's coverage of the question's terms (`_coverage`) less the best among the passages written in the
    question's language (so <= 0); 0 for a passage in another language: its words cannot be compared with the
    question's (through the dictionary's renderings they misled more than they helped: bench/README.md)."""
    chinese = has_han(question)
    same = [k for k, text in enumerate(passages) if has_han(text) == chinese]
    out = [0.0] * len(passages)
    if same:
        shares = _coverage(terms(question), [terms(passages[k]) for k in same])
        best = max(shares)
        for k, share in zip(same, shares):
            out[k] = share - best
    return out


def _coverage(asked: frozenset[str], passages: Sequence[frozenset[str]]) -> list[float]:
    """Each passage's share of the `asked` terms, each term weighted by its rarity among the passages (idf): the
    passage that holds the question's distinctive words, not only its common ones."""
    idf = _idf(asked, passages)
    total = sum(idf.values())
    return [sum(idf[t] for t in idf.keys() & p) / total if total > 0 else 0.0 for p in passages]


def _idf(asked: frozenset[str], texts: Sequence[frozenset[str]]) -> dict[str, float]:
    """The rarity of each `asked` term among the texts (their terms) that hold it; a term none holds is left out (no
    clue either way)."""
    held = {t: sum(t in text for text in texts) for t in asked}
    return {t: math.log(1.0 + (len(texts) + 1) / (1 + count)) for t, count in held.items() if count}


def choose(evidence: Sequence[Evidence], max_bullets: int = MAX_BULLETS,
           boundary: Boundary = Boundary()) -> list[Evidence]:
    """The sentences to quote, best first; [] when the passages cannot answer."""
    pool = list(evidence)
    if any(e.topical > 0 for e in pool):  # a passage naming none of the topic terms never leads
        pool = [e for e in pool if e.topical > 0]
    if not pool or not answers(pool[0], boundary):
        return []
    lead = _with_continuations(pool[0], pool)
    picked = [lead]
    for e in pool[1:]:
        if len(picked) >= max_bullets:
            break
        if e.own >= lead.own - _follow_margin(e, lead) and _adds(e, picked):
            picked.append(e)
    return picked


def _follow_margin(candidate: Evidence, lead: Evidence) -> float:
    """How far below the lead's score a sentence may follow it: FOLLOW_OTHER_MARGIN for one of another document when
    the sentences were weighed by meaning (where it was measured; without a model the words take meaning's weight
    and the scores spread otherwise), else FOLLOW_MARGIN."""
    weighed_by_meaning = lead.words_weight == WORDS
    return FOLLOW_OTHER_MARGIN if candidate.document != lead.document and weighed_by_meaning else FOLLOW_MARGIN


def _with_continuations(lead: Evidence, pool: Sequence[Evidence]) -> Evidence:
    """The lead quoted with the sentence of its passage it continues (answer/sentences.py: it opens by referring
    back) and the one that continues it if that one is near the lead's score: one bullet."""
    before = _beside(lead, pool, -1, -math.inf) if continues(lead.sentence) else None
    after = _beside(lead, pool, 1, lead.score - FOLLOW_MARGIN)
    if after is not None and not continues(after.sentence):
        after = None
    parts = [e for e in (before, lead, after) if e is not None]
    if len(parts) == 1:
        return lead
    return dataclasses.replace(lead, sentence=functools.reduce(joined, (e.sentence for e in parts)),
                               kind=any(e.kind for e in parts), matched=frozenset().union(*(e.matched for e in parts)))


def _beside(lead: Evidence, pool: Sequence[Evidence], step: int, floor: float) -> Evidence | None:
    """The weighed sentence `step` places from the lead in its passage, if both are prose and it scores `floor` or
    more."""
    s = lead.sentence
    return next((e for e in pool if e.sentence.hit_index == s.hit_index and e.sentence.position == s.position + step
                 and s.span is None and e.sentence.span is None and e.score >= floor), None)


def answers(lead: Evidence, boundary: Boundary) -> bool:
    """Whether the best sentence is an answer at all (the knowledge boundary, as the module says)."""
    if lead.words <= 0 and lead.meaning <= 0:
        return False
    if boundary.floors is None:
        return not (boundary.absent >= MODEL_FREE_ABSENT and lead.topical < 0.5)
    same_language, other_language = boundary.floors
    if has_han(lead.sentence.text) != boundary.chinese:
        return lead.meaning >= other_language
    return boundary.absent < ABSENT_SHARE or lead.meaning >= same_language


def _adds(candidate: Evidence, picked: Sequence[Evidence]) -> bool:
    """A neighbour of a quote (or a sentence inside one: a lead quoted with its continuations) is quoted only when it
    holds question terms the quotes lack, or carries the kind asked for when none of them does."""
    s = candidate.sentence
    if not any(p.sentence.hit_index == s.hit_index
               and p.sentence.position - 1 <= s.position <= p.sentence.position + p.sentence.parts for p in picked):
        return True
    known = frozenset().union(*(p.matched for p in picked))
    return bool(candidate.matched - known) or (candidate.kind and not any(p.kind for p in picked))


def passage_order(evidence: Sequence[Evidence], count: int) -> list[int]:
    """The passages' positions (0..count-1) by their best sentence's evidence, the topic rule applied as for the
    lead; passages without a weighed sentence keep their order after the others."""
    ranked: list[int] = []
    topical = any(e.topical > 0 for e in evidence)
    for e in sorted(evidence, key=lambda e: (topical and e.topical <= 0, -e.score)):
        if e.sentence.hit_index not in ranked:
            ranked.append(e.sentence.hit_index)
    return ranked + [i for i in range(count) if i not in ranked]
