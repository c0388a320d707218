"""A library on a PostgreSQL server against the same one on this computer (issue 46), in one run:

- `quality`: nDCG@10 of the shipped hybrid search on SciFact and XQuAD-zh (../shared/data), each corpus indexed
  through the CLI into a SQLite library and into a server library in this run (their ingest seconds side by side);
- `scale`: retrieval-only p50/p95 (keyword + dense + fusion, the model left out as bench.query does) over the
  synthetic libraries of bench/synthetic.py at 100k and 1M chunks, the same chunks and vectors in SQLite + FAISS
  and in PostgreSQL + pgvector (HNSW; its recall@10 against an exact scan);
- `clients`: one client indexing a folder against two clients indexing its two halves at the same time.

The server is the app's own `local-server` (PostgreSQL 18, pgvector 0.8) in the bench cache, with the memory a
2-core, 24 GB machine gives a database it serves alone (shared_buffers 2 GB, maintenance_work_mem 2 GB).
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

from bench.common import CACHE, build_folder, emit, figure, load_beir, ndcg_at, percentile
from bench.synthetic import CHUNKS_PER_FILE, DIM, BATCH, VectorSource, queries, synthetic_library, vocabulary, \
    zipf_probabilities, WORDS_PER_CHUNK, VOCABULARY

REPO = Path(__file__).resolve().parent.parent
SERVER_DIR = CACHE / "pg-server"
TUNING = {"shared_buffers": "2GB", "maintenance_work_mem": "2GB", "max_parallel_maintenance_workers": "1",
          "effective_cache_size": "8GB", "max_wal_size": "8GB", "checkpoint_timeout": "30min"}


def start_server():
    """The bench's server (made on first use, tuned, then kept in the cache)."""
    from desktop_rag.engine import LocalServer

    server = LocalServer(SERVER_DIR)
    fresh = not (server.data / "PG_VERSION").exists()
    server.start()
    if fresh:
        admin = _admin(server, "postgres")
        for key, value in TUNING.items():
            admin.run(f"ALTER SYSTEM SET {key} = '{value}'")
        admin.close()
        server.stop()
        server.start()
    return server


def _admin(server, database: str):
    import pg8000.native

    return pg8000.native.Connection("postgres", database=database, password=server.password, timeout=None,
                                    unix_sock=str(server.socket_dir / ".s.PGSQL.5432"))


def url_of(server, database: str) -> str:
    return f"postgresql://postgres:{server.password}@/{database}?host={server.socket_dir}&port=5432"


def fresh_database(server, name: str) -> str:
    admin = _admin(server, "postgres")
    admin.run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.run(f'CREATE DATABASE "{name}"')
    admin.close()
    return url_of(server, name)


def cli(home: Path, *args: str, library: str | None = None, model: str | None = None) -> tuple[float, str]:
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", PYTHONPATH=str(REPO))
    if model:
        env["DESKTOP_RAG_EMBEDDING_MODEL"] = model
    command = [sys.executable, "-m", "desktop_rag", "--data-dir", str(home)]
    command += ["--library", library] if library else []
    started = time.perf_counter()
    result = subprocess.run([*command, *args], capture_output=True, text=True, env=env, cwd=REPO)
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    return time.perf_counter() - started, result.stdout


# ---- quality ---------------------------------------------------------------------------------------------------

def cmd_quality(datasets: list[str], limit: int | None) -> list[dict]:
    from desktop_rag.config import resolve_paths
    from desktop_rag.engine.engine import Engine
    from bench.common import doc_id_of, docs_by_max_score

    server = start_server()
    rows = []
    try:
        for name in datasets:
            folder = build_folder(name, limit)
            home = CACHE / f"server-bench-{name}"
            local_home, server_home = home / "local", home / "client"
            import shutil

            shutil.rmtree(home, ignore_errors=True)
            url = fresh_database(server, f"quality_{name.replace('-', '_')}")
            local_s, _ = cli(local_home, "index", str(folder), "--json")
            server_s, _ = cli(server_home, "index", str(folder), "--json", library=url)
            beir = load_beir(name, limit)
            scores = {}
            for label, engine in (("local", Engine(resolve_paths(local_home))),
                                  ("server", Engine(resolve_paths(server_home), library=url))):
                engine.warm_up()
                total = 0.0
                started = time.perf_counter()
                for qid, text in beir.queries.items():
                    ranked = docs_by_max_score((doc_id_of(h.path), h.score) for h in engine.search(text, 100))
                    total += ndcg_at(ranked, beir.qrels[qid], 10)
                scores[label] = total / len(beir.queries)
                rows.append(figure(f"{name}.{label}.ndcg@10", scores[label],
                                   note=f"{len(beir.queries)} queries, {time.perf_counter() - started:.0f} s"))
                engine.close()
            rows.append(figure(f"{name}.ndcg_difference", scores["server"] - scores["local"], "", "|x| <= 0.005",
                               abs(scores["server"] - scores["local"]) <= 0.005))
            rows.append(figure(f"{name}.ingest_seconds", f"local {local_s:.0f} s, server {server_s:.0f} s",
                               note=f"server / local = {server_s / local_s:.2f}"))
    finally:
        server.stop()
    return rows


# ---- scale -------------------------------------------------------------------------------------------------------

def server_synthetic(server, n: int) -> str:
    """A server database holding the same `n` synthetic chunks and vectors as bench/synthetic.py's SQLite library
    (the same seeds), bulk-loaded, then indexed (GIN keyword index, HNSW vectors); built once, cached."""
    from desktop_rag.engine.store.postgres import keyword, schema
    from desktop_rag.engine.store.postgres.connection import Connection
    from desktop_rag.engine.store.postgres.url import parse_server_url

    name = f"synthetic_{n}"
    admin = _admin(server, "postgres")
    exists = admin.run("SELECT 1 FROM pg_database WHERE datname = :n", n=name)
    admin.close()
    url = url_of(server, name)
    if exists:
        db = _admin(server, name)
        done = db.run("SELECT value FROM desktop_rag.meta WHERE key = 'bench_complete'")
        loaded = db.run("SELECT value FROM desktop_rag.meta WHERE key = 'bench_loaded'")
        db.close()
        if done:
            return url
        if loaded:  # the rows are in: only the indexes are left
            _index_synthetic(server, name, json.loads(loaded[0][0]))
            return url
    url = fresh_database(server, name)
    db = Connection(parse_server_url(url))
    schema.open_schema(db, "bench", False)
    started = time.perf_counter()
    from desktop_rag.config import BUNDLED_MODEL

    for key, value in (("embedding_model", BUNDLED_MODEL), ("dimension", str(DIM)), ("chunk_size", "500"),
                       ("chunk_overlap", "50")):
        db.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))
    collection = db.execute("SELECT min(id) FROM collections").fetchone()[0]
    db.execute("INSERT INTO sources (id, path, kind, added_at, collection_id) VALUES (1, '/synthetic', 'folder', 0, ?)",
               (collection,))
    files = (n + CHUNKS_PER_FILE - 1) // CHUNKS_PER_FILE
    db.execute("INSERT INTO files (id, source_id, path, status, chunk_count, collection_id) SELECT f, 1, "
               "'/synthetic/doc' || lpad((f - 1)::text, 7, '0') || '.txt', 'indexed', ?, ? FROM generate_series(1, ?) f",
               (CHUNKS_PER_FILE, collection, files))
    db.execute("DROP INDEX IF EXISTS chunks_terms")
    for table in ("chunks", "vectors"):
        db.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
    db.execute(f"ALTER TABLE vectors ALTER COLUMN embedding TYPE vector({DIM})")
    words, p = vocabulary(), zipf_probabilities()
    vectors = VectorSource(n)
    rng = np.random.default_rng(3)  # the same draws as bench/synthetic.py: the same chunks and vectors
    tokens = 0
    for start in range(0, n, BATCH):
        count = min(BATCH, n - start)
        ids = np.arange(start + 1, start + count + 1)
        texts = [" ".join(row) for row in words[rng.choice(VOCABULARY, (count, WORDS_PER_CHUNK), p=p)]]
        blobs = vectors.draw(count, rng)
        terms = [keyword.index_terms("", t) for t in texts]
        tokens += sum(k for _, k in terms)
        db.execute("INSERT INTO chunks (id, file_id, ordinal, text, heading, char_start, char_end, collection_id, "
                   "terms, term_count) SELECT u.id, (u.id - 1) / ? + 1, (u.id - 1) % ?, u.t, '', 0, length(u.t), ?, "
                   "u.k::tsvector, u.c FROM unnest(?::bigint[], ?::text[], ?::text[], ?::int[]) AS u(id, t, k, c)",
                   (CHUNKS_PER_FILE, CHUNKS_PER_FILE, collection, ids.tolist(), texts, [k for k, _ in terms],
                    [c for _, c in terms]))
        db.execute("INSERT INTO vectors (chunk_id, collection_id, embedding) SELECT u.id, ?, u.e::vector FROM "
                   "unnest(?::bigint[], ?::text[]) AS u(id, e)",
                   (collection, ids.tolist(), ["[" + ",".join(f"{x:.7g}" for x in v) + "]" for v in blobs.tolist()]))
        print(f"server synthetic {n}: {start + count} rows, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    db.execute("INSERT INTO library_counters (backend, version, chunks, tokens) VALUES (-1, 1, ?, ?)", (n, tokens))
    db.execute("SELECT setval('chunk_ids', ?)", (n,))
    for table in ("chunks", "vectors"):
        db.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
    db.execute("INSERT INTO meta VALUES ('bench_loaded', ?)", (json.dumps({"load_s": time.perf_counter() - started}),))
    db.close()
    _index_synthetic(server, name, {"load_s": time.perf_counter() - started})
    return url


def _index_synthetic(server, name: str, built: dict) -> None:
    """The keyword (GIN) and vector (HNSW) indexes, built after the rows (on a connection without a time limit)."""
    db = _admin(server, name)
    db.run("SET search_path = desktop_rag, public")
    started = time.perf_counter()
    db.run("CREATE INDEX IF NOT EXISTS chunks_terms ON chunks USING gin (terms)")
    built["gin_s"] = time.perf_counter() - started
    db.run("CREATE INDEX IF NOT EXISTS vectors_hnsw ON vectors USING hnsw (embedding vector_ip_ops)")
    built["hnsw_s"] = time.perf_counter() - started - built["gin_s"]
    db.run("ANALYZE")
    db.run("INSERT INTO meta VALUES ('bench_complete', :v)", v=json.dumps(built))
    db.close()


def cmd_scale(sizes: list[int], count: int) -> list[dict]:
    from desktop_rag.config import resolve_paths
    from desktop_rag.engine.engine import Engine
    from desktop_rag.engine.search.retrieval import hybrid_search
    from bench.query import FixedEmbedder

    server = start_server()
    rows = []
    try:
        for n in sizes:
            url = server_synthetic(server, n)
            built = json.loads(_admin(server, f"synthetic_{n}").run(
                "SELECT value FROM desktop_rag.meta WHERE key = 'bench_complete'")[0][0])
            rows.append(figure(f"server.{n // 1000}k.build", f"load {built['load_s']:.0f} s, GIN {built['gin_s']:.0f} s, "
                                                            f"HNSW {built['hnsw_s']:.0f} s"))
            texts, query_vectors = queries(count, n)
            local_home = synthetic_library(n)
            fixed = FixedEmbedder()
            for label, engine in (("local", Engine(resolve_paths(local_home))),
                                  ("server", Engine(resolve_paths(CACHE / f"server-client-{n}"), library=url))):
                vectors = engine.runtime.vectors()
                store = engine.store

                def search(i: int) -> float:
                    fixed.vector = query_vectors[i]
                    started = time.perf_counter()
                    hybrid_search(texts[i], 5, store, lambda: (fixed, vectors))
                    return (time.perf_counter() - started) * 1000

                for i in range(min(10, count)):
                    search(i)  # warm: caches and pages
                times = sorted(search(i) for i in range(count))
                rows.append(figure(f"{label}.{n // 1000}k.retrieval_p50_ms", percentile(times, 50), "ms",
                                   "<= 100 ms at 1M" if label == "server" and n >= 1_000_000 else "",
                                   percentile(times, 50) <= 100 if label == "server" and n >= 1_000_000 else None,
                                   note=f"p95 {percentile(times, 95):.1f} ms, {count} queries"))
                dense = sorted(_timed(lambda q=q: vectors.nearest(store, q, 100)) for q in query_vectors)
                keyword = sorted(_timed(lambda t=t: store.keyword_search(t, 100)) for t in texts)
                rows.append(figure(f"{label}.{n // 1000}k.dense_p50_ms", percentile(dense, 50), "ms",
                                   note=f"p95 {percentile(dense, 95):.1f} ms"))
                rows.append(figure(f"{label}.{n // 1000}k.keyword_p50_ms", percentile(keyword, 50), "ms",
                                   note=f"p95 {percentile(keyword, 95):.1f} ms"))
                if label == "server":
                    rows.append(figure(f"server.{n // 1000}k.hnsw_recall@10", _hnsw_recall(store, query_vectors[:50]),
                                       note="against an exact scan, 50 queries"))
                engine.close()
    finally:
        server.stop()
    return rows


def _timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def _hnsw_recall(store, query_vectors: np.ndarray) -> float:
    from desktop_rag.engine.store.postgres.store import _vector_text

    recalls = []
    for q in query_vectors:
        approx = [c for c, _ in store.nearest(q, 10, None)]
        exact = [r[0] for r in store.db.execute("SELECT chunk_id FROM vectors ORDER BY (embedding <#> ?::vector) + 0 "
                                                "LIMIT 10", (_vector_text(q),))]
        recalls.append(len(set(approx) & set(exact)) / 10)
    return float(np.mean(recalls))


# ---- clients -----------------------------------------------------------------------------------------------------

def cmd_clients(documents: int) -> list[dict]:
    """One client indexes all the files; then, in a fresh database, two clients index one half each at once."""
    import shutil

    server = start_server()
    rows = []
    try:
        root = CACHE / "server-clients"
        shutil.rmtree(root, ignore_errors=True)
        halves = [root / "docs" / "a", root / "docs" / "b"]
        corpus = build_folder("scifact", documents)
        for i, path in enumerate(sorted(corpus.iterdir())):
            target = halves[i % 2] / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)
        one = fresh_database(server, "clients_one")
        single, _ = cli(root / "one", "index", str(root / "docs"), "--json", library=one)
        two = fresh_database(server, "clients_two")
        env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", PYTHONPATH=str(REPO))
        started = time.perf_counter()
        runs = [subprocess.Popen([sys.executable, "-m", "desktop_rag", "--data-dir", str(root / f"client-{i}"),
                                  "--library", two, "index", str(half), "--json"], env=env, cwd=REPO,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for i, half in enumerate(halves)]
        outputs = [run.communicate() for run in runs]
        both = time.perf_counter() - started
        if any(run.returncode for run in runs):
            raise RuntimeError([err[-500:] for _, err in outputs])
        added = sum(json.loads(out.strip().splitlines()[-1])["added"] for out, _ in outputs)
        rows.append(figure("clients.one_client_s", single, "s", note=f"{documents} SciFact documents"))
        rows.append(figure("clients.two_clients_s", both, "s", note=f"{added} files added by the two"))
        rows.append(figure("clients.speedup", single / both, "x", note="one client's time / two clients' time"))
    finally:
        server.stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("quality")
    p.add_argument("--datasets", default="scifact,xquad-zh")
    p.add_argument("--limit", type=int)
    p = sub.add_parser("scale")
    p.add_argument("--sizes", default="100000,1000000")
    p.add_argument("--queries", type=int, default=100)
    p = sub.add_parser("clients")
    p.add_argument("--documents", type=int, default=600)
    args = parser.parse_args(argv)
    if args.what == "quality":
        rows = cmd_quality(args.datasets.split(","), args.limit)
    elif args.what == "scale":
        rows = cmd_scale([int(s) for s in args.sizes.split(",")], args.queries)
    else:
        rows = cmd_clients(args.documents)
    emit(f"server_{args.what}", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
