"""Search restricted to one of 5 collections vs unrestricted, at 100k synthetic chunks (retrieval only).

The synthetic library (bench/synthetic.py) is copied and its files dealt round-robin into 5 sources, one per
collection. Dense filtering happens inside FAISS (an IDSelectorBatch of the collection's vector ids, cached
until the vectors or the membership change); keyword search joins its matches to the collection. The
over-fetch alternative (unrestricted dense search of 5x more, then dropping other collections) is timed too.
"""

from __future__ import annotations

import argparse
import shutil
import time

import numpy as np

from bench.common import CACHE, emit, figure
from bench.query import FixedEmbedder, latency_rows, timed
from bench.synthetic import queries, synthetic_library

COLLECTIONS = 5


def split_library(n: int):
    """A copy of the n-chunk synthetic library with its files in 5 collections (built once, cached)."""
    from desktop_rag.engine.store import Store

    home = CACHE / f"synthetic-{n}-collections"
    if not (home / ".bench-complete").exists():
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir(parents=True)
        shutil.copy2(synthetic_library(n) / "library.sqlite3", home / "library.sqlite3")
        store = Store(home / "library.sqlite3")  # migrates to the collections schema: everything in "Default"
        with store.transaction() as db:
            for c in range(2, COLLECTIONS + 1):
                db.execute("INSERT INTO collections (id, name, created_at) VALUES (?, ?, 0)", (c, f"c{c}"))
            for c in range(1, COLLECTIONS + 1):
                db.execute("INSERT INTO sources (id, path, kind, added_at, collection_id) VALUES (?, ?, 'folder', 0, ?)",
                           (100 + c, f"/synthetic/c{c}", c))
            db.execute(f"UPDATE files SET source_id = 100 + ((id - 1) % {COLLECTIONS}) + 1")
            db.execute("DELETE FROM sources WHERE id = 1")
            store.bump_membership()
        store.close()
        (home / ".bench-complete").write_text("ok")
    return home


def bench(n: int, count: int) -> list[dict]:
    from desktop_rag.engine import collections
    from desktop_rag.engine.retrieval import hybrid_search
    from desktop_rag.engine.store import Store
    from desktop_rag.engine.vector_index import open_vector_index

    home = split_library(n)
    store = Store(home / "library.sqlite3")
    vectors = open_vector_index(home / "vectors.faiss", store, 384)
    texts, query_vectors = queries(count, n)
    fixed = FixedEmbedder()
    tag = f"collections{n // 1000}k"

    started = time.perf_counter()
    collections.member_filter(store, 3)
    cold = (time.perf_counter() - started) * 1000
    for c in range(1, COLLECTIONS + 1):
        collections.member_filter(store, c)

    def search(i: int, collection: int | None) -> None:
        fixed.vector = query_vectors[i]
        hybrid_search(texts[i], 5, store, lambda: (fixed, vectors), collection=collection)

    for i in range(10):
        search(i, None)
        search(i, i % COLLECTIONS + 1)
    everywhere = [timed(lambda i=i: search(i, None)) for i in range(count)]
    within = [timed(lambda i=i: search(i, i % COLLECTIONS + 1)) for i in range(count)]
    selectors = {c: collections.member_filter(store, c)[1] for c in range(1, COLLECTIONS + 1)}
    members = {c: set(store.collection_vector_ids(c).tolist()) for c in range(1, COLLECTIONS + 1)}
    dense_all = [timed(lambda q=q: vectors.search(q, 100)) for q in query_vectors]
    dense_in = [timed(lambda i=i, q=q: vectors.search(q, 100, selectors[i % COLLECTIONS + 1]))
                for i, q in enumerate(query_vectors)]

    def over_fetch(i: int, q: np.ndarray) -> int:
        keep = members[i % COLLECTIONS + 1]
        return len([h for h in vectors.search(q, 100 * COLLECTIONS) if h[0] in keep][:100])

    short = []
    dense_over = []
    for i, q in enumerate(query_vectors):
        dense_over.append(timed(lambda i=i, q=q: short.append(over_fetch(i, q))))
    keyword_all = [timed(lambda t=t: store.keyword_search(t, 100)) for t in texts]
    keyword_in = [timed(lambda i=i, t=t: store.keyword_search(t, 100, i % COLLECTIONS + 1)) for i, t in enumerate(texts)]
    kind = "IVF" if vectors.approximate else "exact"
    rows = latency_rows(f"{tag}.unrestricted", everywhere, note=f"{count} queries; {kind} index; hybrid_search k=5")
    rows += latency_rows(f"{tag}.one_of_{COLLECTIONS}", within, note="the same queries within one collection")
    rows += latency_rows(f"{tag}.dense_unrestricted", dense_all)
    rows += latency_rows(f"{tag}.dense_faiss_selector", dense_in, note="IDSelectorBatch inside the FAISS search")
    rows += latency_rows(f"{tag}.dense_over_fetch", dense_over,
                         note=f"top {100 * COLLECTIONS} unrestricted, filtered; "
                              f"{sum(s < 100 for s in short)}/{count} queries got fewer than 100")
    rows += latency_rows(f"{tag}.keyword_unrestricted", keyword_all)
    rows += latency_rows(f"{tag}.keyword_join", keyword_in, note="FTS5 matches joined to the collection")
    rows.append(figure(f"{tag}.filter_build", cold, "ms", note="first restricted query: the collection's ids + selector"))
    store.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args(argv)
    emit("collections", bench(args.size, args.queries))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
