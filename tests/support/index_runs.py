"""Index runs for bookkeeping tests (what is added, kept, removed, re-embedded), not semantics: the deterministic
hashing embedder, a folder of numbered text files, an engine on a data folder, and the check that FAISS, the vectors
and the keyword index agree with the chunks."""

from __future__ import annotations

import numpy as np

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine

# the deterministic hashing embedder keeps these tests fast
HASH = Settings(embedding_model="hash:64")


def write_docs(folder, count: int, prefix: str = "doc") -> list:
    """`count` text files "<prefix>0000.txt"... in `folder`, each about its own topic."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        p = folder / f"{prefix}{i:04d}.txt"
        p.write_text(f"Document {i} about topic{i}. " + "Filler sentence for bulk. " * 30, encoding="utf-8")
        paths.append(p)
    return paths


def make_engine(home, settings: Settings = HASH) -> Engine:
    """An engine on the data folder `home`."""
    return Engine(resolve_paths(home), settings)


def consistent(engine: Engine) -> None:
    """FAISS ids equal the store's vector ids, and every vector belongs to a chunk."""
    stored = np.array(sorted(r[0] for r in engine.store.db.execute("SELECT chunk_id FROM vectors")), dtype=np.int64)
    assert np.array_equal(engine.runtime.vectors().ids(), stored)
    orphans = engine.store.db.execute(
        "SELECT count(*) FROM vectors v LEFT JOIN chunks c ON c.id = v.chunk_id WHERE c.id IS NULL").fetchone()[0]
    assert orphans == 0
    fts = engine.store.db.execute("SELECT count(*) FROM chunks_fts").fetchone()[0]
    assert fts == engine.store.count_chunks()
