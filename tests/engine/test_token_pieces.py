"""Long texts are counted piece by piece (a summary's whole document: one tokenizer call held the GIL for
230 ms and stalled the GUI thread), with exactly the count of one call: the cuts fall at whitespace or between
Chinese characters, where WordPiece splits anyway."""

from __future__ import annotations


from desktop_rag.engine.models import tokens
from tests.support import REPO
from tests.support.long_document import page_lines

SAMPLES = REPO / "resources" / "samples"


def _one_call(text: str) -> int:
    return len(tokens._tokenizer().encode(text, add_special_tokens=False).ids)


def test_pieces_count_what_one_call_counts():
    report = "\n".join("\n".join(page_lines(p)) for p in range(1, 51))
    texts = [report, "绿茶用八十度的水冲泡。" * 900, ("word " * 999) + "中文" * 800 + " tail"]
    texts += [p.read_text("utf-8") * 20 for p in sorted(SAMPLES.iterdir())]
    for text in texts:
        pieces = tokens._pieces(text)
        assert "".join(pieces) == text and len(pieces) > 1
        assert max(len(p) for p in pieces) <= tokens.PIECE_CHARS
        assert tokens.count_tokens(text) == _one_call(text)
