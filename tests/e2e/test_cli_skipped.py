"""The CLI says what a folder scan skipped (issue 37 item 4): `index` prints "N skipped: ..., not supported"
after its summary and `status --json` carries the counts (a real child process; the hashing embedder, since
this is about the report, not about meaning)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, DESKTOP_RAG_EMBEDDING_MODEL="hash:64")
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args],
                          capture_output=True, text=True, timeout=600, env=env)


def test_index_and_status_report_skipped_files(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "t.csv").write_text("city,population\nOslo,709000\n", "utf-8")
    for name in ("deck.key", "old.key", "memo.pages"):
        (docs / name).write_bytes(b"PK\x03\x04")
    out = cli(tmp_path / "home", "index", str(docs))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("1 added, 0 updated, 0 removed, 0 unchanged, 0 failed")
    assert lines[1] == "3 skipped: 2 .key, 1 .pages, not supported"
    status = cli(tmp_path / "home", "status", "--json")
    assert json.loads(status.stdout)["skipped"] == {".key": 2, ".pages": 1}
    human = cli(tmp_path / "home", "status")
    assert "Last scan: 3 skipped: 2 .key, 1 .pages, not supported" in human.stdout
