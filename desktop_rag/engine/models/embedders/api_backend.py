"""An OpenAI-compatible `/v1/embeddings` endpoint (Ollama, LM Studio, a provider) as the embedding model."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence

import numpy as np

from desktop_rag.engine.endpoint import API_PREFIX, key_reason, pasted_key, without_userinfo
from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.models.embedders.sentence_transformers_backend import model_languages, model_prompts
from desktop_rag.engine.system_errors import system_reason

KEY_ENV = "DESKTOP_RAG_EMBEDDING_API_KEY"
REQUEST_BATCH = 32
MAX_DIMENSION = 8192
log = logging.getLogger(__name__)


def parse_api_model(model_id: str) -> tuple[str, str]:
    """`api:MODEL@BASE_URL` -> (model, base_url); the base URL is part of the id, so the index records it."""
    body = model_id[len(API_PREFIX):]
    model, sep, base_url = body.partition("@")
    if not sep or not model or not base_url.startswith(("http://", "https://")):
        raise DesktopRagError.coded("api_model_form", model=repr(model_id))
    return model, base_url.rstrip("/")


class ApiEmbedder:
    """Embeddings from an HTTP endpoint. The key comes from DESKTOP_RAG_EMBEDDING_API_KEY (local servers need none),
    read and checked as the model server's is (`endpoint.pasted_key`, `key_reason`); a user:password@ in the
    address is never sent nor quoted (`endpoint.without_userinfo`), nor recorded in the index (the model id it
    stores and shows is `endpoint.model_id_shown`'s)."""

    speed = 20.0  # unknown until measured; a local server on 2 cores is about this fast with a small model

    def __init__(self, model_id: str, timeout_s: float = 120.0) -> None:
        self.model_id = model_id
        self.model, written_url = parse_api_model(model_id)
        self.base_url = without_userinfo(written_url)
        if self.base_url != written_url:
            log.warning("the embedding endpoint's address has a user:password@ part: it is not sent")
        self.query_prefix, self.passage_prefix = model_prompts(self.model)
        self.timeout_s = timeout_s
        self._dimension: int | None = None
        self._client = None
        self._lock = threading.Lock()

    @property
    def languages(self) -> frozenset[str] | None:
        return model_languages(self.model)

    @property
    def loaded(self) -> bool:
        return self._dimension is not None

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self.embed_queries(["dimension probe"])
        assert self._dimension is not None
        return self._dimension

    def _client_once(self):
        with self._lock:
            if self._client is None:
                from openai import OpenAI

                key = pasted_key(os.environ.get(KEY_ENV) or "") or "not-needed"
                if problem := key_reason(key, "api_key_fix.embedding"):  # before any request: said, not sent
                    raise DesktopRagError.coded("endpoint_key", problem=problem)
                self._client = OpenAI(base_url=self.base_url, api_key=key, timeout=self.timeout_s, max_retries=2)
            return self._client

    def _request(self, texts: list[str]) -> np.ndarray:
        import openai

        try:
            response = self._client_once().embeddings.create(model=self.model, input=texts)
        except openai.APIConnectionError as exc:
            raise DesktopRagError.coded("endpoint_unreachable", url=self.base_url,
                                        detail=system_reason(exc) or str(exc)) from exc
        except openai.APIStatusError as exc:
            raise DesktopRagError.coded("endpoint_refused", url=self.base_url, status=exc.status_code,
                                        model=repr(self.model)) from exc
        rows = sorted(response.data, key=lambda item: item.index)
        if len(rows) != len(texts):
            raise DesktopRagError.coded("endpoint_count", got=len(rows), sent=len(texts))
        matrix = np.asarray([row.embedding for row in rows], dtype=np.float32)
        if matrix.ndim != 2 or not 0 < matrix.shape[1] <= MAX_DIMENSION or not np.isfinite(matrix).all():
            raise DesktopRagError.coded("endpoint_malformed")
        if self._dimension is not None and matrix.shape[1] != self._dimension:
            raise DesktopRagError.coded("endpoint_dimension", before=self._dimension, now=matrix.shape[1])
        self._dimension = matrix.shape[1]
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms > 0, norms, 1.0)

    def _encode(self, texts: Sequence[str], prefix: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        parts = [self._request([prefix + t for t in texts[i:i + REQUEST_BATCH]])
                 for i in range(0, len(texts), REQUEST_BATCH)]
        return np.ascontiguousarray(np.vstack(parts), dtype=np.float32)

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        return self._encode(texts, self.passage_prefix)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, self.query_prefix)
