"""A large library whose vector cache is stale or corrupt: rebuilt on a background thread while keyword search answers."""

from __future__ import annotations

import threading

import os
import time

import numpy as np
import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.models.embedders.hashing import HashEmbedder
from desktop_rag.engine.store.sqlite import vector_index
from desktop_rag.engine.store.sqlite.vector_index import VectorIndex, open_vector_index
from desktop_rag.engine.text import keyword

LARGE = int(os.environ.get("DESKTOP_RAG_TEST_LARGE_VECTORS", "50000"))  # the 1M case is bench/scale.py
DIM = 384
MODEL = f"hash:{DIM}"
QUERY = "topic7 needle"
KEYWORD_BOUND_S = 1.0  # a search during the rebuild answers within this (keyword search at this size: ~10 ms)


def _library(data_dir, n: int) -> int:
    """A library of `n` chunks (text, keyword index, random unit vectors) plus one "needle" chunk that only the
    dense search finds (its words are not in the query, its vector is the query's); returns the needle's id."""
    engine = Engine(resolve_paths(data_dir), Settings(embedding_model=MODEL))
    db, rng = engine.store.db, np.random.default_rng(1)
    texts = [f"passage {i} about topic{i % 500} and other matters" for i in range(1, n + 1)]
    texts.append("an unrelated paragraph on gardening")
    vectors = rng.standard_normal((n + 1, DIM)).astype(np.float32)
    vectors[-1] = HashEmbedder(DIM).embed_queries([QUERY])[0]
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    with engine.store.transaction():
        for key, value in (("embedding_model", MODEL), ("dimension", str(DIM))):
            engine.store.set_meta(key, value)
        db.execute("INSERT INTO sources (id, path, kind, added_at) VALUES (1, '/lib', 'folder', 0)")
        db.executemany("INSERT INTO files (id, source_id, path, status) VALUES (?, 1, ?, 'indexed')",
                       [(f, f"/lib/doc{f}.txt") for f in range(1, n // 10 + 2)])
        db.executemany("INSERT INTO chunks (id, file_id, ordinal, text, char_start, char_end) VALUES (?, ?, ?, ?, 0, 1)",
                       [(i, (i - 1) // 10 + 1, (i - 1) % 10, t) for i, t in enumerate(texts, 1)])
        db.executemany("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)",
                       [(i, keyword.index_text(t)) for i, t in enumerate(texts, 1)])
        db.executemany("INSERT INTO vectors (chunk_id, vector) VALUES (?, ?)",
                       [(i, v.tobytes()) for i, v in enumerate(vectors, 1)])
        engine.store.vectors_changed()
    engine.close()
    return n + 1


def _damage(data_dir, how: str) -> None:
    """Save a valid cache, then make it unusable: cut in half (corrupt), or one vector behind the store (stale)."""
    engine = Engine(resolve_paths(data_dir), Settings(embedding_model=MODEL))
    path, store = engine.paths.vector_index, engine.store
    open_vector_index(path, store, DIM)
    assert VectorIndex.load(path) is not None
    if how == "corrupt":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    else:  # another process changed a vector after this cache was saved
        with store.transaction() as db:
            db.execute("UPDATE vectors SET vector = vector WHERE chunk_id = 1")
            store.vectors_changed()
    engine.close()


@pytest.mark.parametrize("how", ["corrupt", "stale"])
def test_large_cache_rebuilt_in_background_while_keyword_search_answers(how, tmp_path, monkeypatch):
    monkeypatch.setattr(vector_index, "APPROX_THRESHOLD", LARGE // 2)  # the compressed kind at this size
    data_dir = tmp_path / "data"
    needle = _library(data_dir, LARGE)
    _damage(data_dir, how)

    engine = Engine(resolve_paths(data_dir), Settings(embedding_model=MODEL))  # the app starts
    loader = threading.Thread(target=engine.warm_up, daemon=True)  # as the GUI's index worker does
    loader.start()
    during: list[tuple[float, list[int]]] = []
    while loader.is_alive():
        started = time.perf_counter()
        hits = engine.search(QUERY, 10)
        elapsed = time.perf_counter() - started
        if hits.keyword_only:
            during.append((elapsed, [h.chunk_id for h in hits]))
    loader.join()

    assert during, "no search ran while the vectors were being rebuilt"
    assert max(t for t, _ in during) < KEYWORD_BOUND_S, "a search waited for the rebuild"
    for _, ids in during:
        assert ids and needle not in ids  # keyword results only: the topic7 passages, not the dense-only needle
    after = engine.search(QUERY, 10)
    assert not after.keyword_only and needle in [h.chunk_id for h in after], "dense results return after"
    assert engine.runtime.vectors().kind == "ivf-sq8" and engine.runtime.vectors().size == LARGE + 1
    loaded = VectorIndex.load(engine.paths.vector_index)
    assert loaded is not None and loaded[1] == engine.store.vectors_generation(), "the rebuilt cache is saved"
    engine.close()


def test_without_background_loading_search_waits_for_the_vectors(tmp_path, monkeypatch):
    """A one-shot search (the CLI) is never degraded: with no loader running, it loads the vectors itself."""
    monkeypatch.setattr(vector_index, "APPROX_THRESHOLD", 1000)
    data_dir = tmp_path / "data"
    needle = _library(data_dir, 2000)
    engine = Engine(resolve_paths(data_dir), Settings(embedding_model=MODEL))
    hits = engine.search(QUERY, 10)
    assert not hits.keyword_only and needle in [h.chunk_id for h in hits]
    engine.close()
