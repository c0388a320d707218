"""An embedder that tells a test which passages a client embeds (tests/postgres/test_embedding_claims.py), and, run
as a module, a client of a library on a server that stops for good in the middle of embedding, to be killed there:

    python -m tests.support.watched_embedder URL DATA_DIR SIGNAL_FILE [MODEL]

It indexes with MODEL (default hash:64; nothing of its own: the library's pending chunks, or a switch to MODEL),
and when its first batch comes writes {"backend": its server process id, "texts": the batch} to SIGNAL_FILE and
sleeps."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

Hook = Callable[[list[str]], None]


class Watched:
    """The library's embedder, calling `hook(texts)` before it embeds each batch of passages."""

    def __init__(self, inner, hook: Hook) -> None:
        self.inner = inner
        self.hook = hook

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def embed(self, texts, batch_size: int = 64) -> np.ndarray:
        texts = list(texts)
        self.hook(texts)
        return self.inner.embed(texts, batch_size=batch_size)


def watching(hook: Hook) -> Callable:
    """A stand-in for `runtime.create_embedder` whose embedders are `Watched` with `hook`."""
    from desktop_rag.engine.models.embedding import create_embedder

    return lambda *args, **kwargs: Watched(create_embedder(*args, **kwargs), hook)


def _stall(url: str, data_dir: str, signal_file: str, model: str = "hash:64") -> None:
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine import runtime
    from desktop_rag.engine.engine import Engine

    engine = Engine(resolve_paths(Path(data_dir)), Settings(embedding_model=model), library=url)
    backend = engine.store.db.execute("SELECT pg_backend_pid()").fetchone()[0]

    def stall(texts: list[str]) -> None:
        partial = Path(signal_file + ".partial")
        partial.write_text(json.dumps({"backend": backend, "texts": texts}), "utf-8")
        partial.rename(signal_file)
        time.sleep(3600)

    runtime.create_embedder = watching(stall)
    engine.index()


if __name__ == "__main__":
    _stall(*sys.argv[1:5])
