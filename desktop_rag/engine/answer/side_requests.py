"""A model's short requests beside an answer, which it can do without: a follow-up's rewrite (answering.py) and the
question's translation for cross-lingual search (search/translation.py).

Each asks for a few tokens of its own. A model known to open its replies with thinking (answer/thinking_models.py)
spends its tokens thinking first: there such a request also gets room for that thinking (the reply limit, at most
THINKING_ROOM_TOKENS), and the reply loses it (`LLMClient.complete`, bounded by `LLMConfig.thinking_chars`), so the
rewrite or translation is not cut inside the thinking and silently lost. A request that still yields nothing says
why in the log; it never fails the answer or the search."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from desktop_rag.engine.answer.llm import LLMClient
from desktop_rag.engine.answer.thinking_models import ThinkingModel

log = logging.getLogger(__name__)

THINKING_ROOM_TOKENS = 4096  # the most a side request adds for a thinking model's thinking (bounds its wait)


class SideRequests:
    """`llm`'s side requests; `thinking`: the record of whether its model thinks (None: not kept, as not known)."""

    def __init__(self, llm: LLMClient, thinking: ThinkingModel | None = None) -> None:
        self.llm, self.thinking = llm, thinking

    def tokens(self, own: int) -> int:
        """The max_tokens sent for a request needing `own` tokens of reply: with room for the thinking of a model
        known to think (its reply limit, at most THINKING_ROOM_TOKENS)."""
        thinks = self.thinking is not None and self.thinking.thinks()
        return own + min(int(self.llm.config.max_tokens), THINKING_ROOM_TOKENS) if thinks else own

    def complete(self, messages: Sequence[dict], own: int, what: str,
                 cancel: threading.Event | None = None) -> str:
        """The reply to `messages` (`what` it is, for the log), without its thinking, at temperature 0, a timeout
        not retried (the answer's own request waits for a silent server); '' when there is none (why is logged,
        unless `cancel` was set)."""
        try:
            reply = self.llm.complete(messages, max_tokens=self.tokens(own), temperature=0.0, cancel=cancel,
                                      retry_timeout=False)
        except Exception as exc:  # noqa: BLE001 - an extra: the answer or search goes on without it
            log.warning("The question's %s is not used (%s): %s", what, getattr(exc, "kind", type(exc).__name__), exc)
            return ""
        if not reply.strip() and not (cancel is not None and cancel.is_set()):
            log.warning("The question's %s is not used: the model's reply held no text beyond its thinking", what)
        return reply
