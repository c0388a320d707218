"""A model's answer as it streams, shown as the finished answer will be (the `DoneEvent`'s text): citations cleaned
as they complete, and thinking the chat template opened taken back once its lone `</think>` arrives."""

from __future__ import annotations

from desktop_rag.engine.answer.citations import CitationStream
from desktop_rag.engine.answer.reasoning import MAX_THINKING_CHARS, answer_start


class StreamedAnswer:
    """Feed the answer's `TokenEvent` texts; `feed` returns what to show now and whether what was shown before was
    thinking (to take back first); `finish` the same at the end. `undecided`: what is shown may still turn out to be thinking.

    `thinking`: how far into the reply a lone `</think>` may end thinking (`SourcesEvent.thinking_chars`); 0 for an
    answer no model wrote (an extractive one: a quoted `</think>` is a document's).
    """

    def __init__(self, n_passages: int, thinking: int = MAX_THINKING_CHARS) -> None:
        self._n, self._bound = n_passages, thinking
        self._citations = CitationStream(n_passages)
        self._reply = "" if thinking else None  # the reply so far while its thinking is undecided
        self._lead = False  # thinking was taken back: the blank lines after its tag are not shown

    @property
    def undecided(self) -> bool:
        return self._reply is not None

    def feed(self, piece: str) -> tuple[str, bool]:
        if self._reply is None:
            return self._shown(piece), False
        self._reply += piece
        return self._decided(answer_start(self._reply, ended=False, bound=self._bound), piece)

    def finish(self, thinking: bool = False) -> tuple[str, bool]:
        """What is left to show, and whether what was shown was thinking (a reply ending on its lone tag, or, when
        `thinking`, one the engine found stopped before its thinking ended: `DoneEvent` / `ErrorEvent` without it)."""
        if thinking and self._reply is not None:
            self._reply, self._citations = None, CitationStream(self._n)
            return "", True
        if self._reply is None:
            return self._citations.finish(), False
        text, taken = self._decided(answer_start(self._reply, bound=self._bound), "")
        return text + self._citations.finish(), taken

    def _decided(self, start: int | None, piece: str) -> tuple[str, bool]:
        if start is None:
            return self._shown(piece), False
        rest, self._reply = self._reply[start:], None
        if not start:
            return self._shown(piece), False
        self._citations, self._lead = CitationStream(self._n), True
        return self._shown(rest), True

    def _shown(self, text: str) -> str:
        if self._lead:
            text = text.lstrip()
            self._lead = not text
        return self._citations.feed(text)
