"""A LibreOffice conversion never outlives the reader (issue 37): when the parser child is killed (its time budget
is shorter than the converter's, or indexing is cancelled), the converter and its children go with it instead of
running on, hung, in the background, and its temporary folder is removed. A stand-in `soffice` that hangs with a
child of its own, as soffice.bin is oosplash's child."""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.parsing import SafeParser

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the stand-in converter is a POSIX shell script")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())  # a zombie has finished


def test_a_converter_still_running_when_the_reader_is_killed_is_killed_too(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch):
    bin_dir, pids, args = tmp_path / "bin", tmp_path / "pids", tmp_path / "args"
    bin_dir.mkdir()
    script = bin_dir / "soffice"
    script.write_text(f'#!/bin/sh\necho "$@" > "{args}"\necho $$ > "{pids}"\nsleep 300 &\necho $! >> "{pids}"\nwait\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    path = tmp_path / "old.doc"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504)
    with SafeParser(timeout_s=3) as parser:  # shorter than the converter's own limit (CONVERT_SECONDS)
        with pytest.raises(LoadError):
            parser.parse(path)
        started = [int(n) for n in pids.read_text().split()]
        assert len(started) == 2
        deadline = time.monotonic() + 10
        while any(_alive(p) for p in started) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(p) for p in started), "the converter outlived the reader"
        words = args.read_text().split()
        folder = Path(words[words.index("--outdir") + 1]).parent  # the conversion's private temporary folder
        while folder.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert folder.name.startswith("desktop-rag-convert-") and not folder.exists()
