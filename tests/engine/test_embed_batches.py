"""Passages are embedded in token-bounded batches (the ingest memory bound, bench/README.md "Ingest memory"):
the groups respect both limits, and the vectors are the ones a plain encode gives, in the caller's order
(the real bundled model)."""

from __future__ import annotations

import numpy as np

from desktop_rag.config import BUNDLED_MODEL
from desktop_rag.engine.embedders import sentence_transformers_backend as st
from desktop_rag.engine.embedding import create_embedder


def test_token_batches_respect_the_count_and_the_padded_token_budget():
    lengths = [256, 12, 150, 150, 40, 256, 7, 1100, 150, 90] * 9
    batches = st.token_batches(lengths, 16, 1024)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))  # each text exactly once
    for batch in batches:
        longest = max(lengths[i] for i in batch)
        assert len(batch) <= 16
        assert len(batch) == 1 or len(batch) * longest <= 1024
        assert lengths[batch[0]] == longest  # longest first: the padded size is known when a group opens
    assert max(len(b) for b in batches) == 16  # short texts still fill whole batches
    assert [len(b) for b in batches if lengths[b[0]] == 1100] == [1] * 9  # over the budget alone: one each


def test_bounded_batches_give_the_plain_vectors_in_order(monkeypatch):
    texts = [("word " * n).strip() + f" number {n}" for n in (3, 200, 40, 1, 120, 9, 400, 60)]
    embedder = create_embedder(BUNDLED_MODEL)
    plain = embedder.model.encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
    calls: list[int] = []
    real = embedder._encode
    monkeypatch.setattr(embedder, "_encode", lambda t, p, b: calls.append(len(t)) or real(t, p, b))
    monkeypatch.setattr(st, "BATCH_TOKENS", 300)
    bounded = embedder.embed(texts, batch_size=64)
    assert len(calls) > 2 and sum(calls) == len(texts)  # really split, nothing embedded twice
    assert bounded.dtype == np.float32 and bounded.shape == plain.shape
    assert np.allclose(bounded, plain, atol=1e-5)
