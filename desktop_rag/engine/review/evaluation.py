"""The labelled questions against the library as it is now (`Engine.review.evaluate`, `desktop-rag eval`): mean
recall@5, precision@5 and nDCG@10 for each retrieval mode side by side.

Modes: "hybrid" (the app's search, `Engine.search`, DEPTH passages: what bench/quality.py ranks), "dense" (the
vectors alone; only when the library has some) and "keyword" (FTS5 BM25 alone), with neighbours merged as the
app does; then "compression off" / "compression on": the `top_k` passages an answer is given, before and after
context compression ("always": a passage none of whose sentences would be sent does not count as given), on
at most COMPRESSION_SAMPLE questions spread over the set (each mode says how many questions it measured).
Feedback rules never apply here (a marked passage would rank itself first). A user label is relevant where a
passage is the marked one (labelled.Target: the chunk, or most of its place in its file after a re-index); an
imported one where a passage comes from the judged document (documents ranked by their best passage, as
bench/quality.py does).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from desktop_rag.config import Settings
from desktop_rag.engine.answer.compression import NOTHING, compress
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.models.embedding import Embedder
from desktop_rag.engine.review import labelled as sets
from desktop_rag.engine.review.metrics import docs_by_max_score, ndcg_at, precision_at, recall_at
from desktop_rag.engine.review.reports import EvalReport, EvalScores, StaleLabel
from desktop_rag.engine.search.fusion import dense_weight
from desktop_rag.engine.search.retrieval import DensePair, dense_search, hybrid_search
from desktop_rag.engine.store.restriction import build
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import Hit


class Searcher(Protocol):
    """What measuring searches with: the app's search and what is loaded (the runtime, engine/runtime.py)."""

    settings: Settings

    @property
    def store(self) -> Store: ...

    def search(self, text: str, k: int, within: Restriction) -> Sequence[Hit]: ...  # the app's, no feedback
    def dense_pair(self) -> DensePair: ...
    def embedder(self, model_id: str | None = None) -> Embedder: ...
    def sentence_similarity(self, question: str, sentences: list[str]) -> list[float]: ...


DEPTH = 100  # passages ranked per question and mode (bench/quality.py's hybrid depth)
COMPRESSION_SAMPLE = 200  # questions the compression modes measure at most (evenly spread): ~2 s each on 2 cores
COMPRESSION_MODES = ("compression off", "compression on")
Rank = Callable[[str, Restriction], list[Hit]]


def run(searcher: Searcher, collection: int | None, queries: str | Path | None, qrels: str | Path | None,
        progress: Callable[[int, int], None] | None, cancel: threading.Event | None) -> EvalReport:
    """Measure every labelled question in every mode (`progress(done, total)` after each question; `cancel`
    stops between questions: the report then covers those done)."""
    if (queries is None) != (qrels is None):
        raise UsageError.coded("labelled_set_pair")
    store = searcher.store
    if queries is not None and qrels is not None:
        questions, stale = sets.from_beir(store, queries, qrels, collection)
    else:
        questions, stale = sets.from_grades(store, collection)
    modes = _modes(searcher, store)
    totals = {name: [0.0, 0.0, 0.0] for name in modes}
    measured = dict.fromkeys(modes, 0)
    sampled = _spread(len(questions), COMPRESSION_SAMPLE)
    cancelled = False
    for done, question in enumerate(questions, 1):
        if cancel is not None and cancel.is_set():
            cancelled = True
            break
        chosen = [name for name in modes if name not in COMPRESSION_MODES or done - 1 in sampled]
        try:
            scores = {name: _scores(modes[name](question.query, question.within), question) for name in chosen}
        except UsageError:  # a folder or file of the question's scope is no longer in the library
            stale.append(StaleLabel(question.id, question.question, "vanished"))
        else:
            for name, values in scores.items():
                totals[name] = [t + v for t, v in zip(totals[name], values)]
                measured[name] += 1
        if progress is not None:
            progress(done, len(questions))
    results = tuple(EvalScores(name, measured[name], *(t / measured[name] if measured[name] else 0.0 for t in total))
                    for name, total in totals.items())
    return EvalReport("import" if queries is not None else "grades", results, tuple(stale), cancelled)


def _spread(total: int, most: int) -> set[int]:
    """Up to `most` indices of `total`, evenly spread (all of them when they are fewer)."""
    return set(range(total)) if total <= most else {i * total // most for i in range(most)}


def _scores(hits: list[Hit], question: sets.Labelled) -> tuple[float, float, float]:
    """(recall@5, precision@5, nDCG@10) of one ranking."""
    ranked = _ranked_ids(hits, question)
    return (recall_at(ranked, set(question.relevant), 5), precision_at(ranked, set(question.relevant), 5),
            ndcg_at(ranked, set(question.relevant), 10))


def _ranked_ids(hits: list[Hit], question: sets.Labelled) -> list[str]:
    """The ranking as the ids the labels use: documents by their best passage, or passages (a passage that is a
    marked passage, `Target.found_in`, is its key)."""
    if not question.targets:
        return docs_by_max_score((Path(h.path).stem, h.score) for h in hits)
    ranked: list[str] = []
    for hit in hits:
        unit = next((t.key for t in question.targets if t.found_in(hit)), f"#{hit.chunk_id}")
        if unit not in ranked:
            ranked.append(unit)
    return ranked


def _modes(searcher: Searcher, store: Store) -> dict[str, Rank]:
    """The retrieval modes this library has, by name, the app's own first."""
    settings = searcher.settings

    def hybrid(query: str, within: Restriction, k: int = DEPTH) -> list[Hit]:  # UsageError: a folder or file gone
        checked = build(store, within.collection, within.folders, within.types, within.files)
        return list(searcher.search(query, k, checked))

    def keyword(query: str, within: Restriction) -> list[Hit]:
        return hybrid_search(query, DEPTH, store, None, settings.min_score, within=within)

    def dense(query: str, within: Restriction) -> list[Hit]:
        return dense_search(query, DEPTH, store, searcher.dense_pair, settings.min_score, within)

    def given(query: str, within: Restriction) -> list[Hit]:
        return hybrid(query, within, int(settings.top_k))

    def compressed(query: str, within: Restriction) -> list[Hit]:
        hits = given(query, within)
        weight = dense_weight(query, searcher.embedder().languages) if store.has_vectors() else 0.0
        kept = compress(query, hits, "always", int(settings.context_budget_tokens), searcher.sentence_similarity,
                        weight)
        return [h for h in kept if h.focus != NOTHING]

    modes: dict[str, Rank] = {"hybrid": hybrid}
    if store.has_vectors():
        modes["dense"] = dense
    modes.update({"keyword": keyword, "compression off": given, "compression on": compressed})
    return modes
