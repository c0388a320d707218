"""An answer written to standard output as it streams, reading as the finished answer does (the engine's
`StreamedAnswer`: citations as the final answer has them, thinking the chat template opened hidden).

Text that may still prove to be thinking is written on a terminal and erased if it does (the cursor saved where
the answer began is restored and the screen cleared below it: never a line written before the answer); to a pipe or
a file, where nothing can be erased, it is held until that is known (a model's answer then comes at its end)."""

from __future__ import annotations

import sys
from typing import TextIO

from desktop_rag.cli.terminal import StreamCleaner
from desktop_rag.engine import StreamedAnswer

_SAVE, _RESTORE_AND_CLEAR = "\0337", "\0338\033[J"


class AnswerOutput:
    """`begin` with the passages sent (how far into a model's answer its thinking may end, 0 without a model:
    `SourcesEvent.thinking_chars`; whether it is known to open its replies with thinking: `SourcesEvent.thinks`),
    `feed` each token, then `finish` (or, on Ctrl-C, `interrupted`)."""

    def __init__(self, out: TextIO | None = None) -> None:
        self._out = out if out is not None else sys.stdout  # stdout as it is now (guarded), not at import
        self._erasable = self._out.isatty()
        self._answer = StreamedAnswer(0, thinking=0)
        self._cleaner = StreamCleaner()  # model text may carry escape sequences, split across tokens
        self._held: list[str] = []
        self._saved = False
        self._thinks: bool | None = None

    def begin(self, passages: int, thinking: int, thinks: bool | None = None) -> None:
        self._answer, self._thinks = StreamedAnswer(passages, thinking), thinks

    def feed(self, piece: str) -> None:
        self._show(*self._answer.feed(piece))

    def finish(self, answer: str) -> None:
        """The end, with the finished `answer` (a failed one's partial text): none at all takes back what may still
        have proved to be thinking (a reply stopped before its thinking ended, answering.py)."""
        self._show(*self._answer.finish(thinking=not answer))
        self._write(self._cleaner.finish())

    def interrupted(self) -> None:
        """Ctrl-C: from a model known to think, what may still prove to be thinking (its lone `</think>` has not
        come) is erased, as the engine leaves a stopped reply's thinking out (`reasoning.unfinished_thinking`)."""
        if self._thinks:
            self._show(*self._answer.finish(thinking=True))
            self._out.flush()

    def _show(self, text: str, taken_back: bool) -> None:
        if taken_back:  # what was written or held was thinking
            self._held, self._cleaner = [], StreamCleaner()
            if self._saved:
                self._out.write(_RESTORE_AND_CLEAR)
        shown = self._cleaner.feed(text)
        if self._answer.undecided and not self._erasable:
            self._held.append(shown)
            return
        if self._answer.undecided and not self._saved and shown:
            self._out.write(_SAVE)
            self._saved = True
        self._write("".join(self._held) + shown)
        self._held = []

    def _write(self, text: str) -> None:
        if text:
            self._out.write(text)
            self._out.flush()
