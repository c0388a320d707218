"""Context compression: inside each passage keep the sentences that carry the question, up to a token budget.

Each sentence is scored by keyword overlap with the question (idf-weighted terms of both languages, the
extractive answer's `terms`) and by meaning (the library's embedding model, `Similarity`), each min-max scaled
over the passages and mixed with the dense weight the search uses for this question. The best sentences are kept,
best first, while they fit; the best one brings its neighbours on both sides for context, and Markdown
headings of a passage with a kept sentence stay. Passages keep their place and label, so `[n]` and the viewer
still work: a compressed hit keeps its whole `text` and says in `focus` which character spans were sent (an
empty span: nothing of it matched). bench/compression.py measured the choices (bench/README.md).

Modes (`Settings.context_compression`, or `DESKTOP_RAG_CONTEXT_COMPRESSION=off|auto|always`): "off"; "auto"
compresses only when the passages exceed the token budget (down to it); "always" also keeps at most KEEP_SHARE
of their tokens.
Tokens are counted by `models.tokens` (a real tokenizer; the answering model's is unknown).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import sys
from collections.abc import Sequence

import numpy as np

from desktop_rag.engine.answer.selection import Similarity
from desktop_rag.engine.answer.sentences import split_sentences, terms
from desktop_rag.engine.models.tokens import count_tokens
from desktop_rag.engine.store.values import Hit

MODES = ("off", "auto", "always")
KEEP_SHARE = 0.55  # "always": at most this share of the tokens (>= 40 % saved, retention >= 0.99 on XQuAD)
NOTHING = ((0, 0),)  # the focus of a passage none of whose sentences was kept
GAP = " … "


def compression_mode(setting: str) -> str:
    """The mode a setting names; anything unknown is "auto"."""
    mode = (setting or "").strip().lower()
    return mode if mode in MODES else "auto"


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of `text` (extractive.split_sentences, found again in the raw text).

    split_sentences keeps every non-space character, in order, so each sentence's non-space characters come next
    in the text: one pass, whatever the passage's length.
    """
    letters = "".join(text.split())
    where = _non_space_positions(text)  # where[k]: the position in `text` of letters[k]
    spans: list[tuple[int, int]] = []
    at = 0
    for sentence in split_sentences(text):
        key = "".join(sentence.split())
        if key and letters.startswith(key, at):
            spans.append((int(where[at]), int(where[at + len(key) - 1]) + 1))
            at += len(key)
    return spans


def _non_space_positions(text: str) -> np.ndarray:
    """The positions of the characters of `text` that are not whitespace (as str.split sees it)."""
    points = np.frombuffer(text.encode("utf-32-le"), np.uint32)
    return np.flatnonzero(~np.isin(points, _spaces()))


@functools.cache
def _spaces() -> np.ndarray:
    return np.array([c for c in range(sys.maxunicode + 1) if chr(c).isspace()], np.uint32)


def sent_text(hit: Hit) -> str:
    """What the prompt shows of a passage: all of it, or its focus spans in order with gaps marked."""
    if not hit.focus:
        return hit.text
    pieces: list[str] = []
    end = None
    for start, stop in sorted(hit.focus):
        if stop <= start:
            continue
        if end is not None:
            gap = hit.text[end:start]
            pieces.append(gap if not gap.strip() else GAP)
        pieces.append(hit.text[start:stop])
        end = stop
    return "".join(pieces) or GAP.strip()


def compress(question: str, hits: Sequence[Hit], mode: str, budget_tokens: int,
             similarity: Similarity | None = None, dense_weight: float = 0.0) -> list[Hit]:
    """The hits with `focus` set to the sentences to send, or as given when compression does not apply."""
    hits = list(hits)
    before = sum(count_tokens(h.text) for h in hits)
    if mode == "off" or not hits or (mode == "auto" and before <= budget_tokens):
        return hits
    budget = min(budget_tokens, KEEP_SHARE * before) if mode == "always" else budget_tokens
    flat = [(i, span) for i, hit in enumerate(hits) for span in sentence_spans(hit.text)]
    if not flat:
        return hits
    texts = [hits[i].text[a:b] for i, (a, b) in flat]
    score = _scores(question, texts, similarity, dense_weight)
    order = sorted(range(len(flat)), key=lambda k: -score[k])  # stable: rank, then position, break ties
    where = {(flat[k][0], flat[k][1]): k for k in range(len(flat))}
    neighbours = _neighbours(flat, order[0])
    kept: set[int] = set()
    used = 0
    cost = [count_tokens(t) for t in texts]
    for k in order:
        group = [k, *neighbours] if k == order[0] else [k]
        extra = sum(cost[g] for g in group if g not in kept)
        if kept and (used + extra > budget or score[k] <= 0):  # (a sentence that matches nothing is not sent)
            continue
        kept.update(group)
        used += extra
    chosen: dict[int, list[tuple[int, int]]] = {}
    for i, span in (flat[k] for k in sorted(kept)):
        chosen.setdefault(i, []).append(span)
    for i, span in flat:  # headings of a passage that sends something stay with it
        if i in chosen and texts[where[(i, span)]].startswith("#"):
            chosen[i].append(span)
    return [dataclasses.replace(hit, focus=tuple(sorted(set(chosen[i]))) if i in chosen else NOTHING)
            for i, hit in enumerate(hits)]


def _neighbours(flat: Sequence[tuple[int, tuple[int, int]]], best: int) -> list[int]:
    """The sentences just before and after the best one, in its passage."""
    return [k for k in (best - 1, best + 1) if 0 <= k < len(flat) and flat[k][0] == flat[best][0]]


def _scores(question: str, sentences: list[str], similarity: Similarity | None, dense_weight: float) -> list[float]:
    """Keyword overlap and meaning, each scaled to 0..1 over the sentences, mixed by `dense_weight`."""
    asked = terms(question)
    sentence_terms = [terms(s) for s in sentences]
    n = len(sentences)
    idf = {t: math.log(1 + (n + 1) / (1 + sum(t in x for x in sentence_terms))) for t in asked}
    keyword = _scaled([sum(idf[t] for t in asked & x) for x in sentence_terms])
    meaning = _scaled(similarity(question, sentences)) if similarity and dense_weight > 0 else [0.0] * n
    return [(1 - dense_weight) * kw + dense_weight * m for kw, m in zip(keyword, meaning)]


def _scaled(values: Sequence[float]) -> list[float]:
    low, high = min(values, default=0.0), max(values, default=0.0)
    return [(v - low) / (high - low) if high > low else 0.0 for v in values]
