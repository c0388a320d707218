"""A command run on a real terminal (a pseudo-terminal) and interrupted with Ctrl-C (SIGINT) once it has written a
given text: what it wrote there, escape sequences and all, its exit status and its stderr."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence


def interrupted_on_a_terminal(command: Sequence[str], env: Mapping[str, str], until: bytes,
                              cwd: str | os.PathLike | None = None,
                              stderr: bool = False) -> tuple[bytes, bytes, bytes, int]:
    """Run `command`; SIGINT once its terminal shows `until` (within 120 s); (what it wrote before the signal, all it
    wrote, its stderr) as bytes and its exit status (after 60 s at most). `stderr`: its stderr is the terminal too
    (then what it wrote holds it, and the stderr returned is empty)."""
    main, side = pty.openpty()
    run = subprocess.Popen(list(command), stdout=side, stderr=side if stderr else subprocess.PIPE, env=dict(env),
                           cwd=cwd)
    os.close(side)

    def read(until_time: float) -> bytes:
        ready, _, _ = select.select([main], [], [], max(until_time - time.monotonic(), 0))
        try:
            return os.read(main, 4096) if ready else b""
        except OSError:  # the terminal's other side closed
            return b""

    try:
        streamed = b""
        deadline = time.monotonic() + 120
        while until not in streamed and time.monotonic() < deadline:
            streamed += read(deadline)
        before = streamed
        run.send_signal(signal.SIGINT)
        err = run.communicate(timeout=60)[1]
        while block := read(time.monotonic() + 5):
            streamed += block
    finally:
        run.kill()
        os.close(main)
    return before, streamed, err, run.returncode
