"""Kill an ingest with SIGKILL at random points; the library must always reopen whole and finish on re-run."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import numpy as np

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest.chunking import chunk_document
from desktop_rag.engine.ingest.loaders import load
from desktop_rag.engine.ingest.scanning import file_sha256

# The crash windows are about storage, not semantics: the hashing embedder keeps each run short,
# so the random kills land in the scan, text and vector phases alike.
SETTINGS = Settings(embedding_model="hash:64")
FILES = 400
# version -> sentences. Rounds cycle through the three, so every file differs from both versions a
# killed run can leave in the store, and every run has the same amount of work to be killed in.
VERSIONS = {"a": 60, "b": 75, "c": 90}


def version_text(i: int, version: str) -> str:
    sentence = f"Version {version} of file {i} talks about subject{i}{version}. "
    return sentence * VERSIONS[version]


def expected_chunks(path, text: str) -> list[str]:
    path.write_text(text, encoding="utf-8")
    return [c.text for c in chunk_document(load(path, max_bytes=10**7), 500, 50)]


def check_invariants(home, folder, versions: dict[int, dict[str, list[str]]]) -> None:
    engine = Engine(resolve_paths(home), SETTINGS)
    store = engine.store
    for record in store.files():
        i = int(record.path.rsplit("file", 1)[1].split(".")[0])
        texts = [r[0] for r in store.db.execute("SELECT text FROM chunks WHERE file_id = ? ORDER BY ordinal",
                                                (record.id,))]
        assert record.status == "indexed", record
        assert texts in versions[i].values(), f"file {i} is half old, half new"
        assert record.chunk_count == len(texts)
    stored = np.array(sorted(r[0] for r in store.db.execute("SELECT chunk_id FROM vectors")), dtype=np.int64)
    assert np.array_equal(engine.runtime.vectors().ids(), stored), "FAISS ids differ from the store's"
    assert store.db.execute("SELECT count(*) FROM chunks_fts").fetchone()[0] == store.count_chunks()
    assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    engine.close()


def run_index(home, folder) -> subprocess.Popen:
    env = dict(os.environ, DESKTOP_RAG_EMBEDDING_MODEL=SETTINGS.embedding_model)
    return subprocess.Popen(
        [sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "index", str(folder), "--json"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


def test_sigkill_at_random_points_leaves_each_file_old_or_new(tmp_path):
    rng = random.Random(1234)
    folder, home, scratch = tmp_path / "docs", tmp_path / "home", tmp_path / "scratch.txt"
    folder.mkdir()
    versions = {i: {v: expected_chunks(scratch, version_text(i, v)) for v in VERSIONS} for i in range(FILES)}

    def rewrite_all(version: str) -> None:
        for i in range(FILES):
            (folder / f"file{i}.txt").write_text(version_text(i, version), encoding="utf-8")

    rewrite_all("a")
    assert run_index(home, folder).wait(timeout=300) == 0
    rewrite_all("b")
    started = time.monotonic()
    assert run_index(home, folder).wait(timeout=300) == 0
    full_run = time.monotonic() - started  # how long a run with this much work takes here

    kills, estimate = 0, full_run
    for round_ in range(12):  # until 6 kills land: a run this machine's load sped up ends before its kill
        rewrite_all("cab"[round_ % 3])
        proc = run_index(home, folder)
        try:  # killed after start-up, somewhere in the scan/text/vector phases
            proc.wait(timeout=rng.uniform(0.3, 0.9) * estimate)
            estimate *= 0.6  # it ended first: runs are faster now than the one measured
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait(timeout=60)
        check_invariants(home, folder, versions)
        if kills == 6:
            break
    assert kills >= 4, f"only {kills} of {round_ + 1} kills landed while the index ran (a full run: {full_run:.2f} s)"

    assert run_index(home, folder).wait(timeout=300) == 0
    check_invariants(home, folder, versions)
    engine = Engine(resolve_paths(home), SETTINGS)
    for record in engine.store.files():
        assert record.sha256 == file_sha256(record.path), "a re-run must finish the job"
    assert engine.status().chunks_pending_embedding == 0
    engine.close()
