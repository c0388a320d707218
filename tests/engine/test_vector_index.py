"""The vector index switches from exact to approximate (IVF) search by size, keeping ids, removal and persistence."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_rag.engine import vector_index
from desktop_rag.engine.store import Store
from desktop_rag.engine.vector_index import VectorIndex, open_vector_index

DIM = 32


def clustered(n: int, seed: int = 0) -> np.ndarray:
    """Normalised vectors around 20 centres (embeddings are clustered, unlike uniform noise)."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((20, DIM)).astype(np.float32)
    x = centres[rng.integers(0, 20, n)] + 0.3 * rng.standard_normal((n, DIM)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@pytest.fixture
def low_threshold(monkeypatch):
    monkeypatch.setattr(vector_index, "APPROX_THRESHOLD", 2000)
    monkeypatch.setattr(vector_index, "MIN_NPROBE", 64)  # every list: exact results on this tiny index


def test_small_index_is_exact_and_grows_into_ivf_keeping_ids(low_threshold):
    data = clustered(3000)
    index = VectorIndex(DIM)
    index.add(np.arange(1, 1501), data[:1500])
    assert not index.approximate
    index.add(np.arange(1501, 3001), data[1500:])
    assert index.approximate and index.size == 3000
    assert np.array_equal(index.ids(), np.arange(1, 3001))
    top = index.search(data[41], 5)
    assert top[0][0] == 42 and top[0][1] == pytest.approx(1.0, abs=1e-4)

    index.remove([42, 43])
    assert index.size == 2998 and 42 not in {cid for cid, _ in index.search(data[41], 10)}
    assert 42 not in set(index.ids().tolist())


def test_ivf_recall_against_exact(low_threshold):
    data = clustered(4000, seed=1)
    queries = clustered(50, seed=2)
    exact, approx = VectorIndex(DIM), VectorIndex(DIM, vector_index._build(DIM, np.arange(4000), data))
    exact._index.add_with_ids(data, np.arange(4000))  # force the exact kind for the reference
    assert approx.approximate and not exact.approximate
    found = [len({i for i, _ in approx.search(q, 10)} & {i for i, _ in exact.search(q, 10)}) for q in queries]
    assert sum(found) / (10 * len(queries)) >= 0.95


def test_rebuild_from_store_chooses_type_and_survives_save_load(low_threshold, tmp_path, monkeypatch):
    rebuilds: list[int] = []
    real_rebuild = vector_index.rebuild_vector_index

    def counting_rebuild(store, dimension):  # the real rebuild, counted
        rebuilds.append(dimension)
        return real_rebuild(store, dimension)

    monkeypatch.setattr(vector_index, "rebuild_vector_index", counting_rebuild)
    store = Store(tmp_path / "lib.sqlite3")
    data = clustered(2500, seed=3)
    with store.transaction() as db:
        db.execute("INSERT INTO sources (path, kind, added_at) VALUES ('/x', 'folder', 0)")
        db.execute("INSERT INTO files (source_id, path, status) VALUES (1, '/x/a.txt', 'indexed')")
        db.executemany(
            "INSERT INTO chunks (id, file_id, ordinal, text, char_start, char_end) VALUES (?, 1, ?, 't', 0, 1)",
            [(i + 1, i) for i in range(2500)])
    store.add_vectors(list(range(1, 2501)), data)
    path = tmp_path / "vectors.faiss"
    index = open_vector_index(path, store, DIM)
    assert index.approximate and index.size == 2500
    assert len(rebuilds) == 1 and path.exists()
    saved = (path.stat().st_ino, path.stat().st_mtime_ns)
    again = open_vector_index(path, store, DIM)  # loaded from the cache file, not rebuilt
    assert len(rebuilds) == 1, "a valid cache must be loaded, not rebuilt"
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == saved, "a valid cache must not be rewritten"
    assert again.approximate and np.array_equal(again.ids(), np.arange(1, 2501))
    assert again.search(data[9], 1)[0][0] == 10
    store.close()
