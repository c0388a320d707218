"""The signals a search weighs, each declared once, here: where its evidence comes from, its weight in fusion and
its part of the result-cache key.

A `Signal` either finds candidates (`finds`: a best-first list of (chunk id, score), as the three retrievers do) or
only scores the candidates the others found; `evidence` is its score per candidate (0..1), `weight` its share of a
candidate's fused score, and the fused score is the sum of weight x evidence over SIGNALS (fusion.fuse), in their
order; a signal may also `settle` the fused list (every candidate, best first) by a rule of its own before it is cut
(the topic signal: an off-topic passage stays below an on-topic one unless far stronger). `key` names what its
evidence depends on besides the question, where the search looks, how many passages it keeps and the library's
version (searching.py's cache key).

The three retrievers share one rule for their weights, the convex combination measured in fusion.py (a candidate
in the question's language: w x dense + (1 - w) x keyword; in another language: dense, with the dictionary gloss's
keyword score). A new signal is one more entry in SIGNALS, with its evidence and weight beside it (a module of its
own in search/ when it is long), and its test; nothing else changes: an evidence of 0..1 with a small weight moves
the ranking by at most that weight; a negative weight is a penalty.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from desktop_rag.config import Settings
from desktop_rag.engine.models.embedding import Embedder
from desktop_rag.engine.search import fusion
from desktop_rag.engine.search.calibration import centred_query
from desktop_rag.engine.search.question import Question, Version
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.library import Store, VectorSearch
from desktop_rag.engine.store.values import Hit
from desktop_rag.engine.text.keyword import query_terms, term_coverage

Scored = list[tuple[int, float]]  # best first: (chunk id, score)


@dataclass(frozen=True)
class Search:
    """One search as the signals that find candidates see it: the question, where it looks (None: everywhere),
    how many candidates each list holds, and the loaded embedder and vectors (None: keyword search only)."""

    question: Question
    store: Store
    within: Restriction | None
    limit: int
    dense: tuple[Embedder, VectorSearch] | None = None
    min_score: float = 0.0  # dense scores below it are no evidence

    @property
    def languages(self) -> frozenset[str] | None:
        """The languages the embedding model covers (None: multilingual, or no model)."""
        return self.dense[0].languages if self.dense is not None else None


@dataclass(frozen=True)
class Keyed:
    """What a search's result depends on, as the signals' cache keys read it (searching.py)."""

    question: Question
    settings: Settings
    dense: bool  # dense search ran (vectors loaded, none still loading)
    vectors: int  # how many vectors the loaded cache holds (-1: dense search off)
    model: str  # the library's embedding model


@dataclass
class Pool:
    """The candidates of one search and what each signal says of them: `found` the finders' lists, `hits` the
    candidates' passages, `written` their languages, `other` those in another language than every version of the
    question, `languages` what the embedding model covers (None: multilingual), `evidence` by signal name."""

    question: Question
    found: Mapping[str, Scored]
    languages: frozenset[str] | None = None
    hits: Mapping[int, Hit] = field(default_factory=dict)
    written: Mapping[int, frozenset[str]] = field(default_factory=dict)
    other: frozenset[int] = frozenset()
    evidence: dict[str, dict[int, float]] = field(default_factory=dict)

    @cached_property
    def rule(self) -> fusion.ConvexRule:
        """The three retrievers' weights for this pool (read once every signal's evidence is in)."""
        return fusion.convex_rule(self.evidence["dense"], self.evidence["keyword"], self.evidence["gloss"],
                                  self.other, self.question.normalised, self.languages,
                                  self.question.asked.shares, self._version_weights())

    def _version_weights(self) -> dict[int, float] | None:
        """With translations: each passage weighed by the version of the question in its own language."""
        question = self.question
        if not question.others:
            return None
        by_language = {lang: v for v in reversed(question.versions) for lang in v.languages}
        return {cid: fusion.dense_weight(version.text, self.languages, version.shares)
                for cid, langs in self.written.items() if len(langs) == 1
                for version in [by_language.get(next(iter(langs)), question.asked)]}

    @cached_property
    def topic_coverage(self) -> dict[int, float | None]:
        """Each candidate's share of the question's topic terms (text/topics.py; None: it cannot be judged on them);
        empty when the question has none."""
        topics = self.question.topics
        if not topics.terms:
            return {}
        return {cid: topics.coverage(f"{hit.heading}\n{hit.text}") for cid, hit in self.hits.items()}

    @property
    def dense_only(self) -> bool:
        """Other-language candidates are scored by meaning (a multilingual model that found something)."""
        return bool(self.other) and self.languages is None and bool(self.evidence.get("dense"))


def _nothing(_keyed: Keyed) -> Hashable:
    return ()


@dataclass(frozen=True)
class Signal:
    """One piece of evidence a search weighs (see the module's docstring)."""

    name: str
    evidence: Callable[[Pool], dict[int, float]]  # its score per candidate, 0..1 (after the earlier signals')
    weight: Callable[[Pool, int], float]  # its share of this candidate's fused score
    finds: Callable[[Search, Mapping[str, Scored]], Scored] | None = None  # its candidates (given earlier finds)
    key: Callable[[Keyed], Hashable] = _nothing  # its part of the result-cache key
    settle: Callable[[Pool, Scored], Scored] | None = None  # its rule over the fused list (all candidates, best first)


# ---- the dense retriever: meaning, the question's vector centred on its language (calibration.py) ----


def dense_candidates(version: Version, embedder: Embedder, vectors: VectorSearch, limit: int, min_score: float,
                     store: Store, within: Restriction | None = None) -> Scored:
    """Nearest chunks by cosine similarity within the restriction (None: everywhere; the backend's own filter),
    under-threshold scores dropped. With a multilingual model the question's vector is first centred on its
    language (calibration.py), so the score is the cosine with that centred vector."""
    if vectors.size == 0:
        return []
    vector = embedder.embed_queries([version.text])[0]
    query_vector = centred_query(version.text, vector, embedder, version.languages)
    return [(cid, score) for cid, score in vectors.nearest(store, query_vector, limit, within) if score >= min_score]


def _dense_finds(search: Search, _found: Mapping[str, Scored]) -> Scored:
    if search.dense is None:
        return []
    embedder, vectors = search.dense
    return best_of([dense_candidates(v, embedder, vectors, search.limit, search.min_score, search.store,
                                     search.within) for v in search.question.versions])


def _dense_key(keyed: Keyed) -> Hashable:
    return keyed.dense, keyed.vectors, keyed.model, keyed.settings.min_score


# ---- the keyword retriever: BM25 of the question and of each translation ----


def _keyword_finds(search: Search, _found: Mapping[str, Scored]) -> Scored:
    return best_of([scaled_to_best(search.store.keyword_search(v.text, search.limit, search.within))
                    for v in search.question.versions])


def _keyword_evidence(pool: Pool) -> dict[int, float]:
    """Min-max normalised BM25; in a pool mixing languages with a multilingual model, scaled by the share of the
    question's terms each passage holds (a keyword list normalised within one language gives its best hit 1.0
    however little of the question it matched)."""
    scores = fusion.normalise(pool.found["keyword"])
    if not pool.dense_only:
        return scores
    terms = [query_terms(v.text) for v in pool.question.versions]
    return {cid: score * max(term_coverage(t, f"{pool.hits[cid].heading}\n{pool.hits[cid].text}") for t in terms)
            if cid in pool.hits else score for cid, score in scores.items()}


# ---- the dictionary gloss: the question's words in a language no version of it is in (gloss.py) ----


def _gloss_finds(search: Search, found: Mapping[str, Scored]) -> Scored:
    """Keyword matches of the glosses, when the dense search found something to weigh them against."""
    if not found["dense"] or not search.question.glosses:
        return []
    return best_of([scaled_to_best(search.store.keyword_search(text, search.limit, search.within))
                    for text in search.question.glosses])


def _gloss_evidence(pool: Pool) -> dict[int, float]:
    """The glosses' keyword scores (scaled to the best), for the passages in another language only."""
    return {cid: score for cid, score in dict(pool.found["gloss"]).items() if cid in pool.other}


def _gloss_key(keyed: Keyed) -> Hashable:
    return keyed.question.glosses


# ---- topic precision (issue 50): the question's topic terms (its rarest content words, in either language) ----
# Its evidence depends on the question and the library's version only (Runtime.question_topics), both in the key.


def _topic_evidence(pool: Pool) -> dict[int, float]:
    """The share of the question's topic terms each candidate names (fusion.topic_share)."""
    return {cid: fusion.topic_share(coverage) for cid, coverage in pool.topic_coverage.items()}


def _topic_precedence(pool: Pool, ranked: Scored) -> Scored:
    """An off-topic candidate below the on-topic ones it outranks unless its meaning is far stronger; across languages
    only below one naming every topic term that its gloss score alone lifted it over (fusion.py)."""
    glossed = {cid: score * pool.rule.gloss(cid) for cid, score in pool.evidence["gloss"].items()}
    return fusion.topic_precedence(ranked, pool.topic_coverage, pool.evidence["dense"], written=pool.written,
                                   glossed=glossed)


SIGNALS: tuple[Signal, ...] = (
    Signal("dense", lambda pool: fusion.normalise(pool.found["dense"]), lambda pool, cid: pool.rule.dense(cid),
           _dense_finds, _dense_key),
    Signal("keyword", _keyword_evidence, lambda pool, cid: pool.rule.keyword(cid), _keyword_finds),
    Signal("gloss", _gloss_evidence, lambda pool, cid: pool.rule.gloss(cid), _gloss_finds, _gloss_key),
    Signal("topic", _topic_evidence, lambda pool, cid: fusion.TOPIC_WEIGHT, settle=_topic_precedence),
)


# ---- running them ----


def found(search: Search) -> dict[str, Scored]:
    """Each finding signal's candidates, in order."""
    lists: dict[str, Scored] = {}
    for signal in SIGNALS:
        if signal.finds is not None:
            lists[signal.name] = signal.finds(search, lists)
    return lists


def fused(pool: Pool, limit: int) -> Scored:
    """The top `limit` candidates by the sum of each signal's weight x evidence (its evidence filled in first), after
    the signals' rules over the whole list (`settle`)."""
    for signal in SIGNALS:
        pool.evidence[signal.name] = signal.evidence(pool)
    parts = [(pool.evidence[s.name], lambda cid, s=s: s.weight(pool, cid)) for s in SIGNALS]
    ranked = fusion.fuse(parts, len({cid for evidence in pool.evidence.values() for cid in evidence}))  # all of them
    for signal in SIGNALS:
        if signal.settle is not None:
            ranked = signal.settle(pool, ranked)
    return ranked[:max(limit, 0)]


def cache_key(keyed: Keyed) -> tuple:
    """Every signal's part of the result-cache key."""
    return tuple(signal.key(keyed) for signal in SIGNALS)


def scaled_to_best(hits: Scored) -> Scored:
    """Best-first scores scaled to the list's best (so lists of several queries can be compared)."""
    if not hits:
        return []
    top = max(score for _, score in hits)
    return [(cid, score / top if top > 0 else 0.0) for cid, score in hits]


def best_of(lists: Sequence[Scored]) -> Scored:
    """One best-first list from several: each chunk at its best score."""
    if len(lists) == 1:
        return lists[0]
    best: dict[int, float] = {}
    for hits in lists:
        for cid, score in hits:
            if score > best.get(cid, float("-inf")):
                best[cid] = score
    return sorted(best.items(), key=lambda item: -item[1])
