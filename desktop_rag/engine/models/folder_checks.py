"""What a local model folder (a download, a folder the user picked: someone else's files) must be before anything
in it is loaded, beyond its weights being safetensors (model_folders.pickle_only_parts):

- its tokenizer's regular expressions are known ones: `tokenizers` runs them with Oniguruma, and a backtracking
  one (`(a+)+b` in a `Split` pre-tokenizer or a `Replace` normaliser) made it panic (pyo3's PanicException, which
  escapes `except Exception`) or run for minutes on one passage;
- its weights hold every parameter its config.json declares, with the declared shape: config.json alone sized
  the ONNX export (`vocab_size` 8,000,000 in an 816 KB folder took 1.97 GB and wrote a 512 MB table), and
  transformers filled the missing weights with random numbers and used them.

Both raise DesktopRagError naming the folder and what is wrong.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.system_errors import foreign_reason

MAX_TOKENIZER_BYTES = 64 << 20  # tokenizer.json (bge-m3's, 250k pieces, is 17 MB)
MAX_PATTERN_CHARS = 65_536  # one regular expression
MAX_HEADER_BYTES = 100 << 20  # a safetensors header (the format's own limit)
MAX_LAYERS = 256  # an encoder's layers (the deepest in use have 48): the declared model is built without weights
# The regular expressions of the tokenizers in use: GPT-2/RoBERTa, Qwen2, Llama 3 and Mistral's corrected one (byte
# level), the whitespace clean-ups of transformers' sentencepiece conversions (XLM-R: e5, bge-m3), CLIP's split.
KNOWN_PATTERNS = frozenset({
    " {2,}", r"\s+", r"\A +| +\z", r"\A▁",
    r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}"
    r"\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    r"'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+",
})
# Shapes that match in one step per position, so they cannot backtrack: one character class (e5_conversion's list of
# removed characters), or literal alternatives (transformers' split on a sentencepiece model's user-defined pieces).
_ESCAPE = r"\\(?:[nrtfv]|x\{[0-9A-Fa-f]{1,6}\}|[^A-Za-z0-9])"
_CLASS = re.compile(rf"\[\^?(?:[^\[\]\\]|{_ESCAPE}|\\[sSdDwW]|\\[pP]\{{[A-Za-z_]+\}})+\]")
_LITERALS = re.compile(rf"(?:[^\\.^$|?*+()\[\]{{}}]|{_ESCAPE})+(?:\|(?:[^\\.^$|?*+()\[\]{{}}]|{_ESCAPE})+)*")
_DTYPE_BYTES = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U64": 8, "U32": 4,
                "U16": 2, "U8": 1, "BOOL": 1, "F8_E4M3": 1, "F8_E5M2": 1}


def is_known_pattern(pattern: str) -> bool:
    """A regular expression a tokenizer may run: a known one, or a shape that cannot backtrack."""
    return pattern in KNOWN_PATTERNS or (len(pattern) <= MAX_PATTERN_CHARS and bool(
        _CLASS.fullmatch(pattern) or _LITERALS.fullmatch(pattern)))


def check_tokenizer(path: Path) -> None:
    """Refuse a tokenizer.json that is too large, not JSON, or runs a regular expression outside the known ones
    (anywhere: normaliser, pre-tokenizer, decoder). Nothing is refused for a file that is not there."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return
    if size > MAX_TOKENIZER_BYTES:
        raise DesktopRagError.coded("tokenizer_too_large", path=path, mb=f"{size / 1e6:,.0f}",
                                    limit=MAX_TOKENIZER_BYTES >> 20)
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError) as exc:
        raise DesktopRagError.coded("tokenizer_unreadable", path=path, detail=foreign_reason(exc)) from exc
    unknown = [p for p in _patterns(data) if not is_known_pattern(p)]
    if unknown:
        raise DesktopRagError.coded("tokenizer_pattern", path=path, pattern=repr(unknown[0][:80]))


def _patterns(node) -> list[str]:
    """Every {"Regex": pattern} in a parsed tokenizer.json (iteratively: the vocabulary is large)."""
    found, stack = [], [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            regex = item.get("Regex")
            if regex is not None:
                found.append(regex if isinstance(regex, str) else repr(regex))
            stack.extend(v for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            stack.extend(v for v in item if isinstance(v, (dict, list)))
    return found


def safetensors_shapes(path: Path) -> dict[str, tuple[int, ...]]:
    """The tensors a .safetensors file holds (name -> shape), from its header alone; each must fit in the file with
    the bytes its shape and type take, so the header cannot promise what the file does not hold."""
    size = path.stat().st_size
    with open(path, "rb") as f:
        length = int.from_bytes(f.read(8), "little")
        if size < 8 or length > min(MAX_HEADER_BYTES, size - 8):
            raise ValueError(f"{path.name} is not a safetensors file (header of {length} bytes)")
        header = json.loads(f.read(length))
    data = size - 8 - length
    shapes = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        shape, (begin, end) = tuple(entry["shape"]), entry["data_offsets"]
        width = _DTYPE_BYTES[entry["dtype"]]
        if not all(isinstance(n, int) and n >= 0 for n in (*shape, begin, end)) or not begin <= end <= data \
                or end - begin != math.prod(shape) * width:
            raise ValueError(f"{path.name}: the tensor {name} does not fit the file")
        shapes[name] = shape
    return shapes


def check_weights(folder: Path) -> None:
    """Refuse a transformers folder whose *.safetensors lack a parameter its config.json declares, or hold it in
    another shape: the model the config describes is built on PyTorch's meta device (shapes, no memory) and compared
    with the files' headers before any weight is read. Imports torch and transformers (the callers load them next)."""
    import torch
    from transformers import AutoConfig, AutoModel

    _refuse_custom_code(folder)
    try:
        config = AutoConfig.from_pretrained(str(folder), trust_remote_code=False, local_files_only=True)
        layers = int(getattr(config, "num_hidden_layers", 0) or 0)
        if layers > MAX_LAYERS:
            raise ValueError(f"config.json declares {layers} layers")
        with torch.device("meta"):
            try:
                declared = AutoModel.from_config(config, add_pooling_layer=False, trust_remote_code=False)
            except TypeError:  # no pooler to leave out (sentence-transformers mean-pools the tokens)
                declared = AutoModel.from_config(config, trust_remote_code=False)
        stored: dict[str, tuple[int, ...]] = {}
        for file in sorted(folder.glob("*.safetensors")):
            stored.update(safetensors_shapes(file))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RuntimeError) as exc:
        raise DesktopRagError.coded("model_folder_unloadable", folder=folder, detail=foreign_reason(exc)) from exc
    prefix = f"{declared.base_model_prefix}."
    wrong = []
    for name, parameter in declared.named_parameters():
        names = (name, prefix + name, *_legacy_names(name), *(prefix + n for n in _legacy_names(name)))
        shape = next((stored[n] for n in names if n in stored), None)
        if shape != tuple(parameter.shape):
            wrong.append(f"{name} {tuple(parameter.shape)}: {'missing' if shape is None else shape}")
    if wrong:
        raise DesktopRagError.coded("model_weights_missing", folder=folder, wrong=len(wrong),
                                    total=len(list(declared.parameters())), example=wrong[0])


def _refuse_custom_code(folder: Path) -> None:
    """A config.json whose model type transformers does not know and that names the folder's own Python code
    (`auto_map`): transformers would offer to run that code (and a terminal's "y" did); this app never does."""
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # AutoConfig says what is wrong
    if isinstance(config, dict) and "auto_map" in config and str(config.get("model_type")) not in CONFIG_MAPPING:
        raise DesktopRagError.coded("model_custom_code", folder=folder)


def _legacy_names(name: str) -> tuple[str, ...]:
    """Older checkpoints' names for a LayerNorm's weight and bias (transformers renames them on load)."""
    if name.endswith(".weight"):
        return (name[:-len("weight")] + "gamma",)
    if name.endswith(".bias"):
        return (name[:-len("bias")] + "beta",)
    return ()


def check_model_folder(root: Path) -> None:
    """check_tokenizer and check_weights for each transformers model a sentence-transformers folder loads (its
    modules.json's Transformer modules; the folder itself when it has none)."""
    for folder in _transformer_folders(root):
        check_tokenizer(folder / "tokenizer.json")
        check_weights(folder)


def _transformer_folders(root: Path) -> list[Path]:
    try:
        modules = json.loads((root / "modules.json").read_text(encoding="utf-8"))
        paths = [m.get("path", "") for m in modules if str(m.get("type", "")).endswith(".Transformer")]
    except (OSError, ValueError, AttributeError, TypeError):
        paths = []
    return [root / p for p in paths if isinstance(p, str)] or [root]
