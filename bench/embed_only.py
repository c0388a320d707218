"""Baseline for the ingest figure: embed a library's chunk texts alone, the way the engine does."""

from __future__ import annotations

import argparse
import json
import sqlite3
import time
from pathlib import Path


def chunk_texts(database: Path) -> list[str]:
    """The texts the engine embeds (heading + newline + text), in its order (chunk id)."""
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT heading, text FROM chunks ORDER BY id").fetchall()
    finally:
        db.close()
    return [f"{heading}\n{text}" if heading else text for heading, text in rows]


def load_encoder(model_id: str):
    """A callable texts -> vectors: SentenceTransformer directly (bundled model), or the hash embedder."""
    from desktop_rag.engine.models.embedding import HASH_PREFIX, HashEmbedder, bundled_model_path

    if model_id.startswith(HASH_PREFIX):
        embedder = HashEmbedder(int(model_id[len(HASH_PREFIX):]))
        return lambda texts, batch_size: embedder.embed(texts, batch_size)
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(bundled_model_path()), device="cpu")
    return lambda texts, batch_size: model.encode(texts, batch_size=batch_size, normalize_embeddings=True,
                                                  convert_to_numpy=True, show_progress_bar=False)


def main() -> None:
    from desktop_rag.engine.models.embedding import batch_size_for, create_embedder

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("database", type=Path)
    parser.add_argument("--model", default="bundled:all-MiniLM-L6-v2")
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    texts = chunk_texts(args.database)
    started = time.perf_counter()
    encode = load_encoder(args.model)
    loaded = time.perf_counter()
    rounds = batch_size_for(create_embedder(args.model))  # the engine's rounds: this many chunks per encode call
    for start in range(0, len(texts), rounds):
        encode(texts[start:start + rounds], args.batch_size)
    done = time.perf_counter()
    print(json.dumps({"chunks": len(texts), "load_s": loaded - started, "embed_s": done - loaded}))


if __name__ == "__main__":
    main()
