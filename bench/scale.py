"""Libraries of 100k and 1M synthetic chunks: open-to-first-search, idle RSS, disk per chunk, recall@10 per index type.

Each library is opened by a fresh child process holding a real `Engine` (with the library's embedding model),
the way the GUI opens one: `warm_up()` on a background thread, a search at once from the main thread. The
child reports when the first search answered (from the moment the parent spawned it) and whether it was
keyword-only, when the vectors were ready, `Engine.search` p50/p95 afterwards, and VmRSS once idle.
`--code DIR` runs the child against another copy of the package (the "before" figures).
Index types (exact, IVFFlat, IVF-SQ8) are compared in this process on the same stored vectors.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from bench.common import emit, figure, percentile
from bench.synthetic import DIM, queries, synthetic_library

REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, statistics, sys, threading, time
spawned, code, home, texts, n = float(sys.argv[1]), sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), int(sys.argv[5])
sys.path.insert(0, code)
from desktop_rag.engine.engine import open_engine

def rss(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024

engine = open_engine(home)
warm = threading.Thread(target=engine.warm_up, daemon=True)
warm.start()
hits = engine.search(texts[0])
first = time.time() - spawned
keyword_only = bool(getattr(hits, "keyword_only", False))
warm.join()
ready = time.time() - spawned
ms = []
for text in texts[1:]:
    started = time.perf_counter()
    hits = engine.search(text)
    ms.append((time.perf_counter() - started) * 1000)
ms.sort()
from bench.synthetic import queries
_, vectors = engine.runtime.dense_pair()
dense = []
for q in queries(100, n)[1]:
    started = time.perf_counter()
    vectors.search(q, 50)
    dense.append((time.perf_counter() - started) * 1000)
dense.sort()
print(json.dumps({"dense_p50_ms": dense[50], "dense_p95_ms": dense[95], "first_search_s": first, "first_keyword_only": keyword_only, "dense_ready_s": ready,
                  "search_p50_ms": ms[len(ms) // 2], "search_p95_ms": ms[int(len(ms) * 0.95)],
                  "after_keyword_only": bool(getattr(hits, "keyword_only", False)),
                  "idle_rss_mb": rss("VmRSS"), "peak_rss_mb": rss("VmHWM"),
                  "index": type(engine.runtime.vectors()._index).__name__}))
"""


def open_in_child(home: Path, code: Path, texts: list[str], n: int) -> dict:
    """One fresh process: open the library, search at once, then measure (see the module docstring)."""
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    spawned = time.time()
    out = subprocess.run([sys.executable, "-c", CHILD, str(spawned), str(code), str(home), json.dumps(texts), str(n)],
                         capture_output=True, text=True, env=env, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"child failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def recall_at_10(found: np.ndarray, exact: np.ndarray) -> float:
    return float(np.mean([len(set(f[:10]) & set(e[:10])) / 10 for f, e in zip(found, exact)]))


def index_types(home: Path, n: int, count: int) -> list[dict]:
    """Recall@10 against exact search, dense latency and memory per index type, on the stored vectors."""
    import faiss

    from desktop_rag.engine.store.sqlite import vector_index
    from desktop_rag.engine.store.sqlite.store import SqliteStore as Store

    store = Store(home / "library.sqlite3")
    _, query_vectors = queries(count, n)
    query_vectors = np.ascontiguousarray(query_vectors)
    ids = store.vector_ids()
    nlist = vector_index.nlist_for(len(ids))
    pick = np.sort(np.random.default_rng(0).choice(len(ids), size=vector_index._sample_size(len(ids)), replace=False))
    sample = np.concatenate([m[np.isin(i, ids[pick])] for i, m in store.iter_vectors()])
    kinds = {"exact": lambda: faiss.IndexIDMap2(faiss.IndexFlatIP(DIM)),
             "ivfflat": lambda: faiss.IndexIVFFlat(faiss.IndexFlatIP(DIM), DIM, nlist, faiss.METRIC_INNER_PRODUCT),
             "ivfsq8": lambda: faiss.IndexIVFScalarQuantizer(faiss.IndexFlatIP(DIM), DIM, nlist,
                                                             faiss.ScalarQuantizer.QT_8bit, faiss.METRIC_INNER_PRODUCT)}
    rows, exact = [], None
    tag = f"scale{n // 1000}k"
    for name, make in kinds.items():
        index = make()
        if not index.is_trained:
            index.train(sample)
        for chunk_ids, vectors in store.iter_vectors():
            index.add_with_ids(vectors, chunk_ids)
        found = index.search(query_vectors, 10)[1] if name == "exact" else None
        if name == "exact":
            exact = found
            del index
            continue
        size = len(faiss.serialize_index(index))
        for nprobe in sorted({max(1, nlist // 16), max(1, nlist // 8), vector_index.nprobe_for(nlist), nlist // 2}):
            index.nprobe = nprobe
            faiss.omp_set_num_threads(1)
            ms = []
            for q in query_vectors:
                started = time.perf_counter()
                index.search(q.reshape(1, -1), 50)
                ms.append((time.perf_counter() - started) * 1000)
            recall = recall_at_10(index.search(query_vectors, 10)[1], exact)
            default = nprobe == vector_index.nprobe_for(nlist)
            rows.append(figure(f"{tag}.{name}.nprobe{nprobe}.recall@10", recall, "",
                               note=f"nlist {nlist}; dense p50 / p95 {percentile(ms, 50):.1f} / "
                                    f"{percentile(ms, 95):.1f} ms; serialized {size / 2**20:.0f} MB"
                                    + ("; shipped nprobe" if default else "")))
        del index
    store.close()
    return rows


def bench_size(n: int, code: Path, label: str, count: int, types: bool) -> list[dict]:
    home = synthetic_library(n)
    texts, _ = queries(count, n)
    tag = f"scale{n // 1000}k.{label}"
    started = time.perf_counter()
    prime = open_in_child(home, code, texts[:3], n)  # builds (or converts) the cache once, as a first open would
    primed = time.perf_counter() - started
    run = open_in_child(home, code, texts, n)
    sqlite_bytes = (home / "library.sqlite3").stat().st_size
    cache = home / "vectors.faiss"
    cache_bytes = cache.stat().st_size if cache.exists() else 0
    load = os.getloadavg()
    rows = [figure(f"{tag}.first_open_with_cache_build", primed, "s", note=f"index {prime['index']}"),
            figure(f"{tag}.open_to_first_search", run["first_search_s"], "s", "<= 2", run["first_search_s"] <= 2,
                   note=("keyword-only (vectors loading)" if run["first_keyword_only"] else "hybrid")
                        + f"; load {load[0]:.1f}"),
            figure(f"{tag}.open_to_dense_ready", run["dense_ready_s"], "s", note="model + vector index loaded"),
            figure(f"{tag}.search.p50", run["search_p50_ms"], "ms", note=f"Engine.search, {count - 1} queries, "
                   f"model included; index {run['index']}"),
            figure(f"{tag}.search.p95", run["search_p95_ms"], "ms"),
            figure(f"{tag}.dense.p50", run["dense_p50_ms"], "ms", note=f"the engine's vector index alone, 100 queries"),
            figure(f"{tag}.dense.p95", run["dense_p95_ms"], "ms"),
            figure(f"{tag}.idle_rss", run["idle_rss_mb"], "MB", "<= 1024", run["idle_rss_mb"] <= 1024,
                   note=f"peak {run['peak_rss_mb']:.0f} MB; model included"),
            figure(f"{tag}.disk_per_chunk", (sqlite_bytes + cache_bytes) / n, "B",
                   note=f"SQLite {sqlite_bytes / n:.0f} B + cache {cache_bytes / n:.0f} B"),
            figure(f"{tag}.loadavg", load[0], "", note=f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")]
    if types:
        rows += index_types(home, n, count)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="100000,1000000", help="synthetic library sizes (chunks)")
    parser.add_argument("--queries", type=int, default=30, help="Engine.search queries (the model embeds each)")
    parser.add_argument("--code", default=str(REPO), help="the package tree the child runs (another copy: before)")
    parser.add_argument("--label", default="after")
    parser.add_argument("--no-types", action="store_true", help="skip the index-type comparison")
    args = parser.parse_args(argv)
    rows = []
    for n in [int(s) for s in args.sizes.split(",") if s]:
        rows += bench_size(n, Path(args.code), args.label, args.queries, not args.no_types)
    emit("scale", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
