"""A reasoning model's thinking kept out of its answer: the `<think>…</think>` block DeepSeek-R1, Qwen3 or GLM-Z1
write before the answer when served by Ollama, LM Studio or vLLM (a separate `reasoning_content` is never read)."""

from __future__ import annotations

_OPEN = "<think>"
_CLOSE = "</think>"
_MAX_LEAD = 64  # leading whitespace held back while waiting to see whether a think block starts


class ThinkFilter:
    """Drops a think block at the start of text that arrives in pieces (and the whitespace after it).

    `feed` returns what can be shown now; `finish` what is left at the end ('' when the thinking never ended).
    Only a block that opens the reply is thinking: a `<think>` quoted later in an answer stays.
    """

    def __init__(self) -> None:
        self._state = "start"  # start -> thinking -> after -> answer, or start -> answer
        self._held = ""

    def feed(self, piece: str) -> str:
        if self._state == "answer":
            return piece
        text, self._held = self._held + piece, ""
        if self._state == "start":
            lead = text.lstrip()
            if lead.startswith(_OPEN):
                self._state, text = "thinking", lead[len(_OPEN):]
            elif _OPEN.startswith(lead) and len(text) <= _MAX_LEAD:  # may still become the tag
                self._held = text
                return ""
            else:
                self._state = "answer"
                return text
        if self._state == "thinking":
            end = text.find(_CLOSE)
            if end < 0:
                self._held = _partial_close(text)
                return ""
            self._state, text = "after", text[end + len(_CLOSE):]
        text = text.lstrip()  # "after": the blank lines between the thinking and the answer
        if text:
            self._state = "answer"
        return text

    def finish(self) -> str:
        """What is still held: a reply that was only a few characters, never an unfinished think block."""
        held, self._held = self._held, ""
        return held if self._state == "start" else ""


def _partial_close(text: str) -> str:
    """The end of `text` that may be the start of the closing tag (kept for the next piece)."""
    for size in range(min(len(_CLOSE) - 1, len(text)), 0, -1):
        if _CLOSE.startswith(text[-size:]):
            return text[-size:]
    return ""


def without_thinking(text: str) -> str:
    """A whole reply without its think block: a leading `<think>…</think>`, or everything up to a `</think>` with
    no opening tag (a chat template that opened the block in the prompt). An unfinished block leaves ''."""
    lead = text.lstrip()
    if lead.startswith(_OPEN):
        end = lead.find(_CLOSE)
        return "" if end < 0 else lead[end + len(_CLOSE):].lstrip()
    end = text.find(_CLOSE)
    if end >= 0 and _OPEN not in text[:end]:
        return text[end + len(_CLOSE):].lstrip()
    return text
