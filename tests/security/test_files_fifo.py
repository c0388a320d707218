"""Attack: a FIFO named like a document, given directly (`index /path/fifo.txt`) or put in place of an indexed
file, hung indexing forever while it held the library lock (a FIFO inside a folder was already skipped). Only
regular files are read, and they are opened non-blocking. Each run is a child process: a hang fails the test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")

_RUN = """
import json, sys
from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import Engine, UsageError
engine = Engine(resolve_paths(sys.argv[1]), Settings(embedding_model="hash:64"))
try:
    report = engine.index([sys.argv[2]] if len(sys.argv) > 2 else None)
    print(json.dumps({"files": [f.path for f in engine.files()], "failed": len(report.failed)}))
except UsageError as exc:
    print(json.dumps({"error": str(exc)}))
finally:
    engine.close()
"""


def _index(home: Path, *paths: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    try:
        done = subprocess.run([sys.executable, "-c", _RUN, str(home), *map(str, paths)], capture_output=True,
                              text=True, timeout=30, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail("indexing hung on a FIFO")
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_fifo_given_directly_is_refused_at_once(tmp_path: Path):
    fifo = tmp_path / "fifo.txt"
    os.mkfifo(fifo)
    result = _index(tmp_path / "home", fifo)
    assert "Not a regular file" in result["error"]


def test_a_fifo_swapped_in_for_an_indexed_file_is_not_read(tmp_path: Path):
    document = tmp_path / "notes.txt"
    document.write_text("Notes\n\nSomething worth finding.", encoding="utf-8")
    assert _index(tmp_path / "home", document)["files"] == [str(document)]
    document.unlink()
    os.mkfifo(document)
    result = _index(tmp_path / "home")  # every source reconciled: the FIFO is listed as not a regular file
    assert result["files"] == [] and result["failed"] == 0


def test_hashing_a_fifo_fails_instead_of_waiting_for_a_writer(tmp_path: Path):
    from desktop_rag.engine.ingest.scanning import file_sha256

    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    outcome: list[BaseException | str] = []

    def hash_it() -> None:
        try:
            outcome.append(file_sha256(str(fifo)))
        except OSError as exc:
            outcome.append(exc)
    worker = threading.Thread(target=hash_it, daemon=True)  # a blocked open must not hang the test run
    worker.start()
    worker.join(10)
    assert outcome and isinstance(outcome[0], OSError) and "not a regular file" in str(outcome[0])
