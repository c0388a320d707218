""""What was sent": the answer request's messages as the model receives them, with token counts and the saving of
context compression; kept with a stored answer and a conversation's message as JSON (`SentPrompt.to_json`), so a
replayed or reloaded answer shows what was sent when it was made.

The requests made for the same answer before it (a follow-up's rewrite, the question's translations) are
`SentPrompt.earlier`: `recording()` collects every `LLMClient.complete` call the code inside it makes on this
thread (`note`), without the search code knowing.

Tokens are `models.tokens` counts (the bundled WordPiece tokenizer), an estimate of the model's own.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence

from desktop_rag.engine.answer.compression import sent_text
from desktop_rag.engine.models.tokens import count_tokens
from desktop_rag.engine.store.values import MAX_EARLIER_REQUESTS, Hit, SentPrompt

_RECORDING = threading.local()  # .calls: the list the current `recording()` on this thread fills


def sent_prompt(messages: Sequence[dict], used: Sequence[Hit], model: str = "", purpose: str = "answer",
                ) -> SentPrompt:
    """The messages exactly as sent, each one's tokens, and the passages' tokens whole and as sent."""
    pairs = tuple((str(m["role"]), str(m["content"])) for m in messages)
    return SentPrompt(pairs, tuple(count_tokens(content) for _, content in pairs),
                      sum(count_tokens(h.text) for h in used), sum(count_tokens(sent_text(h)) for h in used), model,
                      purpose)


@contextlib.contextmanager
def recording(purpose: str) -> Iterator[list[SentPrompt]]:
    """The requests `note`d on this thread while inside, as `purpose` prompts (at most MAX_EARLIER_REQUESTS)."""
    calls: list[SentPrompt] = []
    outer = getattr(_RECORDING, "calls", None)
    _RECORDING.calls, _RECORDING.purpose = calls, purpose
    try:
        yield calls
    finally:
        _RECORDING.calls = outer


def note(messages: Sequence[dict], model: str) -> None:
    """A request about to be sent (LLMClient.complete): kept by the `recording()` running on this thread, if any."""
    calls = getattr(_RECORDING, "calls", None)
    if calls is not None and len(calls) < MAX_EARLIER_REQUESTS:
        calls.append(sent_prompt(messages, (), model, _RECORDING.purpose))
