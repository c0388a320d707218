"""An answer bubble's text while the answer streams: what the finished answer will show (the engine's
`StreamedAnswer`: citation markers as the final bubble has them, thinking the chat template opened left out).

Text that may still prove to be thinking is held until that is known, so thinking never flashes in the bubble;
`held` says how much is held (the bubble shows that the model is writing, and how much). A model the engine has
seen answering without such thinking (`SourcesEvent.thinks` False: engine/answer/thinking_models.py) streams at
once (held, every answer would come whole at its end); one seen thinking, or not known yet, is held."""

from __future__ import annotations

from desktop_rag.engine import StreamedAnswer


class StreamedBubble:
    """`begin` with the passages sent, how far into a model's answer its thinking may end (0: no model writes it,
    `SourcesEvent.thinking_chars`) and whether the model is known to think (None: not known), `feed` each token
    (the bubble's text now), `finish` at the end (the bubble's text is then the `DoneEvent`'s)."""

    def __init__(self) -> None:
        self._answer = StreamedAnswer(0, thinking=0)
        self._thinks: bool | None = None
        self._text = self._held = ""

    @property
    def held(self) -> int:
        """Characters written and not shown yet: they may still prove to be thinking."""
        return len(self._held)

    def begin(self, passages: int, thinking: int, thinks: bool | None) -> None:
        self._answer = StreamedAnswer(passages, thinking)
        self._thinks, self._text, self._held = thinks, "", ""

    def feed(self, piece: str) -> str:
        shown, taken_back = self._answer.feed(piece)
        if taken_back:  # what was held (or, for a model seen without thinking, shown) was thinking
            self._thinks, self._text, self._held = True, "", ""
        if self._answer.undecided and self._thinks is not False:
            self._held += shown
        else:
            self._text, self._held = self._text + self._held + shown, ""
        return self._text

    def finish(self) -> None:
        self._answer = StreamedAnswer(0, thinking=0)
