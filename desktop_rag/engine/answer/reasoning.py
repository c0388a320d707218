"""A reasoning model's thinking kept out of its answer: the `<think>…</think>` block DeepSeek-R1, Qwen3 or GLM-Z1
write before the answer when served by Ollama, LM Studio or vLLM (a separate `reasoning_content` is never read).

Two forms are thinking. A `<think>` block opening the reply (`ThinkFilter`, as it streams): the tag first, after
nothing but whitespace (at most 64 characters), makes the reply thinking until its `</think>`, whether or not its
model is known to think (answer/thinking_models.py), so a reply stopped, cut or failed before that close holds no
answer; a `<think>` anywhere later (an answer mentioning the tag mid-sentence) is the answer's text. And thinking the
chat template opened in the prompt, so that the reply holds only the closing tag (`answer_start`): the reply's first
`</think>` ends such thinking only when it is lone: no `<think>` before it, outside code (a fence, "`</think>`")
and ending its line (as these models write it: "…reasoning\n</think>\n\nThe answer"), and within the reply's first
`bound` characters (`LLMConfig.thinking_chars`: about what the reply limit holds; MAX_THINKING_CHARS for a
reply read without its client, a stored one). An answer that merely mentions the tag (quoted as code, or in a
sentence that goes on, as one citing its sources, or on a line of its own past that bound) keeps every word.
"""

from __future__ import annotations

_OPEN = "<think>"
_CLOSE = "</think>"
_MAX_LEAD = 64  # leading whitespace held back while waiting to see whether a think block starts
# A lone `</think>` past the bound is an answer's text, not the end of thinking the template opened; the bound also
# limits how long a streaming reply stays undecided (held). It is `LLMConfig.thinking_chars`: CHARS_PER_TOKEN
# characters a token of the reply limit (English runs about 4, Chinese about 1.5, so thinking within the limit ends
# before it), at least MAX_THINKING_CHARS (twice what the default limit of 2,048 tokens holds of English) and at most
# what the client takes of a reply (`LLMConfig.max_answer_chars`).
MAX_THINKING_CHARS = 16_000
CHARS_PER_TOKEN = 4


class ThinkFilter:
    """Drops a think block at the start of text that arrives in pieces (and the whitespace after it).

    `feed` returns what can be shown now; `finish` what is left at the end ('' when the thinking never ended);
    `thinking` whether what was fed is inside the block (it opened and has not closed), `thought_chars` how many
    characters of it were fed. Only a block that opens the reply is thinking: a `<think>` quoted later in an answer
    stays.
    """

    def __init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        """Read a new reply (a retry's) from its start."""
        self._state, self._held = "start", ""  # start -> thinking -> after -> answer, or start -> answer
        self._opened = False
        self._thought = 0

    @property
    def thought_chars(self) -> int:
        """Characters of the think block fed so far (its tags left out)."""
        return self._thought

    @property
    def thinking(self) -> bool:
        return self._state == "thinking"

    @property
    def opened(self) -> bool:
        """Whether a think block opened the reply (closed since or not)."""
        return self._opened

    def feed(self, piece: str) -> str:
        if self._state == "answer":
            return piece
        text, self._held = self._held + piece, ""
        if self._state == "start":
            lead = text.lstrip()
            if lead.startswith(_OPEN):
                self._state, self._opened, text = "thinking", True, lead[len(_OPEN):]
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
                self._thought += len(text) - len(self._held)
                return ""
            self._thought += end
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


def without_thinking(text: str, bound: int = MAX_THINKING_CHARS) -> str:
    """A whole reply without its think block: a leading `<think>…</think>`, or everything up to a lone `</think>`
    (thinking a chat template opened, see `answer_start`). An unfinished block leaves ''."""
    lead = text.lstrip()
    if lead.startswith(_OPEN):
        end = lead.find(_CLOSE)
        return "" if end < 0 else lead[end + len(_CLOSE):].lstrip()
    start = answer_start(text, bound=bound)
    return text[start:].lstrip() if start else text


def answer_start(text: str, ended: bool = True, bound: int = MAX_THINKING_CHARS) -> int | None:
    """Where the answer begins in a reply whose chat template may have opened its thinking: just past the reply's
    first `</think>` when it is lone (no `<think>` before it, outside code, ending its line, starting within the
    first `bound` characters), else 0.
    For the beginning of a reply still streaming (not `ended`), None while what follows may still decide."""
    close = text.find(_CLOSE, 0, bound + len(_CLOSE) - 1)
    opened = text.find(_OPEN, 0, len(text) if close < 0 else close)
    if opened >= 0:
        return 0
    if close < 0:
        return 0 if ended or len(text) >= bound + len(_CLOSE) - 1 else None
    after = close + len(_CLOSE)
    line_end = text.find("\n", after)
    if text[after:None if line_end < 0 else line_end].strip() or text[:close].endswith("`") \
            or text.count("```", 0, close) % 2:
        return 0
    return None if line_end < 0 and not ended else after  # (the tag's line may still go on)


def thought(reply: str, reading: ThinkFilter, bound: int = MAX_THINKING_CHARS) -> bool:
    """Whether a model's `reply` (as `reading` let it through) held thinking: a `<think>` block that opened it, or
    thinking its chat template opened, up to a lone `</think>`."""
    return reading.opened or bool(answer_start(reply, bound=bound))


def unfinished_thinking(reply: str, thinks: bool | None, bound: int = MAX_THINKING_CHARS) -> bool:
    """Whether `reply`, one that ended early (stopped, cut, failed), is all thinking: from a model known to open
    its replies with thinking (`thinks`, answer/thinking_models.py), a reply its lone `</think>` never reached."""
    return bool(thinks) and not answer_start(reply, bound=bound)
