"""A disk that fills up mid-ingest: a clear message (what happened, nothing lost, what to do) in the CLI and in
the GUI's index worker, exit code 1, no traceback; after freeing space a re-run completes every file.

Real full filesystem: the data folder is a 2 MB tmpfs mounted in a private mount namespace (`unshare -m`, or
`unshare -rm` as an ordinary user where user namespaces are allowed); skipped where neither works.
Bookkeeping, not semantics: the deterministic hashing embedder keeps it fast.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support import REPO

FILES = 300

GUI_CHILD = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QCoreApplication, QThread, QTimer
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine.engine import Engine
    from desktop_rag.gui.threads.index_worker import IndexRequest, IndexWorker

    app = QCoreApplication([])
    engine = Engine(resolve_paths(sys.argv[1]), Settings(embedding_model="hash:64"))
    thread = QThread()
    worker = IndexWorker(engine)
    worker.moveToThread(thread)
    thread.start()
    result = {}

    def finish(kind, value):
        result[kind] = value
        app.quit()

    worker.run_failed.connect(lambda message: finish("failed", str(message)))  # a Reason, as the window words it
    worker.run_finished.connect(lambda report: finish("finished", report.added))
    worker.submit(IndexRequest("index", (sys.argv[2],)))
    QTimer.singleShot(120000, app.quit)
    app.exec()
    thread.quit()
    thread.wait()
    print("GUI-RESULT", repr(result))
""")

SCRIPT = textwrap.dedent("""
    set -u
    mount -t tmpfs -o size=2m tmpfs "$LIB" || exit 99
    cd "$REPO"
    "$PY" -m desktop_rag --data-dir "$LIB" index "$DOCS" --json > "$OUT/cli.out" 2> "$OUT/cli.err"
    echo $? > "$OUT/cli.rc"
    "$PY" -c "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); print(db.execute('PRAGMA integrity_check').fetchone()[0])" \\
        "$LIB/library.sqlite3" > "$OUT/integrity" 2>&1
    QT_QPA_PLATFORM=offscreen "$PY" "$OUT/gui_child.py" "$LIB" "$MORE" > "$OUT/gui.out" 2> "$OUT/gui.err"
    mount -o remount,size=64m "$LIB"
    "$PY" -m desktop_rag --data-dir "$LIB" index "$DOCS" "$MORE" --json > "$OUT/again.out" 2> "$OUT/again.err"
    echo $? > "$OUT/again.rc"
    "$PY" -m desktop_rag --data-dir "$LIB" status --json > "$OUT/status.out" 2>&1
""")


def _namespace_command() -> list[str] | None:
    unshare = shutil.which("unshare")
    if unshare is None or not sys.platform.startswith("linux"):
        return None
    for flags in (["-m"], ["-rm"]):
        probe = subprocess.run([unshare, *flags, "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt"],
                               capture_output=True)
        if probe.returncode == 0:
            return [unshare, *flags, "sh"]
    return None


def _write_docs(folder: Path, count: int, seed: int) -> None:
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdefghijklmnop") for _ in range(7)) for _ in range(3000)]
    folder.mkdir()
    for i in range(count):
        (folder / f"note{i:04d}.txt").write_text(" ".join(rng.choice(words) for _ in range(400)), encoding="utf-8")


def test_full_disk_mid_ingest_says_what_happened_loses_nothing_and_resumes(tmp_path):
    namespace = _namespace_command()
    if namespace is None:
        pytest.skip("cannot mount a small tmpfs here (needs root or user namespaces)")
    docs, more, lib, out = tmp_path / "docs", tmp_path / "more", tmp_path / "lib", tmp_path / "out"
    _write_docs(docs, FILES, 1)
    _write_docs(more, 40, 2)
    lib.mkdir()
    out.mkdir()
    (out / "gui_child.py").write_text(GUI_CHILD, encoding="utf-8")
    env = {**os.environ, "LIB": str(lib), "DOCS": str(docs), "MORE": str(more), "OUT": str(out), "REPO": str(REPO),
           "PY": sys.executable, "DESKTOP_RAG_EMBEDDING_MODEL": "hash:64", "PYTHONPATH": str(REPO)}
    run = subprocess.run([*namespace, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr

    def read(name: str) -> str:
        return (out / name).read_text(encoding="utf-8")

    cli_err = read("cli.err")
    assert read("cli.rc").strip() == "1", cli_err
    assert "Traceback" not in cli_err and "sqlite3.OperationalError" not in cli_err, cli_err
    for words in ("is full", "Nothing is lost", "Free some disk space", "run the index again"):
        assert words in cli_err, cli_err
    assert read("integrity").strip() == "ok"

    gui = read("gui.out")
    assert "GUI-RESULT" in gui, read("gui.err")
    message = gui.split("GUI-RESULT", 1)[1]
    assert "'failed'" in message and "is full" in message and "Nothing is lost" in message, gui

    assert read("again.rc").strip() == "0", read("again.err")
    status = json.loads(read("status.out"))
    assert status["files"] == {"total": FILES + 40, "indexed": FILES + 40, "failed": 0, "pending": 0, "attachments": 0}
    assert status["chunks_pending_embedding"] == 0
