"""A tiny model folder the fast embedding runtime (models/embedders/onnx_backend.py) reads like a real one, built in
milliseconds with `tokenizers` and `onnx`: tokenizer.json ([CLS] text [SEP], one id per word), config.json (its
positions), the word table and an encoder graph whose output numpy computes exactly (`reference_hidden`). The graph
reads a position table of POSITIONS rows, so an input longer than that fails like a real model's, and each token's
output depends on its place in the input: which tokens share a window, and where, changes the vectors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from desktop_rag.engine.models.onnx_export import ENCODER_FILE, TABLE_FILE, RuntimeFolders

POSITIONS = 8  # the model's position table: [CLS] + 6 words + [SEP]
DIMENSION = 6
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
WORDS = ["query", "passage", ":"] + [f"w{i}" for i in range(40)]
VOCAB = {token: i for i, token in enumerate(SPECIALS + WORDS)}
CLS, SEP = VOCAB["[CLS]"], VOCAB["[SEP]"]
PROMPTS = ("query: ", "passage: ")

_rng = np.random.default_rng(48)
TABLE = _rng.normal(size=(len(VOCAB), DIMENSION)).astype(np.float32)
POSITION_TABLE = _rng.normal(size=(POSITIONS, DIMENSION)).astype(np.float32)


def reference_hidden(ids: list[int]) -> np.ndarray:
    """What the encoder gives one unpadded input: tanh(word + position)."""
    return np.tanh(TABLE[ids] + POSITION_TABLE[:len(ids)])


def ids_of(text: str) -> list[int]:
    """A text's content ids (no [CLS]/[SEP]): one per whitespace-separated word, "query:" as two."""
    return [VOCAB[w] for w in text.replace(":", " :").split()]


def _tokenizer_json() -> str:
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    tokenizer = Tokenizer(models.WordLevel(VOCAB, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]", special_tokens=[("[CLS]", CLS), ("[SEP]", SEP)])
    return tokenizer.to_str()


def _encoder_graph():
    """inputs_embeds (batch, tokens, DIMENSION) + attention_mask -> tanh(inputs_embeds + positions[:tokens])."""
    from onnx import TensorProto, helper, numpy_helper

    dims = ["batch", "tokens"]
    nodes = [
        helper.make_node("Shape", ["inputs_embeds"], ["shape"]),
        helper.make_node("Gather", ["shape", "one"], ["tokens"], axis=0),
        helper.make_node("Slice", ["positions", "zero", "tokens", "zero"], ["used"]),
        helper.make_node("Add", ["inputs_embeds", "used"], ["summed"]),
        helper.make_node("Tanh", ["summed"], ["last_hidden_state"]),
    ]
    constants = [numpy_helper.from_array(POSITION_TABLE, "positions"),
                 numpy_helper.from_array(np.array([0], np.int64), "zero"),
                 numpy_helper.from_array(np.array([1], np.int64), "one")]
    graph = helper.make_graph(
        nodes, "tiny_encoder",
        [helper.make_tensor_value_info("inputs_embeds", TensorProto.FLOAT, [*dims, DIMENSION]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, dims)],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [*dims, DIMENSION])],
        initializer=constants)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def build_tiny_model(root: Path, config: dict | None = None, sentence_bert: dict | None = None) -> RuntimeFolders:
    """The model folder (root/model) and its runtime files (root/runtime). `config` replaces config.json's
    (default: a BERT of POSITIONS positions); `sentence_bert` writes sentence_bert_config.json."""
    import onnx

    model, runtime = root / "model", root / "runtime"
    model.mkdir(parents=True)
    runtime.mkdir()
    (model / "tokenizer.json").write_text(_tokenizer_json(), encoding="utf-8")
    config = config or {"model_type": "bert", "max_position_embeddings": POSITIONS, "hidden_size": DIMENSION}
    (model / "config.json").write_text(json.dumps(config), encoding="utf-8")
    if sentence_bert is not None:
        (model / "sentence_bert_config.json").write_text(json.dumps(sentence_bert), encoding="utf-8")
    np.save(runtime / TABLE_FILE, TABLE)
    onnx.save(_encoder_graph(), str(runtime / ENCODER_FILE))
    return RuntimeFolders(model, runtime)
