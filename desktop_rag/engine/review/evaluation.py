"""The labelled questions against the library as it is now (`Engine.evaluate`, `desktop-rag eval`): mean
recall@5, precision@5 and nDCG@10 for each retrieval mode side by side.

Modes: "hybrid" (the app's search, `Engine.search`, DEPTH passages: what bench/quality.py ranks), "dense" (the
vectors alone; only when the library has some) and "keyword" (FTS5 BM25 alone), with neighbours merged as the
app does; then "compression off" / "compression on": the `top_k` passages an answer is given, before and after
context compression ("always": a passage none of whose sentences would be sent does not count as given).
Feedback rules never apply here (a marked passage would rank itself first). A user label is relevant where a
passage holds the marked chunk; an imported one where a passage comes from the judged document (documents
ranked by their best passage, as bench/quality.py does).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from desktop_rag.engine.answer.compression import NOTHING, compress
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.review import labelled as sets
from desktop_rag.engine.review.metrics import docs_by_max_score, ndcg_at, precision_at, recall_at
from desktop_rag.engine.search.fusion import dense_weight
from desktop_rag.engine.search.retrieval import dense_candidates, hybrid_search, merge_neighbours
from desktop_rag.engine.store.restriction import member_filter
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.types import EvalReport, EvalScores, Hit, StaleLabel

DEPTH = 100  # passages ranked per question and mode (bench/quality.py's hybrid depth)
Rank = Callable[[str, Restriction], list[Hit]]


def run(engine, collection: int | None, queries: str | Path | None, qrels: str | Path | None,
        progress: Callable[[int, int], None] | None, cancel: threading.Event | None) -> EvalReport:
    """Measure every labelled question in every mode (`progress(done, total)` after each question; `cancel`
    stops between questions: the report then covers those done)."""
    if (queries is None) != (qrels is None):
        raise UsageError.coded("labelled_set_pair")
    if queries is not None and qrels is not None:
        questions, stale = sets.from_beir(engine.store, queries, qrels, collection)
    else:
        questions, stale = sets.from_grades(engine.store, collection)
    modes = _modes(engine)
    totals = {name: [0.0, 0.0, 0.0] for name in modes}
    measured, cancelled = 0, False
    for done, question in enumerate(questions, 1):
        if cancel is not None and cancel.is_set():
            cancelled = True
            break
        try:
            scores = {name: _scores(rank(question.query, question.within), question) for name, rank in modes.items()}
        except UsageError:  # a folder or file of the question's scope is no longer in the library
            stale.append(StaleLabel(question.id, question.question, "vanished"))
            continue
        for name, values in scores.items():
            totals[name] = [t + v for t, v in zip(totals[name], values)]
        measured += 1
        if progress is not None:
            progress(done, len(questions))
    results = tuple(EvalScores(name, measured, *(t / measured if measured else 0.0 for t in total))
                    for name, total in totals.items())
    return EvalReport("import" if queries is not None else "grades", results, tuple(stale), cancelled)


def _scores(hits: list[Hit], question: sets.Labelled) -> tuple[float, float, float]:
    """(recall@5, precision@5, nDCG@10) of one ranking."""
    ranked = _ranked_ids(hits, question)
    return (recall_at(ranked, set(question.relevant), 5), precision_at(ranked, set(question.relevant), 5),
            ndcg_at(ranked, set(question.relevant), 10))


def _ranked_ids(hits: list[Hit], question: sets.Labelled) -> list[str]:
    """The ranking as the ids the labels use: documents by their best passage, or passages (a passage holding a
    marked chunk is that chunk's id)."""
    if not question.chunks:
        return docs_by_max_score((Path(h.path).stem, h.score) for h in hits)
    ranked: list[str] = []
    for hit in hits:
        unit = next((str(c.chunk_id) for c in question.chunks if _holds(hit, c)), f"#{hit.chunk_id}")
        if unit not in ranked:
            ranked.append(unit)
    return ranked


def _holds(hit: Hit, chunk: Hit) -> bool:
    return hit.chunk_id == chunk.chunk_id or (
        hit.file_id == chunk.file_id and hit.char_start <= chunk.char_start and chunk.char_end <= hit.char_end)


def _modes(engine) -> dict[str, Rank]:
    """The retrieval modes this library has, by name, the app's own first."""
    store, settings = engine.store, engine.settings

    def hybrid(query: str, within: Restriction, k: int = DEPTH) -> list[Hit]:
        return list(engine.search(query, k, within.collection, within.folders, within.types, None, within.files))

    def keyword(query: str, within: Restriction) -> list[Hit]:
        return hybrid_search(query, DEPTH, store, None, settings.min_score, within=within)

    def dense(query: str, within: Restriction) -> list[Hit]:
        embedder, vectors = engine.dense_pair()
        members, selector = (1, None) if within.everything else member_filter(store, within)
        if not members:
            return []
        found = dense_candidates(query, embedder, vectors, DEPTH, settings.min_score, selector)
        return merge_neighbours(store.hits_for(found))[:DEPTH]

    def given(query: str, within: Restriction) -> list[Hit]:
        return hybrid(query, within, int(settings.top_k))

    def compressed(query: str, within: Restriction) -> list[Hit]:
        hits = given(query, within)
        weight = dense_weight(query, engine.embedder().languages) if store.has_vectors() else 0.0
        kept = compress(query, hits, "always", int(settings.context_budget_tokens), engine.sentence_similarity,
                        weight)
        return [h for h in kept if h.focus != NOTHING]

    modes: dict[str, Rank] = {"hybrid": hybrid}
    if store.has_vectors():
        modes["dense"] = dense
    modes.update({"keyword": keyword, "compression off": given, "compression on": compressed})
    return modes
