"""Passages are embedded in token-bounded batches (the ingest memory bound, bench/README.md "Ingest memory"):
the groups respect both limits, the vectors are the ones a plain encode gives, in the caller's order, and
one call on long passages keeps the peak small (the real bundled model)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from desktop_rag.config import BUNDLED_MODEL
from desktop_rag.engine.models.embedders import sentence_transformers_backend as st
from desktop_rag.engine.models.embedding import create_embedder
from tests.support import REPO


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


# A fresh process embeds 64 passages cut at the model's 256 tokens after a warm-up, with VmHWM reset to the
# current RSS just before (Linux: /proc/self/clear_refs "5"), and prints the peak's growth in MiB.
PEAK_PROBE = r"""
from desktop_rag.config import BUNDLED_MODEL
from desktop_rag.engine.models.embedding import create_embedder
from desktop_rag.engine.heap import release_freed_memory

def status(key):
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith(key + ":"))

embedder = create_embedder(BUNDLED_MODEL)
texts = [" ".join(f"protein{i} binds receptor{j}" for j in range(90)) for i in range(64)]
embedder.embed(texts[:2])
release_freed_memory()
try:
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
except OSError:
    raise SystemExit(print("no-clear-refs"))
base = status("VmRSS")
embedder.embed(texts)
print((status("VmHWM") - base) // 1024)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads and resets VmHWM in /proc")
def test_embedding_long_passages_keeps_the_peak_small():
    """64 full-length passages, the engine's batch size: the peak grows by 48 MB with the 1,024-token budget
    (165 MB with 4,096, which set a 1,000 MB ingest peak on SciFact); 100 MB leaves room for other CPUs."""
    out = subprocess.run([sys.executable, "-c", PEAK_PROBE], capture_output=True, text=True, timeout=300,
                         cwd=REPO)
    assert out.returncode == 0, out.stderr[-2000:]
    if out.stdout.split()[-1] == "no-clear-refs":
        pytest.skip("this kernel does not let a process reset its VmHWM")
    growth_mb = int(out.stdout.split()[-1])
    assert growth_mb <= 100, f"embedding 64 long passages raised the peak RSS by {growth_mb} MB"
