"""Standard output that may go away mid-command: closed by its reader (`desktop-rag search x | head -1`) or on a
full disk (`desktop-rag status --json > out.json`). Each print raised BrokenPipeError or OSError with a traceback;
here a failed write raises `OutputLost`, which `main` ends quietly (a closed pipe) or with one line on stderr."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO


class OutputLost(Exception):
    """Writing standard output failed (`__cause__`: the OSError)."""


class GuardedOutput:
    """A text stream whose failed writes and flushes raise `OutputLost`; everything else is the stream's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.mid_line = False  # the last text written did not end its line (an answer being streamed)

    def write(self, text: str) -> int:
        try:
            written = self._stream.write(text)
        except OSError as exc:
            raise OutputLost from exc
        if text:
            self.mid_line = not text.endswith("\n")
        return written

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputLost from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """`sys.stdout` guarded for the block, flushed at its end (so a late failure is caught too), then restored."""
    real = sys.stdout
    sys.stdout = GuardedOutput(real)  # type: ignore[assignment]
    try:
        yield
        sys.stdout.flush()
    finally:
        sys.stdout = real


def end_line() -> None:
    """End the line standard output left open (Ctrl-C while an answer streamed), so that what is said next on the
    terminal starts a line of its own."""
    if getattr(sys.stdout, "mid_line", False):
        sys.stdout.write("\n")
        sys.stdout.flush()


def drop_stdout() -> None:
    """Descriptor 1 onto the null device: the interpreter's last flush of what is still buffered finds somewhere
    to go (else it prints "Exception ignored ... BrokenPipeError" as the process ends)."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)
