"""A model's short requests beside an answer, which it can do without: a follow-up's rewrite (answering.py) and the
question's translation for cross-lingual search (search/translation.py).

Each asks for a few tokens of its own. A model known to open its replies with thinking (answer/thinking_models.py:
its chat template's, or a `<think>` block) spends its tokens thinking first: there such a request also gets room for
that thinking (the reply limit, at most THINKING_ROOM_TOKENS), and the reply loses it (`LLMClient.complete`, bounded
by `LLMConfig.thinking_chars`), so the rewrite or translation is not cut inside the thinking and silently lost; a
model the record does not know to think (before its first answer, or reasoning its server hides) gets that room once
its reply is cut before a word of it. A
request that still yields nothing says why in the log; it never fails the answer or the search."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from desktop_rag.engine.answer.llm import LLMClient, cancelled
from desktop_rag.engine.answer.llm_errors import LLMError
from desktop_rag.engine.answer.thinking_models import ThinkingModel

log = logging.getLogger(__name__)

THINKING_ROOM_TOKENS = 4096  # the most a side request adds for a thinking model's thinking (bounds its wait)


class SideRequests:
    """`llm`'s side requests; `thinking`: the record of whether its model thinks (None: not kept, as not known)."""

    def __init__(self, llm: LLMClient, thinking: ThinkingModel | None = None) -> None:
        self.llm, self.thinking = llm, thinking

    def tokens(self, own: int) -> int:
        """The max_tokens first sent for a request needing `own` tokens of reply: with room for the thinking of a
        model known to think (`with_room`)."""
        thinks = self.thinking is not None and self.thinking.thinks_first()
        return self.with_room(own) if thinks else own

    def with_room(self, own: int) -> int:
        """`own` tokens and room for thinking: the reply limit, at most THINKING_ROOM_TOKENS."""
        return own + min(int(self.llm.config.max_tokens), THINKING_ROOM_TOKENS)

    def complete(self, messages: Sequence[dict], own: int, what: str,
                 cancel: threading.Event | None = None) -> str:
        """The reply to `messages` (`what` it is, for the log), without its thinking, at temperature 0, a timeout
        not retried (the answer's own request waits for a silent server); '' when there is none (why is logged,
        unless `cancel` was set). A reply cut before a word of it (thinking the record of thinking models has
        not learned yet, or reasoning the server hides) is asked once more with room for the thinking."""
        tokens = self.tokens(own)
        while True:
            try:
                reply = self.llm.complete(messages, max_tokens=tokens, temperature=0.0, cancel=cancel,
                                          retry_timeout=False)
                break
            except Exception as exc:  # noqa: BLE001 - an extra: the answer or search goes on without it
                if tokens < self.with_room(own) and _cut_while_thinking(exc):
                    tokens = self.with_room(own)
                    continue
                log.warning("The question's %s is not used (%s): %s", what, getattr(exc, "kind", type(exc).__name__),
                            exc)
                return ""
        if not reply.strip() and not cancelled(cancel):
            log.warning("The question's %s is not used: the model's reply held no text beyond its thinking", what)
        return reply


def _cut_while_thinking(exc: Exception) -> bool:
    """Whether `exc` is a reply cut at its max_tokens before a word of it (only thinking)."""
    return isinstance(exc, LLMError) and exc.kind == "length" and not exc.partial.strip()
