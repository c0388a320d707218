"""Synthetic libraries for retrieval latency at scale: Zipf text and clustered unit vectors, bulk-inserted."""

from __future__ import annotations

import shutil
import string
import time
from pathlib import Path

import numpy as np

from bench.common import CACHE

DIM = 384
WORDS_PER_CHUNK = 80  # about a 500-character chunk
VOCABULARY = 50_000
ZIPF_EXPONENT = 1.07
CHUNKS_PER_FILE = 10
BATCH = 20_000
SKIP_COMMON = 100  # query words skip the 100 most frequent words, as real queries lose their stopwords


def vocabulary(seed: int = 7) -> np.ndarray:
    """VOCABULARY distinct lowercase pseudo-words, most frequent first."""
    rng = np.random.default_rng(seed)
    words: dict[str, None] = {}
    letters = np.array(list(string.ascii_lowercase))
    while len(words) < VOCABULARY:
        length = int(rng.integers(3, 11))
        words.setdefault("".join(rng.choice(letters, length)), None)
    return np.array(list(words))


def zipf_probabilities(skip: int = 0) -> np.ndarray:
    p = 1.0 / np.arange(1, VOCABULARY + 1) ** ZIPF_EXPONENT
    p[:skip] = 0.0
    return p / p.sum()


class VectorSource:
    """Unit vectors drawn around random centres (a mixture, like real embeddings: uniform noise is
    the worst case for any approximate index and unlike any embedding model's output)."""

    def __init__(self, n_total: int, seed: int = 11) -> None:
        rng = np.random.default_rng(seed)
        self.centres = rng.standard_normal((max(16, n_total // 100), DIM)).astype(np.float32)

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        x = self.centres[rng.integers(0, len(self.centres), n)] + rng.standard_normal((n, DIM)).astype(np.float32)
        return x / np.linalg.norm(x, axis=1, keepdims=True)


def synthetic_library(n: int) -> Path:
    """A data dir whose library.sqlite3 holds `n` chunks with text and vectors (built once, cached)."""
    home = CACHE / f"synthetic-{n}"
    marker = home / ".bench-complete"
    if marker.exists():
        return home
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    started = time.perf_counter()
    _fill(home / "library.sqlite3", n)
    marker.write_text(f"{time.perf_counter() - started:.1f}")
    return home


def _fill(database: Path, n: int) -> None:
    from desktop_rag.config import BUNDLED_MODEL
    from desktop_rag.engine.store.sqlite.store import SqliteStore as Store

    store = Store(database)  # creates the real schema
    db = store.db
    db.execute("PRAGMA synchronous=OFF")
    words, p = vocabulary(), zipf_probabilities()
    vectors = VectorSource(n)
    rng = np.random.default_rng(3)
    with store.transaction():
        for key, value in (("embedding_model", BUNDLED_MODEL), ("dimension", str(DIM)),
                           ("chunk_size", "500"), ("chunk_overlap", "50")):
            store.set_meta(key, value)
        db.execute("INSERT INTO sources (id, path, kind, added_at) VALUES (1, '/synthetic', 'folder', 0)")
        files = (n + CHUNKS_PER_FILE - 1) // CHUNKS_PER_FILE
        db.executemany("INSERT INTO files (id, source_id, path, status, chunk_count) VALUES (?, 1, ?, 'indexed', ?)",
                       ((f + 1, f"/synthetic/doc{f:07d}.txt", CHUNKS_PER_FILE) for f in range(files)))
    for start in range(0, n, BATCH):
        count = min(BATCH, n - start)
        ids = np.arange(start + 1, start + count + 1)
        texts = [" ".join(row) for row in words[rng.choice(VOCABULARY, (count, WORDS_PER_CHUNK), p=p)]]
        blobs = vectors.draw(count, rng)
        with store.transaction():
            db.executemany(
                "INSERT INTO chunks (id, file_id, ordinal, text, page, heading, char_start, char_end) "
                "VALUES (?, ?, ?, ?, NULL, '', 0, ?)",
                ((int(i), int((i - 1) // CHUNKS_PER_FILE + 1), int((i - 1) % CHUNKS_PER_FILE), t, len(t))
                 for i, t in zip(ids, texts)))
            db.executemany("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)", zip(ids.tolist(), texts))
            db.executemany("INSERT INTO vectors (chunk_id, vector) VALUES (?, ?)",
                           zip(ids.tolist(), (v.tobytes() for v in blobs)))
    with store.transaction():
        store.vectors_changed()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()


def queries(n: int, n_total: int, seed: int = 5) -> tuple[list[str], np.ndarray]:
    """`n` keyword queries (3-6 Zipf words past the most common ones) and query vectors from the same mixture."""
    rng = np.random.default_rng(seed)
    words, p = vocabulary(), zipf_probabilities(SKIP_COMMON)
    texts = [" ".join(words[rng.choice(VOCABULARY, int(rng.integers(3, 7)), p=p)]) for _ in range(n)]
    return texts, VectorSource(n_total).draw(n, rng)
