"""`desktop-rag index`, `collections`, `export` and `import` say "1 source, 1 file, 1 chunk, 1 vector", not "1 sources,
1 files, 1 chunks, 1 vectors"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import Engine
from tests.conftest import REPO


def _cli(home: Path, *args: str) -> str:
    run = subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args], cwd=REPO,
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "DESKTOP_RAG_EMBEDDING_MODEL": "hash:64"})
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def test_one_of_each_is_singular_and_more_is_plural(tmp_path: Path):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    (one / "note.txt").write_text("A single short note about the harbour ferry.\n", encoding="utf-8")
    for name in ("a.txt", "b.txt"):
        (two / name).write_text(f"Note {name}: the mountain railway timetable.\n", encoding="utf-8")
    home = tmp_path / "home"
    indexed = _cli(home, "index", str(one))
    assert "0 failed; 1 new chunk, 1 embedded in " in indexed
    engine = Engine(resolve_paths(home), Settings(embedding_model="hash:64"))
    try:
        engine.index([two], collection=engine.create_collection("Two"))
    finally:
        engine.close()

    listing = _cli(home, "collections").splitlines()
    assert listing == ["Default: 1 source, 1 file, 1 chunk", "Two: 1 source, 2 files, 2 chunks"]
    exported = _cli(home, "export", str(tmp_path / "default.zip"), "--collection", "Default")
    assert exported.startswith("Exported “Default”: 1 file, 1 chunk, 1 vector, 0 documents -> ")
    imported = _cli(tmp_path / "other", "import", str(tmp_path / "default.zip"), "--name", "Again")
    assert imported.startswith("Imported “Again”: 1 file, 1 chunk, 1 vector used as stored.")
