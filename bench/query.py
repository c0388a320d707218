"""Query latency: Engine.search on SciFact, and retrieval-only (dense + keyword + fusion) at 100k and 1M chunks."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from bench.common import HASH_MODEL, emit, figure, library, load_beir, percentile, uncapped_keyword_search
from bench.synthetic import DIM, queries, synthetic_library


class FixedEmbedder:
    """Stands in for the model in retrieval-only timings: returns the query vector set beforehand."""

    model_id = "synthetic"
    languages = frozenset({"en"})
    dimension = DIM

    def __init__(self) -> None:
        self.vector = np.zeros(DIM, dtype=np.float32)

    speed = 1e9

    def embed(self, texts, batch_size: int = 64) -> np.ndarray:
        return self.vector.reshape(1, -1)

    def embed_queries(self, texts) -> np.ndarray:
        return self.vector.reshape(1, -1)


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def latency_rows(name: str, ms: list[float], target: float | None = None, note: str = "") -> list[dict]:
    p50, p95 = percentile(ms, 50), percentile(ms, 95)
    return [figure(f"{name}.p50", p50, "ms", f"<= {target:g}" if target else "", p50 <= target if target else None,
                   note=note),
            figure(f"{name}.p95", p95, "ms")]


def recall_at_10(found: np.ndarray, exact: np.ndarray) -> float:
    return float(np.mean([len(set(f[:10]) & set(e[:10])) / 10 for f, e in zip(found, exact)]))


def exact_top(store, query_vectors: np.ndarray, k: int = 10) -> np.ndarray:
    """Exact inner-product top-k ids over every stored vector (the reference for recall)."""
    import faiss

    index = faiss.IndexIDMap2(faiss.IndexFlatIP(DIM))
    for ids, vectors in store.iter_vectors():
        index.add_with_ids(vectors, ids)
    return index.search(np.ascontiguousarray(query_vectors), k)[1]


def nprobe_curve(vectors, query_vectors: np.ndarray, exact: np.ndarray, name: str) -> list[dict]:
    """Recall@10 and dense latency of the IVF index for several nprobe values (the default last)."""
    index = vectors._index
    default = index.nprobe
    rows = []
    candidates = {max(1, default // 4), max(1, default // 2), default * 2, default}
    for nprobe in sorted(candidates, key=lambda x: x == default):
        index.nprobe = nprobe
        found = np.array([([i for i, _ in vectors.search(q, 10)] + [-1] * 10)[:10] for q in query_vectors])
        ms = [timed(lambda q=q: vectors.search(q, 50)) for q in query_vectors]
        recall = recall_at_10(found, exact)
        is_default = nprobe == default
        rows.append(figure(f"{name}.recall@10.nprobe{nprobe}", recall, "", ">= 0.95" if is_default else "",
                           recall >= 0.95 if is_default else None,
                           note=f"nlist {index.nlist}, dense p50 {percentile(ms, 50):.1f} ms"
                                + (" (default)" if is_default else "")))
    index.nprobe = default
    return rows


def bench_scifact(limit: int | None, model: str | None, warmup: int) -> list[dict]:
    """Engine.search (embedding + dense + keyword + fusion) on the indexed SciFact library."""
    from desktop_rag.engine.engine import open_engine

    home = library("scifact", limit, model)
    engine = open_engine(home)
    engine.warm_up()
    texts = list(load_beir("scifact", limit).queries.values())
    for text in texts[:warmup]:
        engine.search(text)
    total = [timed(lambda t=t: engine.search(t)) for t in texts]
    (embedder, vectors), store = engine.runtime.dense_pair(), engine.store
    embed = [timed(lambda t=t: embedder.embed_queries([t])) for t in texts]
    query_vectors = embedder.embed_queries(texts)
    dense = [timed(lambda q=q: vectors.search(q, 50)) for q in query_vectors]
    keyword = [timed(lambda t=t: store.keyword_search(t, 50)) for t in texts]
    note = f"{len(texts)} queries, {vectors.size} chunks, k={engine.settings.top_k}"
    rows = latency_rows("scifact.search", total, 25, note)
    rows += latency_rows("scifact.query_embedding", embed) + latency_rows("scifact.dense", dense)
    rows += latency_rows("scifact.keyword", keyword)
    rows += ivf_on_real_vectors(store, query_vectors)
    engine.close()
    return rows


def ivf_on_real_vectors(store, query_vectors: np.ndarray) -> list[dict]:
    """Recall of the IVF kind on real MiniLM vectors (forced below its threshold) against exact search."""
    from desktop_rag.engine.store.sqlite import vector_index

    saved = vector_index.APPROX_THRESHOLD
    vector_index.APPROX_THRESHOLD = 0
    try:
        ivf = vector_index.rebuild_vector_index(store, DIM)
    finally:
        vector_index.APPROX_THRESHOLD = saved
    return nprobe_curve(ivf, query_vectors, exact_top(store, query_vectors), "scifact.ivf_forced")


def keyword_cap_rows(store, texts: list[str], tag: str) -> list[dict]:
    """Keyword search without the postings budget (same run): latency, and top-10 overlap with the capped one."""

    from desktop_rag.engine.store.sqlite.keyword_index import KEYWORD_POSTINGS_BUDGET

    capped = [[c for c, _ in store.keyword_search(t, 10)] for t in texts]
    with uncapped_keyword_search():
        full_ms = [timed(lambda t=t: store.keyword_search(t, 50)) for t in texts]
        full = [[c for c, _ in store.keyword_search(t, 10)] for t in texts]
    overlap = float(np.mean([len(set(a) & set(b)) / max(len(b), 1) for a, b in zip(capped, full)]))
    return latency_rows(f"{tag}.keyword_uncapped", full_ms) + [
        figure(f"{tag}.keyword.overlap@10_with_uncapped", overlap,
               note=f"budget {KEYWORD_POSTINGS_BUDGET} matching chunks per query")]


def bench_synthetic(n: int, count: int) -> list[dict]:
    """Retrieval only (no query embedding): hybrid_search with fixed query vectors over `n` synthetic chunks."""
    from desktop_rag.engine.search.retrieval import hybrid_search
    from desktop_rag.engine.store.sqlite.store import SqliteStore as Store
    from desktop_rag.engine.store.sqlite.vector_index import open_vector_index

    home = synthetic_library(n)
    built = float((home / ".bench-complete").read_text() or 0)
    store = Store(home / "library.sqlite3")
    rebuilt = not (home / "vectors.faiss").exists()
    started = time.perf_counter()
    vectors = open_vector_index(home / "vectors.faiss", store, DIM)
    opened = time.perf_counter() - started
    texts, query_vectors = queries(count, n)
    fixed = FixedEmbedder()

    def search(i: int) -> None:
        fixed.vector = query_vectors[i]
        hybrid_search(texts[i], 5, store, lambda: (fixed, vectors))

    for i in range(min(10, count)):
        search(i)
    total = [timed(lambda i=i: search(i)) for i in range(count)]
    dense = [timed(lambda q=q: vectors.search(q, 50)) for q in query_vectors]
    keyword = [timed(lambda t=t: store.keyword_search(t, 50)) for t in texts]
    tag = f"synthetic{n // 1000}k" if n >= 1000 else f"synthetic{n}"
    kind = vectors.kind  # exact, ivf-sq8 (or ivf-flat: a cache from before the compressed kind)
    rows = latency_rows(f"{tag}.retrieval", total, 50 if n >= 1_000_000 else None,
                        f"{count} queries; {kind} index; dense + keyword + fusion + hits")
    rows += latency_rows(f"{tag}.dense", dense) + latency_rows(f"{tag}.keyword", keyword)
    rows.append(figure(f"{tag}.open_vector_index", opened, "s",
                       note=("rebuilt from the store and saved" if rebuilt else "loaded from vectors.faiss")
                            + f"; store built in {built:.0f} s"))
    rows += keyword_cap_rows(store, texts, tag)
    if vectors.approximate:
        rows += nprobe_curve(vectors, query_vectors, exact_top(store, query_vectors), tag)
    store.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tiny", action="store_true", help="30 documents, hash embedder, 2k synthetic chunks")
    parser.add_argument("--sizes", default="100000,1000000", help="synthetic library sizes (chunks)")
    parser.add_argument("--queries", type=int, default=200, help="synthetic queries per size")
    parser.add_argument("--skip-scifact", action="store_true")
    args = parser.parse_args(argv)
    sizes = [2000] if args.tiny else [int(s) for s in args.sizes.split(",") if s]
    rows = [] if args.skip_scifact else bench_scifact(30 if args.tiny else None, HASH_MODEL if args.tiny else None,
                                                      2 if args.tiny else 20)
    for n in sizes:
        rows += bench_synthetic(n, 20 if args.tiny else args.queries)
    emit("query", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
