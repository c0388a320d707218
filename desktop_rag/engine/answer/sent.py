""""What was sent": the answer request's messages as the model receives them, with token counts and the saving of
context compression; kept with a stored answer as JSON (a replayed answer shows what was sent when it was made).

Tokens are `models.tokens` counts (the bundled WordPiece tokenizer), an estimate of the model's own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from desktop_rag.engine.answer.compression import sent_text
from desktop_rag.engine.models.tokens import count_tokens
from desktop_rag.engine.types import Hit, SentPrompt

_MAX_JSON_CHARS = 2_000_000  # a stored prompt larger than this (a damaged row) is not shown


def sent_prompt(messages: Sequence[dict], used: Sequence[Hit], model: str = "") -> SentPrompt:
    """The messages exactly as sent, each one's tokens, and the passages' tokens whole and as sent."""
    pairs = tuple((str(m["role"]), str(m["content"])) for m in messages)
    return SentPrompt(pairs, tuple(count_tokens(content) for _, content in pairs),
                      sum(count_tokens(h.text) for h in used), sum(count_tokens(sent_text(h)) for h in used), model)


def to_json(prompt: SentPrompt) -> str:
    return json.dumps({"messages": [list(m) for m in prompt.messages], "tokens": list(prompt.tokens),
                       "passages_before": prompt.passages_before, "passages_after": prompt.passages_after,
                       "model": prompt.model}, ensure_ascii=False)


def from_json(text: str | None) -> SentPrompt | None:
    """The stored prompt, or None when there is none or it does not read as one."""
    if not text or len(text) > _MAX_JSON_CHARS:
        return None
    try:
        data = json.loads(text)
        messages = tuple((str(role), str(content)) for role, content in data["messages"])
        tokens = tuple(int(t) for t in data["tokens"])
        return SentPrompt(messages, tokens, int(data["passages_before"]), int(data["passages_after"]),
                          str(data.get("model", "")))
    except (ValueError, KeyError, TypeError):
        return None
