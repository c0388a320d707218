"""The fast runtime: a standard model folder (tokenizer.json + onnx/model.onnx) through ONNX Runtime, no torch.

Mean pooling over the attention mask and L2 normalisation, as sentence-transformers does for e5 and MiniLM.
Passages go in length-bucketed batches (longest first, bounded padded tokens per pass); one session serves
passages and queries (ONNX Runtime sessions are safe to run from several threads).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from desktop_rag.engine.models.embedders.sentence_transformers_backend import token_batches

BATCH_TOKENS = 1024  # padded tokens per pass: measured against 4,096 (bench/README.md, "Embedding runtimes")
THREADS_ENV = "DESKTOP_RAG_EMBED_THREADS"


def intra_op_threads() -> int:
    """Threads per forward pass: $DESKTOP_RAG_EMBED_THREADS, else the CPUs this process may use (at most 4)."""
    raw = os.environ.get(THREADS_ENV, "")
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(4, available))


class OnnxEmbedder:
    """Any folder with tokenizer.json and an ONNX encoder; `folder` may be a callable that produces the
    folder on first use (the bundled model's one-time conversion)."""

    def __init__(self, model_id: str, folder: Path | Callable[[], Path], prompts: tuple[str, str],
                 dimension: int, languages: frozenset[str] | None, speed: float, onnx_file: str = "onnx/model.onnx"):
        self.model_id = model_id
        self._folder = folder
        self.query_prefix, self.passage_prefix = prompts
        self._dimension = dimension
        self.languages = languages
        self.speed = speed
        self._onnx_file = onnx_file
        self._lock = threading.Lock()
        self._session = None
        self._tokenizer = None

    @property
    def dimension(self) -> int:
        return self._dimension

    @property
    def loaded(self) -> bool:
        return self._session is not None

    def load(self) -> None:
        """Open the tokenizer and the session (converting the folder first if it is made on first use)."""
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime
            from tokenizers import Tokenizer

            folder = self._folder() if callable(self._folder) else Path(self._folder)
            tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
            tokenizer.no_padding()
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = intra_op_threads()
            options.inter_op_num_threads = 1
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # no busy-wait on a busy CPU
            self._session = onnxruntime.InferenceSession(str(folder / self._onnx_file), options,
                                                         providers=["CPUExecutionProvider"])
            self._tokenizer = tokenizer

    def _vectors(self, ids: list[list[int]]) -> np.ndarray:
        width = max(len(row) for row in ids)
        input_ids = np.zeros((len(ids), width), np.int64)
        mask = np.zeros((len(ids), width), np.int64)
        for r, row in enumerate(ids):
            input_ids[r, :len(row)] = row
            mask[r, :len(row)] = 1
        hidden = self._session.run(None, {"input_ids": input_ids, "attention_mask": mask})[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def _encode(self, texts: Sequence[str], prefix: str, batch_size: int) -> np.ndarray:
        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        if not texts:
            return out
        self.load()
        ids = [e.ids for e in self._tokenizer.encode_batch([prefix + t for t in texts])]
        for batch in token_batches([len(row) for row in ids], batch_size, BATCH_TOKENS):
            out[batch] = self._vectors([ids[i] for i in batch])
        return out

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        return self._encode(texts, self.passage_prefix, batch_size)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, self.query_prefix, 32)
