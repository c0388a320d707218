"""When two questions are the same question: the normalised form feedback is keyed on, how alike two questions
are (a rephrasing), and a doubting follow-up such as "are you sure" / "你确定吗" (issue 39's online signals)."""

from __future__ import annotations

import re
import unicodedata

from desktop_rag.engine.text.keyword import query_terms

REPHRASED = 0.6  # term overlap (Jaccard) from which a question asked soon after the last one is the same question
_EDGE = re.compile(r"^[\s\"'“”‘’「」?？!！.。,，;；:：]+|[\s\"'“”‘’「」?？!！.。,，;；:：]+$")
_DOUBT = re.compile(
    r"^\W*(are you (sure|certain)|really|is (that|this) (right|correct|true)|that'?s (wrong|not right|incorrect)|"
    r"i don'?t think so|you'?re wrong|wrong)\b\W*$"
    r"|^\W*(你确定|确定吗|你肯定|真的吗|真的假的|是吗|对吗|不对|错了|你错了|不是吧)\W*.{0,4}$",
    re.IGNORECASE)


def normalised_question(text: str) -> str:
    """Case-folded (NFKC), whitespace collapsed, without quotes and punctuation around it."""
    folded = unicodedata.normalize("NFKC", text or "").casefold()
    return _EDGE.sub("", " ".join(folded.split()))


def similarity(a: str, b: str) -> float:
    """Overlap (Jaccard) of the search terms of two questions; 1.0 for the same normalised question."""
    if normalised_question(a) == normalised_question(b):
        return 1.0
    first, second = {t for t, _ in query_terms(a)}, {t for t, _ in query_terms(b)}
    return len(first & second) / len(first | second) if first and second else 0.0


def is_doubt(text: str) -> bool:
    """A follow-up that doubts the last answer: "are you sure?", "really?", "你确定吗？", "不对"."""
    return len(text) <= 60 and _DOUBT.search(text.strip()) is not None
