"""Hybrid fusion: convex combination of min-max-normalised dense and BM25 scores, language-aware.

This module is the rule (`ConvexRule`: the three retrievers' weights per candidate) and the sum (`fuse`: weight x
evidence over the signals); signals.py declares each signal, the retrievers among them, with its evidence, its
weight and its part of the result-cache key.

Method
------
Each retriever's candidate list is min-max normalised on its own (best = 1, worst
candidate = 0; a candidate missing from a list gets 0 there), then

    fused = w * dense_norm + (1 - w) * keyword_norm

with a per-query dense weight ``w`` (:func:`dense_weight`): 0.6 when the embedding model
covers the query's script, 0.2 when it does not, blended by the share of the query's
letters in covered scripts. The embedder declares what it covers through
``dense_languages`` (ISO codes such as ``{"en"}``; ``None`` means multilingual / unknown,
i.e. trusted everywhere). The bundled all-MiniLM-L6-v2 is English-only, so a Chinese query
leans on the CJK-bigram keyword index while dense results still count (weight 0.2: they
break ties and surface what BM25 misses); a user who picks a Chinese or multilingual
model declares it and dense gets its full say again. When one list is empty (no keyword
term matched, nor any of the question's gloss (below), or vectors not yet computed) the other is used alone,
unscaled.

Inputs are best-first ``(chunk_id, score)``: dense = cosine similarity (normalised
embeddings, inner product); keyword = BM25 where HIGHER is better -- FTS5's ``bm25()``
returns negative numbers where lower is better, so the caller passes ``-bm25(fts)``.
Output scores lie in [0, 1] (1 = top of both lists), fit for display. Min-max needs a
tail to normalise against: fetch about 100 candidate chunks from each retriever (depth
30 cost 0.004 nDCG on SciFact, depth 50 0.002). A dense ``min_score`` cut-off applied
before fusion raises the normalisation floor: 0.2 changed nothing, 0.3 cost 0.002 and
0.4 cost 0.005 on SciFact (XQuAD-zh unaffected); keep it at 0.2 or below, or apply it
to the fused list instead.

Measured (bench/retrieval_research.py; 500-char chunks, 50 overlap, 100 candidates per
retriever, max chunk score per document; nDCG@10):

    method                                   SciFact   XQuAD-zh
    dense all-MiniLM-L6-v2                   0.675     0.234
    keyword BM25 (FTS5, CJK bigrams)         0.670     0.964
    RRF k=60 (DESIGN default)                0.702     0.600
    convex min-max, fixed w=0.6              0.723     0.693
    convex min-max, fixed w=0.3              0.701     0.961
    score-peakedness weights (z of top-1)    0.718     0.926
    top-10 agreement weights                 0.709     0.944
    this module (0.6 covered / 0.2 not)      0.723     0.963

Across languages (issue 15): with a multilingual model, a passage in another language than the
question can only be found by meaning -- its keyword score says nothing (an English question
matches a Chinese paragraph only on stray numbers and names), and counting it as 0 drags the
right passage under same-language keyword noise. So a candidate whose language (``"zh"`` /
``"en"``, :func:`desktop_rag.engine.text.language.text_languages`) differs from the question's is
scored by its dense score alone; same-language candidates keep the convex combination. Measured
with multilingual-e5-small (bench/quality.py, bench/README.md): XQuAD en->zh 0.790 with plain
fusion vs 0.84+ with this rule, XQuAD-zh and SciFact unchanged (every candidate is same-language).
In a pool that mixes languages, the same-language keyword scores are also scaled by the share of
the question's terms each passage contains: "How hot should the water be for green tea?" over
the samples matched only "water" in the coffee guide, which min-max made a perfect keyword hit.

In a library that holds both languages (issue 24) the dense scores themselves are biased: a multilingual
model gives same-language passages a higher cosine than the right passage in the other language, so with
one 100-deep dense list the other-language version of the answer is often not even a candidate. The fix is
upstream of this module: the question's vector is centred on its language (calibration.py) before the
dense search; fusion is unchanged. Measured on a bilingual XQuAD library (bench/mixed.py: 240 paragraphs in
English and the same 240 in Chinese, each question relevant to both; multilingual-e5-small; the options by a
scratch replica of ranked_candidates over exact dense scores, the shipped row also through Engine.search):

    method (nDCG@10; "other" = Recall@10 of the        mixed, en q    mixed, zh q    en->zh   zh->en   XQuAD-zh
    other-language version)                            nDCG / other   nDCG / other   nDCG     nDCG     nDCG
    before (this module alone)                         0.773 / 0.606  0.624 / 0.110  0.850    0.796    0.976
    dense z-scored per passage language (candidates)   0.801 / 0.626  0.628 / 0.120  0.850    0.796    0.976
    dense mean-shifted per passage language            0.759 / 0.592  0.616 / 0.086  0.850    0.796    0.976
    each language's best dense score aligned           0.845 / 0.823  0.703 / 0.302  0.850    0.796    0.976
    100 dense candidates per language, z-scored        0.902 / 0.966  0.867 / 0.922  0.850    0.796    0.976
    100 per language, mean-shifted                     0.926 / 0.966  0.865 / 0.914  0.850    0.796    0.976
    query centred on its language, 0.75 (SHIPPED)      0.896 / 0.876  0.905 / 0.926  0.868    0.869    0.976
    centred + 100 per language, mean-shifted           0.935 / 0.969  0.904 / 0.959  0.868    0.869    0.976
    centred + mean shift within the one list           0.901 / 0.897  0.910 / 0.937  0.868    0.869    0.976

Dense alone, centring share 0.5 / 0.75 / 1.0: en->zh 0.869 / 0.868 / 0.863, zh->en 0.860 / 0.869 / 0.868,
XQuAD-zh 0.944 / 0.941 / 0.935, English questions over the English paragraphs 0.971 / 0.972 / 0.968 (0.850,
0.796, 0.940 and 0.967 uncentred): centring helps every direction, inside one language too. Why not more:
calibrating scores per language cannot help a one-language library (one group), and without centring the
other-language passage is mostly not among the candidates to calibrate. Per-language candidate lists would
need the chunks' languages in FAISS (a selector per language: not stored today) and put the other-language
version first for half the questions; a mean shift inside the one list was rejected on the bundled samples:
with 4-7 candidates per language the means are noise, and "绿茶用多少度的水冲泡？" ranked the English coffee
guide above the Chinese tea guide. Query-side pseudo-relevance feedback (the mean of the top 1-5 passages
added, 0.3-1.0) lost everywhere (en->zh dense 0.819-0.844, zh->en 0.740-0.786). Also tried on top of
centring, dense nDCG@10 en->zh / zh->en / XQuAD-zh from 0.868 / 0.869 / 0.941: keyword evidence for
other-language candidates (the numbers and Latin names they share with the question), convex 0.9-0.6 or
added: 0.859-0.797 / 0.866-0.874 (no gain); passages centred on their language's mean vector and renormalised,
0.25-1.0: 0.871-0.878 / 0.868-0.869 / 0.942-0.944 (small, and it needs every vector rescored as the library
changes: not shipped); a CSLS-style hubness penalty (mean cosine to the 3 or 10 nearest reference questions,
0.5-1.0): 0.837-0.860 / 0.846-0.867 / 0.920-0.934 (worse). What centring leaves is the model's.

What closed the rest is not the model: a dictionary gloss of the question (gloss.py, CC-CEDICT through
text/lexicon.py) searched as keywords in the other language. English words become Chinese headwords, a Chinese
question the English words of its headwords' first senses; the gloss's BM25 scores (normalised to the best) are
evidence for the other-language passages only: ``(1 - GLOSS_WEIGHT) * dense + GLOSS_WEIGHT * glossed``. The
shipped search (Engine.search, bench.quality / bench.mixed), no language model, default settings:

    other-language passages scored by         en->zh   zh->en   mixed en q     mixed zh q     XQuAD-zh
                                              nDCG     nDCG     nDCG / other   nDCG / other   nDCG
    dense alone (before)                      0.868    0.869    0.896 / 0.876  0.905 / 0.926  0.9749
    + gloss, GLOSS_WEIGHT 0.2                 0.908    0.909
    + gloss, GLOSS_WEIGHT 0.3 (SHIPPED)       0.916    0.924    0.931 / 0.933  0.941 / 0.967  0.9749
    + gloss, GLOSS_WEIGHT 0.4                 0.906    0.931

(The 0.2 and 0.4 rows were measured before the keyword-list rule below, which moved the shipped en->zh 0.914 -> 0.916.)

With an English-only model (MiniLM, where no multilingual one runs: Windows without a download) the other-language
passages had no evidence at all (cosines across languages are noise, keyword scores none): the gloss's matches are
now their keyword score, weighed as an uncovered script's (``0.2 * dense + 0.8 * glossed``), and a gloss that
matched counts as a keyword list (same-language dense-only candidates no longer score by dense alone at full
weight). MiniLM libraries, Engine.search: en->zh 0.493 -> 0.714, zh->en 0.165 -> 0.814, XQuAD-zh 0.9629 -> 0.9627
(scratch at 0.6 / 0.4 as for a covered query: en->zh 0.578; 0.1 / 0.9: 0.656; before the keyword-list rule: 0.670).

Other ways of using the gloss, measured first on scratch replicas: passed as a "translation" (so the passages in
its language count as same-language, convex with their keyword scores and with the gloss's own dense vector):
en->zh 0.791 (a bag of headwords is a poor query for meaning); the gloss's keyword score added on top of the fused
score rather than convex, 0.05-1.0: en->zh 0.881-0.916, zh->en 0.889-0.932 (convex ranks the same inside one
language and keeps the scores in [0, 1] in a mixed pool). Choosing the two headwords per English phrase by a
word-frequency list (jieba's dict.txt) rather than by how many headwords contain them: en->zh 0.914 vs 0.916 (added
at 0.3), so no extra package for it. The word list's own choices (lexicon.py) moved little: one, two or three
senses per headword gave zh->en 0.923 / 0.924 / 0.926, three headwords per English phrase instead of two en->zh
0.919 vs 0.916 (kept at two and two).

Fixed weights cannot satisfy both sets: English wants w about 0.6, while noise-level
dense scores on Chinese must weigh at most 0.3. Purely distribution-based confidences
(peakedness of the top score, agreement of the two top-10 lists) were tried and rejected:
MiniLM's Chinese scores are weak but not pure noise (dense Recall@10 0.39), so their
shape overlaps the English ones too much to tell apart per query.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from desktop_rag.engine.text.keyword import cjk_ratio

__all__ = [
    "COVERED_DENSE_WEIGHT",
    "UNCOVERED_DENSE_WEIGHT",
    "GLOSS_WEIGHT",
    "ConvexRule",
    "convex_rule",
    "dense_coverage",
    "dense_weight",
    "fuse",
    "normalise",
    "script_shares",
    "TOPIC_WEIGHT",
    "topic_precedence",
    "topic_share",
]

COVERED_DENSE_WEIGHT = 0.6
UNCOVERED_DENSE_WEIGHT = 0.2
GLOSS_WEIGHT = 0.3  # share of a dictionary gloss's keyword score in an other-language passage's score

# Languages written in CJK scripts (Han, kana, Hangul) and codes meaning "everything".
_CJK_LANGUAGES = frozenset({"zh", "ja", "ko", "cjk", "yue", "wuu", "lzh"})
_ALL_LANGUAGES = frozenset({"*", "multilingual", "mul", "all"})
# Languages with non-Latin, non-CJK alphabets: a model declaring one covers "other".
_OTHER_SCRIPT_LANGUAGES = frozenset(
    {"ru", "uk", "bg", "sr", "mk", "be", "kk", "el", "ar", "fa", "ur", "he", "yi", "hi",
     "mr", "ne", "bn", "pa", "gu", "ta", "te", "kn", "ml", "si", "th", "lo", "km", "my",
     "ka", "hy", "am"}
)


def _scripts(languages: Iterable[str]) -> set[str] | None:
    """Map declared language codes ("en", "zh-CN", ...) to script classes; None = all."""
    scripts: set[str] = set()
    for lang in languages:
        code = lang.lower().replace("_", "-").split("-")[0]
        if code in _ALL_LANGUAGES:
            return None
        if code in _CJK_LANGUAGES:
            scripts.add("cjk")
        elif code in _OTHER_SCRIPT_LANGUAGES:
            scripts.add("other")
        else:
            scripts.add("latin")
    return scripts


def script_shares(query: str) -> dict[str, float]:
    """Share of the query's letters/digits per script class: latin, cjk, other."""
    cjk = cjk_ratio(query)
    rest = [ch for ch in query if ch.isalnum()]
    if not rest:
        return {"latin": 1.0, "cjk": 0.0, "other": 0.0}
    non_cjk = 1.0 - cjk
    other_chars = sum(1 for ch in rest if ord(ch) > 0x24F and not _is_cjk_char(ch))
    latin_chars = sum(1 for ch in rest if ord(ch) <= 0x24F)
    denom = max(other_chars + latin_chars, 1)
    return {
        "latin": non_cjk * latin_chars / denom,
        "cjk": cjk,
        "other": non_cjk * other_chars / denom,
    }


def _is_cjk_char(ch: str) -> bool:
    return cjk_ratio(ch) > 0.0


def dense_coverage(query: str, dense_languages: frozenset[str] | None,
                   shares: Mapping[str, float] | None = None) -> float:
    """Share (0..1) of the query's text written in scripts the embedding model covers (`shares`: the query's
    script shares when already known)."""
    if dense_languages is None:
        return 1.0
    scripts = _scripts(dense_languages)
    if scripts is None:
        return 1.0
    shares = script_shares(query) if shares is None else shares
    return sum(share for script, share in shares.items() if script in scripts)


def dense_weight(query: str, dense_languages: frozenset[str] | None,
                 shares: Mapping[str, float] | None = None) -> float:
    """Weight of the dense scores for this query (the keyword weight is 1 - this)."""
    c = dense_coverage(query, dense_languages, shares)
    return UNCOVERED_DENSE_WEIGHT + (COVERED_DENSE_WEIGHT - UNCOVERED_DENSE_WEIGHT) * c


def normalise(hits: Sequence[tuple[int, float]]) -> dict[int, float]:
    """Min-max normalise best-first hits to [0, 1]; first occurrence of an id wins."""
    scores: dict[int, float] = {}
    for chunk_id, score in hits:
        s = float(score)
        if chunk_id not in scores and math.isfinite(s):
            scores[chunk_id] = s
    if not scores:
        return {}
    lo, hi = min(scores.values()), max(scores.values())
    if hi - lo <= 1e-12:
        return {cid: 1.0 for cid in scores}
    span = hi - lo
    return {cid: (s - lo) / span for cid, s in scores.items()}


@dataclass(frozen=True)
class ConvexRule:
    """The three retrievers' weights in one pool (signals.py): a candidate in the question's language scores
    ``w * dense + (1 - w) * keyword`` (``w``: the query's dense weight, or a per-candidate one); one in another
    language (``dense_only``, with a multilingual model) ``(1 - g) * dense + g * gloss`` (``g``: GLOSS_WEIGHT when
    the gloss matched anything, else 0); with a model that does not cover both languages, one the gloss matched
    (``glossed``) ``UNCOVERED_DENSE_WEIGHT * dense + (1 - UNCOVERED_DENSE_WEIGHT) * gloss``."""

    w: float
    dense_only: frozenset[int] = frozenset()
    glossed: frozenset[int] = frozenset()
    g: float = 0.0
    weights: Mapping[int, float] = field(default_factory=dict)

    def dense(self, cid: int) -> float:
        if cid in self.dense_only:  # a multilingual model: meaning, and the gloss's matches
            return 1.0 - self.g
        if cid in self.glossed:  # an English-only model across languages: the gloss's matches are its keyword score
            return UNCOVERED_DENSE_WEIGHT
        return self.weights.get(cid, self.w)

    def keyword(self, cid: int) -> float:
        if cid in self.dense_only or cid in self.glossed:
            return 0.0
        return 1.0 - self.weights.get(cid, self.w)

    def gloss(self, cid: int) -> float:
        if cid in self.dense_only:
            return self.g
        if cid in self.glossed:
            return 1.0 - UNCOVERED_DENSE_WEIGHT
        return 0.0


def convex_rule(dense: Mapping[int, float], keyword: Mapping[int, float], glossed: Mapping[int, float],
                other: Iterable[int], query: str = "", dense_languages: frozenset[str] | None = None,
                shares: Mapping[str, float] | None = None,
                dense_weights: Mapping[int, float] | None = None) -> ConvexRule:
    """The rule for one pool, from the retrievers' normalised evidence: ``dense``, ``keyword`` and ``glossed`` (the
    gloss's scores of the passages in another language, ``other``). When one side found nothing (no keyword term
    matched, nor any of the question's gloss, or vectors not yet computed) the other is used alone, unscaled.
    ``dense_weights``: per candidate, the dense weight of the version of the question in its language (a
    translation's), overriding the query's; ``shares``: the query's script shares when already known."""
    if not dense or not (keyword or glossed):  # one side found nothing (the gloss's matches are keyword evidence too)
        w = 1.0 if dense else 0.0
    else:
        w = dense_weight(query, dense_languages, shares)
    dense_only = frozenset(other) if dense_languages is None and dense else frozenset()
    weights = dense_weights if dense_weights and dense and keyword else {}
    return ConvexRule(w, dense_only, frozenset(glossed), GLOSS_WEIGHT if glossed else 0.0, weights)


def fuse(parts: Sequence[tuple[Mapping[int, float], Callable[[int], float]]], k: int) -> list[tuple[int, float]]:
    """The top ``k`` candidates by ``sum(weight(cid) * evidence.get(cid, 0))`` over ``parts`` (each signal's evidence
    and weight, signals.py), best first; ties keep the order of first appearance (the first part's candidates,
    then the next's)."""
    if k <= 0:
        return []
    order: dict[int, int] = {}
    for evidence, _ in parts:
        for cid in evidence:
            order.setdefault(cid, len(order))

    def score(cid: int) -> float:
        total = 0.0
        for evidence, weight in parts:
            total += weight(cid) * evidence.get(cid, 0.0)
        return total

    fused = [(cid, score(cid)) for cid in order]
    fused.sort(key=lambda item: (-item[1], order[item[0]]))
    return fused[:k]


# ---- topic precision (issue 50): the rule of the "topic" signal (signals.py) ------------------------------------

TOPIC_WEIGHT = 0.15  # the topic signal's weight (bench/README.md, "Topic precision in ranking"); 0 turns the bonus off
TOPIC_DENSE_MARGIN = 0.3  # how much stronger (normalised dense) an off-topic passage must be to stay above
UNJUDGED_TOPIC = 0.5  # the topic share of a passage that cannot be judged on the terms (another language, names)


def topic_share(coverage: float | None) -> float:
    """A candidate's topic evidence: the share of the question's topic terms it names (None: it cannot be judged on
    them, UNJUDGED_TOPIC)."""
    return UNJUDGED_TOPIC if coverage is None else coverage


def topic_precedence(fused: Sequence[tuple[int, float]], coverage: Mapping[int, float | None],
                     dense: Mapping[int, float], weight: float = TOPIC_WEIGHT,
                     margin: float = TOPIC_DENSE_MARGIN, written: Mapping[int, frozenset[str]] | None = None,
                     glossed: Mapping[int, float] | None = None) -> list[tuple[int, float]]:
    """`fused` (best first; each score holds `weight` x the candidate's `topic_share`, so it lies in [0, 1 + weight])
    rescaled to [0, 1], best first (ties keep their order); then a candidate that names none of the question's topic
    terms (`coverage` 0) is put below every candidate naming some that it outranks, unless its normalised dense score
    (`dense`) is higher than that one's by `margin` or more: its words or the dictionary gloss alone never lift an
    off-topic passage over an on-topic one ("泡龙井用什么温度的水？": the coffee guide, glossed "water temperature",
    over the green-tea guide). No `coverage` (the question has no topic terms): `fused` as it is.

    Across languages (`written`: each candidate's languages; one not known shares them all) the judgement is weaker:
    a passage in another language than the question is judged through the word list's renderings ("赢得" -> "win",
    "公民" -> "citizen": an English paragraph saying "won" or "civil disobedience" names neither), the one in its
    language by the question's own words. So an off-topic candidate yields to one in another language only when that
    one names every topic term and the candidate outranks it by its gloss score alone (`glossed`: its part of the
    fused score; bench/README.md, "Topic precision in ranking")."""
    if not coverage:
        return list(fused)
    written, glossed = written or {}, glossed or {}
    scored = {cid: score / (1.0 + weight) for cid, score in fused}
    order = {cid: i for i, (cid, _) in enumerate(fused)}
    on_topic = [cid for cid in scored if (coverage.get(cid) or 0.0) > 0.0]
    for cid in [c for c in scored if coverage.get(c) == 0.0]:
        languages = written.get(cid)
        unglossed = scored[cid] - glossed.get(cid, 0.0) / (1.0 + weight)
        below = [scored[t] for t in on_topic if scored[t] <= scored[cid]
                 and dense.get(cid, 0.0) - dense.get(t, 0.0) < margin
                 and (not languages or not written.get(t) or languages & written[t]
                      or (coverage[t] >= 1.0 - 1e-9 and unglossed <= scored[t]))]
        if below:
            scored[cid] = min(below) * (1.0 - 1e-9)
            order[cid] = len(order) + order[cid]  # a tie goes to the one it must not outrank
    return sorted(scored.items(), key=lambda item: (-item[1], order[item[0]]))
