"""Attacks through a model folder's config.json: it alone sized the ONNX export (`vocab_size` 8,000,000 in a small
folder: 1.97 GB peak and a 512 MB table written), missing weights were silently randomised and used, an `auto_map`
with a configuration_*.py ran that code when the terminal answered "y", and a config without `hidden_size`
(DistilBERT's `dim`) crashed create_embedder with KeyError."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.model_folders import documents, minilm_copy, run_cli, tiny_bert


@pytest.mark.parametrize("case", ["vocab_size 8,000,000", "a layer missing"])
def test_weights_that_do_not_match_the_config_are_refused_before_loading(tmp_path: Path, case: str):
    if case == "vocab_size 8,000,000":  # the word table is not stored at all; the config declares 8M words
        model = tiny_bert(tmp_path / "model", vocab_size=8_000_000, left_out=("embeddings.word_embeddings",))
    else:
        model = tiny_bert(tmp_path / "model", left_out=("encoder.layer.0.attention.self.query",))
    home = tmp_path / "home"
    result, done = run_cli(home, "index", str(documents(tmp_path / "docs")), "--json", model=str(model))
    assert result.get("rc") == 1, done.stderr[-2000:]
    assert "does not hold the weights its config.json declares" in done.stderr
    assert result["peak_mb"] < 900  # measured 1.97 GB before, with the random 8M-row table
    assert not list(home.rglob("*.npy"))  # no word table written


def test_a_folder_whose_config_names_its_own_code_never_runs_it(tmp_path: Path):
    model = minilm_copy(tmp_path / "model")
    config = json.loads((model / "config.json").read_text())
    config.update(model_type="evil-bert", auto_map={"AutoConfig": "configuration_evil.EvilConfig",
                                                     "AutoModel": "modeling_evil.EvilModel"})
    (model / "config.json").write_text(json.dumps(config))
    marker = tmp_path / "ran"
    for module, base in (("configuration_evil", "BertConfig"), ("modeling_evil", "BertModel")):
        (model / f"{module}.py").write_text(
            f"open({str(marker)!r}, 'a').write({module!r})\nfrom transformers import {base}\n"
            f"class {'EvilConfig' if base == 'BertConfig' else 'EvilModel'}({base}):\n    model_type = 'evil-bert'\n")
    for runtime in ("auto", "torch"):  # the ONNX export, and sentence-transformers
        result, done = run_cli(tmp_path / f"home-{runtime}", "index", str(documents(tmp_path / "docs")),
                               model=str(model), runtime=runtime, stdin="y\n" * 20)
        assert result.get("rc") == 1, done.stderr[-2000:]
        assert "never runs code from a model folder" in done.stderr
        assert "[y/N]" not in done.stdout + done.stderr
    assert not marker.exists()


def test_a_config_with_dim_instead_of_hidden_size_falls_back(tmp_path: Path):
    """DistilBERT-based sentence-transformers folders say `dim`; a config that states no width at all falls back
    to sentence-transformers instead of a KeyError."""
    from desktop_rag.engine.models.embedding import create_embedder

    model = minilm_copy(tmp_path / "model")
    config = json.loads((model / "config.json").read_text())
    config["dim"] = config.pop("hidden_size")
    (model / "config.json").write_text(json.dumps(config))
    assert create_embedder(str(model), tmp_path / "home", "auto").dimension == 384
    del config["dim"]
    (model / "config.json").write_text(json.dumps(config))
    embedder = create_embedder(str(model), tmp_path / "home", "auto")
    assert type(embedder).__name__ == "SentenceTransformerEmbedder"
