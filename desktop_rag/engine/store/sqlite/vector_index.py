"""FAISS index keyed by chunk id: a cache of the store's vectors, saved atomically, rebuilt when stale.

Index type by size: exact search (IndexIDMap2 over IndexFlatIP) below APPROX_THRESHOLD vectors;
above it a compressed IVF index, IndexIVFScalarQuantizer (8 bits per dimension, residuals, inner
product; ids stored in the inverted lists, so remove by id works): a quarter of the memory of float32,
trained on a sample of the vectors when it is (re)built. The store keeps every vector at full precision
(the truth); a rebuild from it re-encodes them. Caches of the older IndexIVFFlat kind still load but count
as stale (rebuilt). The cache is read straight from the file (no whole-file copy). bench/query.py and
bench/scale.py measure recall@10 against exact search, latency, memory and open time.
"""

from __future__ import annotations

import logging
import math
import struct
import threading
from pathlib import Path

import numpy as np

from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.sqlite.filters import member_filter

log = logging.getLogger(__name__)

_MAGIC = b"DRAGVEC1"
_HEADER = struct.Struct("<8sqqq")  # magic, generation, count, dimension

APPROX_THRESHOLD = 200_000  # from this many vectors on, use the approximate (IVF) index
RETRAIN_FACTOR = 4  # retrain the IVF index once it holds this many times what it was trained on
TRAIN_POINTS_PER_LIST = 40  # k-means sample size per inverted list
NPROBE_FRACTION = 0.35  # lists scanned per query: IVF-SQ8 recall@10 0.960 at 1M synthetic (0.944 at 25%); bench/scale.py
MIN_NPROBE = 16


def nlist_for(count: int) -> int:
    """Number of inverted lists for an index of `count` vectors (about sqrt(n), at least 64)."""
    return max(64, min(4096, int(math.sqrt(max(count, 1)))))


def nprobe_for(nlist: int) -> int:
    return min(nlist, max(MIN_NPROBE, int(round(nlist * NPROBE_FRACTION))))


def _is_ivf(index) -> bool:
    import faiss

    return isinstance(index, faiss.IndexIVF)


def kind_of(index) -> str:
    """"exact", "ivf-sq8" (the compressed kind) or "ivf-flat" (the kind of older caches)."""
    import faiss

    if isinstance(index, faiss.IndexIVFScalarQuantizer):
        return "ivf-sq8"
    return "ivf-flat" if _is_ivf(index) else "exact"


class VectorIndex:
    """Inner-product search over normalised vectors, ids = chunk ids. Thread-safe."""

    def __init__(self, dimension: int, index=None, trained_on: int | None = None) -> None:
        import faiss

        self.dimension = dimension
        self._index = index if index is not None else faiss.IndexIDMap2(faiss.IndexFlatIP(dimension))
        self._trained_on = int(self._index.ntotal) if trained_on is None else trained_on
        self._lock = threading.RLock()
        self.generation = -1  # the store's vectors_generation this content matches (-1: not known)
        if _is_ivf(self._index):
            self._index.nprobe = nprobe_for(self._index.nlist)

    @property
    def size(self) -> int:
        return int(self._index.ntotal)

    @property
    def approximate(self) -> bool:
        """True when the index is an IVF (approximate) kind."""
        return _is_ivf(self._index)

    @property
    def kind(self) -> str:
        """"exact", "ivf-sq8" or "ivf-flat" (see `kind_of`)."""
        return kind_of(self._index)

    @property
    def trained_on(self) -> int:
        """How many vectors the index type was chosen (and an IVF index trained) for."""
        return self._trained_on

    def add(self, ids: np.ndarray | list[int], vectors: np.ndarray) -> None:
        if len(ids) == 0:
            return
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        with self._lock:
            self._index.add_with_ids(vectors, np.asarray(ids, dtype=np.int64))
            if self._needs_retype():
                self._retype()

    def remove(self, ids: list[int] | np.ndarray) -> None:
        if len(ids) == 0:
            return
        with self._lock:
            self._index.remove_ids(np.asarray(ids, dtype=np.int64))

    def search(self, query: np.ndarray, k: int, selector=None) -> list[tuple[int, float]]:
        """Best-first (chunk_id, cosine) pairs for one normalised query vector; with a FAISS IDSelector
        (`filters.id_selector`), only among the ids it holds (a collection), filtered inside the search."""
        if self.size == 0 or k <= 0:
            return []
        import faiss

        q = np.ascontiguousarray(query, dtype=np.float32).reshape(1, -1)
        with self._lock:
            params = None
            if selector is not None:
                params = (faiss.SearchParametersIVF(sel=selector, nprobe=self._index.nprobe) if self.approximate
                          else faiss.SearchParameters(sel=selector))
            threads = faiss.omp_get_max_threads()
            faiss.omp_set_num_threads(1)  # one query: OpenMP threads only add barrier waits (10x on a busy CPU)
            try:
                scores, ids = self._index.search(q, min(k, self.size), params=params)
            finally:
                faiss.omp_set_num_threads(threads)
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0]) if i >= 0]

    def nearest(self, store: Store, query: np.ndarray, k: int,
                within: Restriction | None = None) -> list[tuple[int, float]]:
        """`search` within a restriction (None: everything): among the restriction's vector ids, filtered inside the
        search (`filters.member_filter`, cached); nothing when none of them has a vector."""
        if within is None or within.everything:
            return self.search(query, k)
        members, selector = member_filter(store, within)
        return self.search(query, k, selector) if members else []

    def ids(self) -> np.ndarray:
        """The chunk ids held, sorted (for consistency checks)."""
        with self._lock:
            held, _ = _export(self._index, with_vectors=False)
        return np.sort(held)

    # ---- index type --------------------------------------------------------

    def _needs_retype(self) -> bool:
        if not self.approximate:
            return self.size >= APPROX_THRESHOLD
        return self.size >= RETRAIN_FACTOR * max(self._trained_on, 1)

    def _retype(self) -> None:
        """Rebuild in place with the index type (and IVF training) that suits the current size (from the
        compressed kind, the decoded vectors are re-encoded; a rebuild from the store starts from the truth)."""
        ids, vectors = _export(self._index)
        log.info("Rebuilding the vector index for %d vectors", len(ids))
        self._index = _build(self.dimension, ids, vectors)
        self._trained_on = len(ids)

    # ---- persistence -----------------------------------------------------

    def save(self, path: Path, generation: int) -> None:
        """Serialize, write a unique temp file, fsync, rename: a crash leaves the old file or the new one."""
        import faiss

        from desktop_rag.private_files import atomic_write_bytes

        with self._lock:
            blob = faiss.serialize_index(self._index)
            header = _HEADER.pack(_MAGIC, generation, self.size, self.dimension)
        atomic_write_bytes(path, [header, memoryview(blob)])
        self.generation = generation

    @classmethod
    def load(cls, path: Path) -> tuple["VectorIndex", int] | None:
        """The saved index and its generation, or None when missing or unreadable.

        faiss reads the file through a callback reader after the header: no whole-file copy in memory.
        """
        import faiss

        try:
            with open(path, "rb") as f:
                magic, generation, count, dimension = _HEADER.unpack(f.read(_HEADER.size))
                if magic != _MAGIC:
                    return None
                index = faiss.read_index(faiss.PyCallbackIOReader(f.read, 1 << 22))
        except Exception as exc:  # any corruption means: rebuild
            if path.exists():
                log.warning("Vector index %s is unreadable (%s); it will be rebuilt", path, exc)
            return None
        if index.ntotal != count or index.d != dimension:
            return None
        return cls(dimension, index), generation


def _empty_index(dimension: int, count: int, sample: np.ndarray | None):
    """An empty FAISS index for `count` vectors: exact when small, IVF-SQ8 trained on `sample` when large."""
    import faiss

    if count < APPROX_THRESHOLD or sample is None:
        return faiss.IndexIDMap2(faiss.IndexFlatIP(dimension))
    nlist = nlist_for(count)
    quantizer = faiss.IndexFlatIP(dimension)
    index = faiss.IndexIVFScalarQuantizer(quantizer, dimension, nlist, faiss.ScalarQuantizer.QT_8bit,
                                          faiss.METRIC_INNER_PRODUCT)
    quantizer.this.disown()  # the IVF index owns (and frees) its quantizer
    index.own_fields = True
    index.train(np.ascontiguousarray(sample, dtype=np.float32))
    index.nprobe = nprobe_for(nlist)
    return index


def _sample_size(count: int) -> int:
    return min(count, nlist_for(count) * TRAIN_POINTS_PER_LIST)


def _build(dimension: int, ids: np.ndarray, vectors: np.ndarray):
    """A FAISS index holding `vectors` under `ids`, of the type that suits their number."""
    sample = None
    if len(ids) >= APPROX_THRESHOLD:
        pick = np.random.default_rng(0).choice(len(ids), size=_sample_size(len(ids)), replace=False)
        sample = vectors[np.sort(pick)]
    index = _empty_index(dimension, len(ids), sample)
    if len(ids):
        index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), np.asarray(ids, dtype=np.int64))
    return index


def _export(index, with_vectors: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """All (ids, vectors) held by an IDMap2(Flat), IVFFlat or IVF-SQ8 index (the last decoded: approximate)."""
    import faiss

    if not _is_ivf(index):
        ids = faiss.vector_to_array(index.id_map).astype(np.int64)
        if not with_vectors:
            return ids, None
        flat = faiss.downcast_index(index.index)
        vectors = faiss.vector_to_array(flat.codes).view(np.float32).reshape(-1, index.d)
        return ids, vectors.copy()
    lists = index.invlists
    centroids = index.quantizer.reconstruct_n(0, index.nlist) if with_vectors else None
    id_parts, vec_parts = [], []
    for number in range(index.nlist):
        n = lists.list_size(number)
        if n == 0:
            continue
        id_parts.append(faiss.rev_swig_ptr(lists.get_ids(number), n).copy())
        if with_vectors:
            codes = faiss.rev_swig_ptr(lists.get_codes(number), n * lists.code_size)
            vec_parts.append(_decode(index, number, np.array(codes).reshape(n, lists.code_size), centroids))
    ids = np.concatenate(id_parts).astype(np.int64) if id_parts else np.zeros(0, dtype=np.int64)
    if not with_vectors:
        return ids, None
    vectors = np.concatenate(vec_parts) if vec_parts else np.zeros((0, index.d), dtype=np.float32)
    return ids, vectors


def _decode(index, number: int, codes: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """The vectors of inverted list `number` from its codes (float32 as stored, or decoded scalar codes)."""
    import faiss

    if not isinstance(index, faiss.IndexIVFScalarQuantizer):
        return codes.view(np.float32).reshape(len(codes), index.d).copy()
    vectors = index.sq.decode(codes)
    if index.by_residual:
        vectors += centroids[number]
    return vectors


def open_vector_index(path: Path, store: Store, dimension: int, save: bool = True) -> VectorIndex:
    """Load the cache if it holds exactly the store's vector ids at the store's generation, else rebuild it.

    The ids are compared, not counted: another process may have saved a cache with the same generation and
    count but other ids. The store is read in one snapshot, so the generation and the ids belong together.
    """
    loaded = VectorIndex.load(path)
    with store.read_snapshot():
        generation = store.vectors_generation()
        if loaded is not None:
            index, saved_generation = loaded
            if (saved_generation == generation and index.dimension == dimension and index.kind != "ivf-flat"
                    and _same_ids(index, store)):
                index.generation = generation
                return index
            log.info("Vector index is stale (generation %s, store %s, kind %s); rebuilding", saved_generation,
                     generation, index.kind)
        index = rebuild_vector_index(store, dimension)
    index.generation = generation
    if save:  # a read-only reader (the MCP server) rebuilds in memory and writes nothing
        save_cache(index, path, generation)
    return index


def save_cache(index: VectorIndex, path: Path, generation: int) -> bool:
    """Save the cache; on a full or read-only disk log it and return False (nothing is lost: the store holds
    every vector, and a cache that is missing or stamped with an older generation is rebuilt on open)."""
    try:
        index.save(path, generation)
    except OSError as exc:
        log.warning("Could not save the vector index %s (%s); it will be rebuilt from the library", path, exc)
        return False
    return True


def _same_ids(index: VectorIndex, store: Store) -> bool:
    """Whether the index holds exactly the store's vector ids (sizes first: the cheap test)."""
    if index.size != store.count_vectors():
        return False
    return bool(np.array_equal(index.ids(), store.vector_ids()))


def rebuild_vector_index(store: Store, dimension: int) -> VectorIndex:
    """A fresh index from the vectors in the store (its type chosen by their number); nothing is re-embedded.

    For the IVF kind, a first pass over the stored vectors draws the training sample, a second adds them all,
    so memory stays at the index plus one batch.
    """
    count = store.count_vectors()
    sample = None
    if count >= APPROX_THRESHOLD:
        share = _sample_size(count) / count
        rng = np.random.default_rng(0)
        sample = np.concatenate([m[rng.random(len(m)) < share] for _, m in store.iter_vectors()])
    index = VectorIndex(dimension, _empty_index(dimension, count, sample), trained_on=count)
    for ids, vectors in store.iter_vectors():
        index.add(ids, vectors)
    return index
