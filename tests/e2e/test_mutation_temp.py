"""bench.mutation's runs leave no temp folders behind: a test session mutmut kills keeps its pytest folder (a full
run's worth once filled the disk under /tmp/pytest-of-<user>), so each run gets a temp folder of its own, removed
when it ends."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.mutation import private_temp


def test_a_killed_sessions_folder_goes_with_the_run(tmp_path):
    seen = tmp_path / "seen.txt"
    killed = tmp_path / "session" / "test_killed.py"
    killed.parent.mkdir()
    killed.write_text("import os, signal\n\n"
                      "def test_killed_midway(tmp_path):\n"
                      "    (tmp_path / 'left.bin').write_bytes(bytes(1000))\n"
                      f"    open({str(seen)!r}, 'w').write(str(tmp_path))\n"
                      "    os.kill(os.getpid(), signal.SIGKILL)\n", encoding="utf-8")
    with private_temp(dict(os.environ)) as env:
        own = Path(env["TMPDIR"])
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(killed)],
                             cwd=killed.parent, env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode == -9, run.stdout[-1000:]
        left = Path(seen.read_text())
        assert (left / "left.bin").is_file() and left.is_relative_to(own)  # the session's folder, in the run's own
    assert not own.exists() and not left.exists()


def test_the_folder_goes_when_the_run_fails():
    with pytest.raises(KeyboardInterrupt), private_temp({}) as env:
        (Path(env["TMPDIR"]) / "partial").write_text("x")
        raise KeyboardInterrupt
    assert not Path(env["TMPDIR"]).exists()
