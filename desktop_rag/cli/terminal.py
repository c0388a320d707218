"""Untrusted text made safe for a terminal: escape sequences, control characters and bidi overrides removed."""

from __future__ import annotations

import re

# Sequences a terminal acts on: CSI (colours, cursor, clear screen), the string commands OSC/DCS/
# SOS/PM/APC (window title, clipboard, hyperlinks) up to their terminator, other ESC sequences;
# in their 7-bit (ESC x) and 8-bit (C1) forms.
_CSI = r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
_STRING = r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # unterminated: all of it
_ESC = r"\x1b[ -/]*[0-~]"
_SEQUENCE = re.compile(f"{_CSI}|{_STRING}|{_ESC}")
# A tail that may still become a sequence when the next piece of a stream arrives.
_PARTIAL_TAIL = re.compile(
    r"(?:(?:\x1b\[|\x9b)[0-?]*[ -/]*|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*\x1b?|\x1b[ -/]*)\Z"
)
# C0 controls except tab and newline, DEL, C1 controls, bidi embeddings/overrides/isolates.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_MAX_HELD = 4096  # a "sequence" longer than this is dropped rather than held back forever


def clean(text: str, mark: str = "") -> str:
    """`text` with each terminal escape sequence or control character (but tab and newline) replaced by `mark`."""
    text = _SEQUENCE.sub(mark, str(text))
    return _CONTROLS.sub(mark, text)


def clean_line(text: str) -> str:
    """`clean`, and on one line: for names and headings shown inline. What was taken out is marked (U+FFFD, as
    the window does): "evil\\x1b[2Jname.txt" must not read as another file's name, "evilname.txt"."""
    return " ".join(clean(text, "\ufffd").split("\n")).replace("\t", " ")


class StreamCleaner:
    """`clean` for text that arrives in pieces: a sequence split across pieces is still removed.

    `feed()` returns what can be printed now; `finish()` what is left at the end.
    """

    def __init__(self) -> None:
        self._held = ""

    def feed(self, piece: str) -> str:
        text = self._held + piece
        tail = _PARTIAL_TAIL.search(text)
        cut = tail.start() if tail else len(text)
        self._held = text[cut:]
        if len(self._held) > _MAX_HELD:
            self._held = ""
        return clean(text[:cut])

    def finish(self) -> str:
        held, self._held = self._held, ""
        return clean(held)
