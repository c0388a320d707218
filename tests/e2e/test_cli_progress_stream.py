"""The CLI's progress lines go to stderr as it is when a command runs, not as it was when the module was imported
(a redirected or replaced stderr: a test's capture, a host that swaps streams). The bound default once kept a
stream that was closed by then, and `desktop-rag index` failed with "I/O operation on closed file"."""

from __future__ import annotations

import contextlib
import io

from desktop_rag.cli import model_commands, output


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_writes_to_stderr_as_it_is_now():
    for make in (output.TerminalProgress, model_commands._TerminalDownloadProgress):
        now = _Terminal()
        with contextlib.redirect_stderr(now):
            progress = make()
        assert progress.stream is now and progress.enabled
        given = io.StringIO()
        assert make(given).stream is given and not make(given).enabled  # a stream given is kept
