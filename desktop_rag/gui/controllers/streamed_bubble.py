"""An answer bubble's text while the answer streams: what the finished answer will show (the engine's
`StreamedAnswer`: citation markers as the final bubble has them, thinking the chat template opened left out).

Text that may still prove to be thinking is held until that is known, so thinking never flashes in the bubble;
`held` says how much is held (the bubble shows that the model is writing, and how much). A model seen answering
without such thinking, in this session or an earlier one (`ModelMemory`: AppSettings, threads/model_memory.py),
streams at once (held, every answer would come whole at its end), and is held again from the answer where its
thinking is first taken back. Only a model's very first answer is held to learn which it is."""

from __future__ import annotations

from typing import Protocol

from desktop_rag.engine import StreamedAnswer


class ModelMemory(Protocol):
    """Whether a model (by key) was seen opening thinking: None while not known."""

    def model_thinks(self, key: str) -> bool | None: ...

    def remember_model(self, key: str, thinks: bool) -> None: ...


class StreamedBubble:
    """`begin` with the passages sent and the model writing (its `model_memory.model_key`; None: no model), `feed`
    each token (the bubble's text now), `finish` at the end (the bubble's text is then the `DoneEvent`'s)."""

    def __init__(self, memory: ModelMemory) -> None:
        self._memory = memory
        self._answer = StreamedAnswer(0, thinking=False)
        self._model = ""
        self._text = self._held = ""

    @property
    def held(self) -> int:
        """Characters written and not shown yet: they may still prove to be thinking."""
        return len(self._held)

    def begin(self, passages: int, model: str | None) -> None:
        self._answer = StreamedAnswer(passages, thinking=model is not None)
        self._model, self._text, self._held = model or "", "", ""

    def feed(self, piece: str) -> str:
        shown, taken_back = self._answer.feed(piece)
        self._settle(taken_back)
        if self._answer.undecided and self._memory.model_thinks(self._model) is not False:
            self._held += shown
        else:
            self._text, self._held = self._text + self._held + shown, ""
        return self._text

    def finish(self, complete: bool) -> None:
        """Learn whether the model opens thinking: thinking taken back always tells; an answer without it only when
        `complete` (a model's whole answer: not stopped, cut or replayed from the store, whose thinking may not have
        come or was dropped). Once seen to think, a model is held from then on."""
        self._settle(self._answer.finish()[1])
        if self._model and complete and self._memory.model_thinks(self._model) is None:
            self._memory.remember_model(self._model, False)
        self._answer = StreamedAnswer(0, thinking=False)

    def _settle(self, taken_back: bool) -> None:
        if taken_back:  # what was held (or, for a model not known to think, shown) was thinking
            if self._model:
                self._memory.remember_model(self._model, True)
            self._text = self._held = ""
