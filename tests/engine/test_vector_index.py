"""The vector index switches from exact to compressed (IVF-SQ8) search by size, keeping ids, removal and persistence."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_rag.engine.store.sqlite import vector_index
from desktop_rag.engine.store.sqlite.store import SqliteStore as Store
from desktop_rag.engine.store.sqlite.vector_index import VectorIndex, open_vector_index

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
    assert top[0][0] == 42 and top[0][1] == pytest.approx(1.0, abs=1e-2)  # 8-bit codes: approximate scores

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


def _fill(store: Store, vectors: np.ndarray, first: int) -> np.ndarray:
    """Chunks `first`.. with `vectors` stored as their truth (the store's own add_vectors); returns their ids."""
    ids = np.arange(first, first + len(vectors))
    with store.transaction() as db:
        db.execute("INSERT OR IGNORE INTO sources (id, path, kind, added_at) VALUES (1, '/x', 'folder', 0)")
        db.execute("INSERT OR IGNORE INTO files (id, source_id, path, status) VALUES (1, 1, '/x/a.txt', 'indexed')")
        db.executemany("INSERT INTO chunks (id, file_id, ordinal, text, char_start, char_end) VALUES (?, 1, ?, 't', 0, 1)",
                       [(int(i), int(i)) for i in ids])
    assert store.add_vectors(ids.tolist(), vectors) == ids.tolist()
    return ids


def _assert_aligned(index: VectorIndex, store: Store, sample: int = 60) -> None:
    """The index holds exactly the store's ids, and each stored (full-precision) vector finds its own chunk."""
    assert np.array_equal(index.ids(), store.vector_ids())
    ids, vectors = next(store.iter_vectors(batch=10**6))
    for row in np.random.default_rng(9).choice(len(ids), size=min(sample, len(ids)), replace=False):
        assert index.search(vectors[row], 1)[0][0] == ids[row], f"chunk {ids[row]} maps to another chunk"


def test_exact_to_compressed_to_retrained_keeps_ids_aligned_with_the_store(monkeypatch, tmp_path):
    monkeypatch.setattr(vector_index, "APPROX_THRESHOLD", 2000)
    monkeypatch.setattr(vector_index, "RETRAIN_FACTOR", 2)
    monkeypatch.setattr(vector_index, "MIN_NPROBE", 4096)  # every list: the test is about ids, not recall
    store = Store(tmp_path / "lib.sqlite3")
    data = clustered(6000, seed=4)
    _fill(store, data[:1500], first=101)  # ids do not start at 0 or 1: an id/row mix-up cannot pass
    path = tmp_path / "vectors.faiss"
    index = open_vector_index(path, store, DIM)
    assert index.kind == "exact"
    _assert_aligned(index, store)

    index.add(_fill(store, data[1500:2600], first=5001), data[1500:2600])  # grows past the threshold
    assert index.kind == "ivf-sq8" and index.trained_on == 2600
    _assert_aligned(index, store)
    gone = np.arange(5001, 5400)
    with store.transaction() as db:
        db.executemany("DELETE FROM chunks WHERE id = ?", [(int(i),) for i in gone])
    index.remove(gone)
    _assert_aligned(index, store)

    nlist = index._index.nlist
    index.add(_fill(store, data[2600:], first=20001), data[2600:])  # 4x what it was trained on: retrained
    assert index.kind == "ivf-sq8" and index.trained_on == index.size == 2201 + 3400
    assert index._index.nlist != nlist, "retraining sizes the inverted lists for the new count"
    _assert_aligned(index, store)

    index.save(path, store.vectors_generation())
    again = open_vector_index(path, store, DIM, save=False)
    assert again.kind == "ivf-sq8"
    _assert_aligned(again, store)
    store.close()


def test_an_older_ivfflat_cache_is_rebuilt_compressed_from_the_store(low_threshold, tmp_path):
    import faiss

    store = Store(tmp_path / "lib.sqlite3")
    data = clustered(2500, seed=5)
    ids = _fill(store, data, first=7)
    flat = faiss.IndexIVFFlat(faiss.IndexFlatIP(DIM), DIM, 64, faiss.METRIC_INNER_PRODUCT)
    flat.train(data)
    flat.add_with_ids(data, ids)
    path = tmp_path / "vectors.faiss"
    VectorIndex(DIM, flat).save(path, store.vectors_generation())  # the cache as the previous version wrote it
    assert VectorIndex.load(path)[0].kind == "ivf-flat"  # still readable
    index = open_vector_index(path, store, DIM)
    assert index.kind == "ivf-sq8"
    _assert_aligned(index, store)
    assert VectorIndex.load(path)[0].kind == "ivf-sq8"
    store.close()
