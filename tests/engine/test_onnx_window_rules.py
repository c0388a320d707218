"""The fast runtime's long inputs, windows and pooling (models/embedders/onnx_backend.py: `windows`,
`max_positions`, `OnnxEmbedder._encode`), checked exactly on a tiny model built in the test (tests/support/
tiny_encoder.py: [CLS] + 6 words + [SEP] positions, an encoder numpy computes), so a pytest session takes seconds
(bench.mutation's `onnx_windowing` row). test_onnx_windowing.py checks the same against the real models."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnxruntime  # noqa: F401  (imported at collection: bench.mutation's pre-imported test session keeps it)
import pytest

import desktop_rag
from desktop_rag.engine.errors import DesktopRagError, error_text
from desktop_rag.engine.models.embedders.onnx_backend import OnnxEmbedder, max_positions, windows
from tests.support.hash_cli import environment
from tests.support.tiny_encoder import (
    CLS,
    DIMENSION,
    POSITIONS,
    PROMPTS,
    SEP,
    build_tiny_model,
    ids_of,
    reference_hidden,
)

# ---- the windows of one text ----


def test_windows_cut_the_content_into_framed_inputs_within_the_limit():
    content = list(range(100, 110))
    cut = windows(content, [0], [2], 6)
    assert cut == [([0, 100, 101, 102, 103, 2], 4), ([0, 104, 105, 106, 107, 2], 4), ([0, 108, 109, 2], 2)]
    assert [t for row, _ in cut for t in row[1:-1]] == content  # every token once, in order, no overlap
    assert windows(content, [0], [2], 6, windowed=False) == cut[:1]  # truncation: the first window only


def test_a_text_that_fits_is_one_window_and_an_empty_one_weighs_one():
    assert windows([5, 6, 7, 8], [0], [2], 6) == [([0, 5, 6, 7, 8, 2], 4)]
    assert windows([], [0], [2], 6) == [([0, 2], 1)]
    assert windows([5, 6, 7], [0], [2], 2) == [([0, 5, 2], 1), ([0, 6, 2], 1), ([0, 7, 2], 1)]  # at least 1 a window
    assert windows([5, 6, 7], [], [], 2) == [([5, 6], 2), ([7], 1)]


# ---- the model's positions ----


def _folder(tmp_path, config: dict, st: dict | None = None):
    (tmp_path / "config.json").write_text(json.dumps(config), encoding="utf-8")
    if st is not None:
        (tmp_path / "sentence_bert_config.json").write_text(json.dumps(st), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("config, st, expected", [
    ({"model_type": "bert", "max_position_embeddings": 512}, None, 512),
    ({"model_type": "bert"}, None, 512),
    ({"model_type": "xlm-roberta", "max_position_embeddings": 514, "pad_token_id": 1}, None, 512),
    ({"model_type": "roberta", "max_position_embeddings": 514}, None, 512),  # padding_idx 1 by default
    ({"model_type": "camembert", "max_position_embeddings": 514, "pad_token_id": 3}, None, 510),
    ({"model_type": "bert", "max_position_embeddings": 512, "pad_token_id": 5}, None, 512),  # no offset for BERT
    ({"model_type": "bert", "max_position_embeddings": 512}, {"max_seq_length": 256}, 256),
    ({"model_type": "bert", "max_position_embeddings": 128}, {"max_seq_length": 256}, 128),
    ({"model_type": "bert", "max_position_embeddings": 512}, {"max_seq_length": None}, 512),
])
def test_the_positions_one_input_may_hold(tmp_path, config, st, expected):
    assert max_positions(_folder(tmp_path, config, st)) == expected


def test_the_configs_are_read_as_utf8_whatever_the_locale(tmp_path):
    """A folder's JSON may hold Chinese (a model's name): read under an ASCII locale (Windows reads cp936 or
    cp1252 by default), not the locale's encoding."""
    (tmp_path / "config.json").write_text('{"model_type": "bert", "_name_or_path": "中文模型"}', encoding="utf-8")
    (tmp_path / "sentence_bert_config.json").write_text('{"max_seq_length": 256, "note": "句向量"}', encoding="utf-8")
    code = ("import sys; from pathlib import Path; from desktop_rag.engine.models.embedders.onnx_backend import "
            "max_positions; print(max_positions(Path(sys.argv[1])))")
    env = environment(LC_ALL="C", PYTHONUTF8="0", PYTHONCOERCECLOCALE="0",
                      PYTHONPATH=str(Path(desktop_rag.__file__).resolve().parents[1]))  # this package (or its mutant)
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.split() == ["256"], out.stderr[-1000:]
    assert max_positions(tmp_path) == 256  # and here (which also tells bench.mutation this test reads it)


# ---- texts through the tiny model ----


def _embedder(tmp_path, windowed: bool = True, prompts: tuple[str, str] = PROMPTS, **folder) -> OnnxEmbedder:
    folders = build_tiny_model(tmp_path / "tiny", **folder)
    return OnnxEmbedder("tiny", lambda: folders, prompts, DIMENSION, None, 1.0, windowed=windowed)


def _vector(*windows_and_weights: tuple[list[int], int]) -> np.ndarray:
    """The expected vector of a text: its windows' mean-pooled outputs, weighted, summed, normalised."""
    total = sum(weight * reference_hidden(ids).mean(axis=0) for ids, weight in windows_and_weights)
    return (total / np.linalg.norm(total)).astype(np.float32)


def _words(first: int, count: int) -> str:
    return " ".join(f"w{i}" for i in range(first, first + count))


LONG = _words(0, 14)  # "passage: " + 14 words: 16 content tokens, three windows of at most 6
LONG_WINDOWS = ([CLS, *ids_of("passage: w0 w1 w2 w3"), SEP], 6), ([CLS, *ids_of(_words(4, 6)), SEP], 6), \
    ([CLS, *ids_of(_words(10, 4)), SEP], 4)


def test_a_long_text_is_the_length_weighted_mean_of_its_windows(tmp_path):
    vectors = _embedder(tmp_path).embed([LONG])
    assert vectors.dtype == np.float32 and vectors.shape == (1, DIMENSION)
    assert np.allclose(vectors[0], _vector(*LONG_WINDOWS), atol=1e-5)
    assert not np.allclose(vectors[0], _vector(LONG_WINDOWS[0]), atol=1e-2)  # the first window alone is not it
    equal_weights = _vector(*((ids, 1) for ids, _ in LONG_WINDOWS))
    assert not np.allclose(vectors[0], equal_weights, atol=1e-3)


def test_a_model_that_truncates_reads_the_first_window_only(tmp_path):
    vectors = _embedder(tmp_path, windowed=False).embed([LONG, "w20"])
    assert np.allclose(vectors[0], _vector(LONG_WINDOWS[0]), atol=1e-5)
    assert np.allclose(vectors[1], _vector(([CLS, *ids_of("passage: w20"), SEP], 3)), atol=1e-5)


@pytest.mark.parametrize("count, cut", [(4, [6]), (5, [6, 1]), (10, [6, 6]), (11, [6, 6, 1])])
def test_window_edges_at_the_limit(tmp_path, count, cut):
    """[CLS] + 6 content tokens + [SEP] fill the 8 positions exactly; one more token opens a window."""
    content = ids_of("passage: " + _words(0, count))
    starts = np.cumsum([0, *cut])
    expected = _vector(*(([CLS, *content[a:b], SEP], b - a) for a, b in zip(starts, starts[1:])))
    assert np.allclose(_embedder(tmp_path).embed([_words(0, count)])[0], expected, atol=1e-5)


def test_the_window_follows_sentence_bert_max_seq_length(tmp_path):
    """max_seq_length 5 under 8 positions: windows of 3 content tokens."""
    embedder = _embedder(tmp_path, sentence_bert={"max_seq_length": 5})
    content = ids_of("passage: " + _words(0, 5))
    expected = _vector(([CLS, *content[:3], SEP], 3), ([CLS, *content[3:6], SEP], 3), ([CLS, *content[6:], SEP], 1))
    assert np.allclose(embedder.embed([_words(0, 5)])[0], expected, atol=1e-5)


def test_an_xlm_roberta_folder_loses_its_padding_offset(tmp_path):
    """max_position_embeddings 10 with pad_token_id 1: 8 tokens an input, no more (the table has 8 rows)."""
    config = {"model_type": "xlm-roberta", "max_position_embeddings": POSITIONS + 2, "pad_token_id": 1}
    embedder = _embedder(tmp_path, config=config)
    content = ids_of("passage: " + _words(0, 8))
    expected = _vector(([CLS, *content[:6], SEP], 6), ([CLS, *content[6:], SEP], 4))
    assert np.allclose(embedder.embed([_words(0, 8)])[0], expected, atol=1e-5)


def test_each_text_keeps_its_own_vector_whatever_it_is_batched_with(tmp_path):
    """Windows are batched by length, longest first, across texts: each text gets back its own windows."""
    embedder = _embedder(tmp_path)
    texts = ["w30", LONG, _words(20, 3), _words(5, 9), "w31 w32"]
    expected = []
    for text in texts:
        content = ids_of("passage: " + text)
        expected.append(_vector(*(([CLS, *content[a:a + 6], SEP], len(content[a:a + 6]))
                                  for a in range(0, len(content), 6))))
    for batch_size in (1, 2, 64):
        vectors = embedder.embed(texts, batch_size=batch_size)
        assert np.allclose(vectors, np.vstack(expected), atol=1e-5), batch_size
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)


def test_queries_take_the_query_prompt_and_passages_the_passage_prompt(tmp_path):
    embedder = _embedder(tmp_path)
    query = _vector(([CLS, *ids_of("query: w1 w2"), SEP], 4))
    passage = _vector(([CLS, *ids_of("passage: w1 w2"), SEP], 4))
    assert np.allclose(embedder.embed_queries(["w1 w2"])[0], query, atol=1e-5)
    assert np.allclose(embedder.embed(["w1 w2"])[0], passage, atol=1e-5)


def test_an_empty_text_is_its_special_tokens_and_no_text_loads_nothing(tmp_path):
    embedder = _embedder(tmp_path, prompts=("", ""))
    empty = embedder.embed([])
    assert empty.shape == (0, DIMENSION) and empty.dtype == np.float32
    assert not embedder.loaded  # nothing to embed: the model is not opened for it
    expected = [_vector(([CLS, SEP], 1)), _vector(([CLS, *ids_of("w3"), SEP], 1))]
    assert np.allclose(embedder.embed(["", "w3"]), expected, atol=1e-5)


def test_a_tokenizer_panic_is_an_error_naming_the_model(tmp_path):
    class Panic(BaseException):  # pyo3's PanicException derives from BaseException alone
        pass

    def panicking(texts):
        raise Panic("regex backtracked")

    embedder = _embedder(tmp_path)
    embedder.load()
    embedder._token_ids = panicking
    with pytest.raises(DesktopRagError) as caught:
        embedder.embed(["w1"])
    assert "tiny" in error_text(caught.value) and "tokenizer" in error_text(caught.value)
    assert "分词器" in error_text(caught.value, "zh")
