"""Search restricted to one of 5 collections, one folder, one file type vs unrestricted, at 100k synthetic
chunks (retrieval only).

The synthetic library (bench/synthetic.py) is copied and its files dealt round-robin into 5 sources, one per
collection, each source a folder `/synthetic/cN` with 50 subfolders `dM`; every fourth file is a `.md`, the
rest `.txt`. Dense filtering happens inside FAISS (an IDSelectorBatch of the restriction's vector ids, cached
until the vectors or the membership change); keyword search joins its matches to the files. The over-fetch
alternative (unrestricted dense search of 5x more, then dropping other collections) is timed too.
"""

from __future__ import annotations

import argparse
import shutil
import time

import numpy as np

from bench.common import CACHE, emit, figure
from bench.query import FixedEmbedder, latency_rows, timed
from bench.synthetic import queries, synthetic_library
from desktop_rag.engine.store.sqlite.keyword_index import search as keyword_search

COLLECTIONS = 5
SUBFOLDERS = 50  # per collection folder: 400 chunks each at 100k


def split_library(n: int):
    """A copy of the n-chunk synthetic library with its files in 5 collections (built once, cached)."""
    from desktop_rag.engine.store.sqlite.store import SqliteStore as Store

    home = CACHE / f"synthetic-{n}-collections-folders"
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
            db.execute(f"UPDATE files SET path = '/synthetic/c' || (((id - 1) % {COLLECTIONS}) + 1) || '/d' || "
                       f"((id / {COLLECTIONS}) % {SUBFOLDERS}) || '/doc' || id || "
                       "CASE WHEN id % 4 = 0 THEN '.md' ELSE '.txt' END")
            db.execute("DELETE FROM sources WHERE id = 1")
            store.bump_membership()
        store.close()
        (home / ".bench-complete").write_text("ok")
    return home


def bench(n: int, count: int, filters_only: bool = False) -> list[dict]:
    from desktop_rag.engine.search.retrieval import hybrid_search
    from desktop_rag.engine.store.scope import Restriction
    from desktop_rag.engine.store.sqlite.filters import member_filter
    from desktop_rag.engine.store.sqlite.store import SqliteStore as Store
    from desktop_rag.engine.store.sqlite.vector_index import open_vector_index

    home = split_library(n)
    store = Store(home / "library.sqlite3")
    vectors = open_vector_index(home / "vectors.faiss", store, 384)
    texts, query_vectors = queries(count, n)
    fixed = FixedEmbedder()
    tag = f"collections{n // 1000}k"
    if filters_only:
        rows = bench_folders_and_types(store, vectors, texts, query_vectors, fixed, f"filters{n // 1000}k")
        store.close()
        return rows

    started = time.perf_counter()
    member_filter(store, Restriction(collection=3))
    cold = (time.perf_counter() - started) * 1000
    for c in range(1, COLLECTIONS + 1):
        member_filter(store, Restriction(collection=c))

    def search(i: int, collection: int | None) -> None:
        fixed.vector = query_vectors[i]
        hybrid_search(texts[i], 5, store, lambda: (fixed, vectors), collection=collection)

    for i in range(10):
        search(i, None)
        search(i, i % COLLECTIONS + 1)
    everywhere = [timed(lambda i=i: search(i, None)) for i in range(count)]
    within = [timed(lambda i=i: search(i, i % COLLECTIONS + 1)) for i in range(count)]
    selectors = {c: member_filter(store, Restriction(collection=c))[1] for c in range(1, COLLECTIONS + 1)}
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
    rows += bench_folders_and_types(store, vectors, texts, query_vectors, fixed, f"filters{n // 1000}k")
    store.close()
    return rows


def bench_folders_and_types(store, vectors, texts, query_vectors, fixed, tag: str) -> list[dict]:
    """The same queries within a folder, a subfolder, a file type, and a folder and a type (issue 13)."""
    from desktop_rag.engine.search.retrieval import hybrid_search
    from desktop_rag.engine.store.restriction import build
    from desktop_rag.engine.store.sqlite.filters import member_filter

    folders = [build(store, folders=[f"/synthetic/c{c}"]) for c in range(1, COLLECTIONS + 1)]
    subfolders = [build(store, folders=[f"/synthetic/c{1 + i % COLLECTIONS}/d{i}"]) for i in range(10)]
    markdown = [build(store, types=["md"])]
    both = [build(store, folders=[f"/synthetic/c{c}"], types=["md"]) for c in range(1, COLLECTIONS + 1)]
    builds = {}
    for name, kinds in (("folder", folders), ("subfolder", subfolders), ("type", markdown), ("folder_type", both)):
        started = time.perf_counter()
        member_filter(store, kinds[0])
        builds[name] = (time.perf_counter() - started) * 1000, member_filter(store, kinds[0])[0]
        for within in kinds:
            member_filter(store, within)

    def search(i: int, within) -> None:
        fixed.vector = query_vectors[i]
        hybrid_search(texts[i], 5, store, lambda: (fixed, vectors), within=within)

    cases = {"unrestricted": ([None], "the same queries, timed in turn with the restricted ones below"),
             "folder": (folders, "one of 5 folders (20% of the chunks)"),
             "subfolder": (subfolders, "one of 250 subfolders (0.4%)"),
             "type_md": (markdown, "one file type (25%)"),
             "folder_and_type": (both, "one folder and one type (5%)")}
    for i in range(5):
        for kinds, _ in cases.values():
            search(i, kinds[i % len(kinds)])
    ms: dict[str, list[float]] = {name: [] for name in cases}
    keyword_ms: dict[str, list[float]] = {"keyword_unrestricted": [], "keyword_folder": []}
    for i, text in enumerate(texts):  # interleaved: a change in the machine's load hits every case alike
        for name, (kinds, _) in cases.items():
            ms[name].append(timed(lambda i=i, w=kinds[i % len(kinds)]: search(i, w)))
        keyword_ms["keyword_unrestricted"].append(timed(lambda t=text: keyword_search(store.db, t, 100)))
        keyword_ms["keyword_folder"].append(
            timed(lambda t=text, w=folders[i % COLLECTIONS]: keyword_search(store.db, t, 100, w)))
    rows = []
    for name, (_, note) in cases.items():
        rows += latency_rows(f"{tag}.{name}", ms[name], note=note)
    rows += latency_rows(f"{tag}.keyword_unrestricted", keyword_ms["keyword_unrestricted"])
    rows += latency_rows(f"{tag}.keyword_folder", keyword_ms["keyword_folder"],
                         note="FTS5 matches joined to the folder's files")
    for name, (ms, members) in builds.items():
        rows.append(figure(f"{tag}.filter_build_{name}", ms, "ms", note=f"first query: {members} vector ids + selector"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--filters-only", action="store_true", help="only the folder and file-type figures")
    args = parser.parse_args(argv)
    emit("collections", bench(args.size, args.queries, args.filters_only))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
