"""An answer bubble's text while the answer streams: what the finished answer will show (the engine's
`StreamedAnswer`: citation markers as the final bubble has them, thinking the chat template opened left out).

Text that may still prove to be thinking is held until that is known, so thinking never flashes in the bubble;
a model this session has seen answer without such thinking streams at once (held, every answer would come
whole at its end), and is held again from the answer where its thinking is first taken back."""

from __future__ import annotations

from desktop_rag.engine import StreamedAnswer


class StreamedBubble:
    """`begin` with the passages sent and the model writing (None: no model), `feed` each token (the bubble's text
    now), `finish` at the end (the bubble's text is then the `DoneEvent`'s)."""

    def __init__(self) -> None:
        self._thinks: dict[str, bool] = {}  # by model: a reply of it has had thinking its template opened
        self._answer = StreamedAnswer(0, thinking=False)
        self._model = ""
        self._text = self._held = ""

    def begin(self, passages: int, model: str | None) -> None:
        self._answer = StreamedAnswer(passages, thinking=model is not None)
        self._model, self._text, self._held = model or "", "", ""

    def feed(self, piece: str) -> str:
        shown, taken_back = self._answer.feed(piece)
        self._settle(taken_back)
        if self._answer.undecided and self._thinks.get(self._model, True):
            self._held += shown
        else:
            self._text, self._held = self._text + self._held + shown, ""
        return self._text

    def finish(self) -> None:
        """Learn whether the model opens thinking (once seen, it is held from then on)."""
        self._settle(self._answer.finish()[1])
        if self._model:
            self._thinks.setdefault(self._model, False)
        self._answer = StreamedAnswer(0, thinking=False)

    def _settle(self, taken_back: bool) -> None:
        if taken_back:  # what was held (or, for a model not known to think, shown) was thinking
            self._thinks[self._model] = True
            self._text = self._held = ""
