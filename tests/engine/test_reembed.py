"""A model switch re-embeds in the background: search answers throughout, a kill resumes, nothing mixes.

The models here are the hashing embedders of two dimensions: the tests are about the switch
(staging, the atomic swap, resuming, the FAISS cache), not about semantics, and a 2,000-file
library must switch in seconds.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import numpy as np

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest.reports import Progress
from tests.support import REPO

OLD, NEW = Settings(embedding_model="hash:64"), Settings(embedding_model="hash:48")


def words(i: int) -> str:
    """Words that only document `i` has, so both the keyword and the hashing vectors single it out."""
    return " ".join(f"w{(i * 7 + k) % 100003:05d}x{k}" for k in range(12))


def write_library(folder, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (folder / f"doc{i:05d}.txt").write_text(f"Report {i}: {words(i)}. " * 3, encoding="utf-8")


def build(tmp_path, count: int) -> Engine:
    write_library(tmp_path / "docs", count)
    engine = Engine(resolve_paths(tmp_path / "home"), OLD)
    engine.index([tmp_path / "docs"])
    return engine


def test_search_answers_at_every_moment_of_a_switch_on_2000_files(tmp_path):
    engine = build(tmp_path, 2000)
    chunks = engine.store.count_chunks()
    engine.close()
    switching = Engine(resolve_paths(tmp_path / "home"), NEW)
    plan = switching.reembed_plan()
    assert plan is not None and plan[0] == "hash:48" and plan[1] == chunks and plan[2] > 0

    reader = Engine(resolve_paths(tmp_path / "home"), NEW)  # another thread, as the GUI's search is
    stop, answers, failures, models = threading.Event(), [], [], set()

    def search_forever() -> None:
        while not stop.is_set():
            try:
                hits = reader.search(words(1234), 3)
                answers.append(bool(hits) and "doc01234" in hits[0].path)
                models.add(reader.runtime.dense_pair()[1].dimension)
            except Exception as exc:  # noqa: BLE001 - recorded, asserted below
                failures.append(repr(exc))

    progress: list[Progress] = []
    thread = threading.Thread(target=search_forever)
    thread.start()
    try:
        report = switching.index(on_progress=progress.append)
    finally:
        stop.set()
        thread.join()
    assert not failures, failures[:3]
    assert len(answers) >= 5 and all(answers), f"{answers.count(False)} of {len(answers)} searches missed"
    assert 64 in models, "searches during the switch are answered by the old vectors"
    staged = [p for p in progress if p.phase == "reembed"]
    assert staged and staged[-1].chunks_embedded == chunks == staged[-1].chunks_total
    assert report.reembed_remaining == 0
    status = switching.status()
    assert status.embedding_model == "hash:48" and status.dimension == 48 and status.reembed_model == ""
    stored = np.array(sorted(r[0] for r in switching.store.db.execute("SELECT chunk_id FROM vectors")))
    assert np.array_equal(np.sort(switching.runtime.vectors().ids()), stored) and switching.runtime.vectors().dimension == 48
    assert {len(r[0]) for r in switching.store.db.execute("SELECT vector FROM vectors")} == {48 * 4}
    assert "doc01234" in reader.search(words(1234), 1)[0].path
    reader.close()
    switching.close()


def test_a_budgeted_run_keeps_the_old_model_until_the_switch_completes(tmp_path):
    engine = build(tmp_path, 300)
    engine.close()
    switching = Engine(resolve_paths(tmp_path / "home"), NEW)
    report = switching.index(reembed_budget_s=0.0)
    assert report.reembed_remaining > 0
    status = switching.status()
    assert status.embedding_model == "hash:64" and status.reembed_model == "hash:48"
    assert 0 <= status.reembed_done < status.reembed_total == switching.store.count_chunks()
    assert status.to_json()["reembedding"] == {"model": "hash:48", "done": status.reembed_done,
                                               "total": status.reembed_total}
    assert switching.search(words(17), 1)  # still answers with the old vectors
    while report.reembed_remaining:
        report = switching.index(reembed_budget_s=0.5)
    assert switching.status().embedding_model == "hash:48"
    switching.close()


def test_going_back_to_the_old_model_abandons_the_staged_vectors(tmp_path):
    engine = build(tmp_path, 100)
    engine.close()
    switching = Engine(resolve_paths(tmp_path / "home"), NEW)
    switching.index(reembed_budget_s=0.0)
    assert switching.status().reembed_model == "hash:48"
    switching.apply_settings(OLD, save=False)
    assert switching.reembed_plan() is None
    switching.index()
    status = switching.status()
    assert status.embedding_model == "hash:64" and status.reembed_model == ""
    assert switching.store.db.execute("SELECT count(*) FROM staged_vectors").fetchone()[0] == 0
    switching.close()


def test_sigkill_mid_switch_resumes_without_re_embedding_finished_chunks(tmp_path):
    engine = build(tmp_path, 2000)
    total = engine.store.count_chunks()
    engine.close()
    home = tmp_path / "home"
    env = dict(os.environ, DESKTOP_RAG_EMBEDDING_MODEL="hash:48", PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "index", "--json"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO)
    db = sqlite3.connect(str(home / "library.sqlite3"), timeout=30)
    staged = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            staged = db.execute("SELECT count(*) FROM staged_vectors").fetchone()[0]
        except sqlite3.OperationalError:  # the table does not exist yet
            staged = 0
        if 0 < staged < total // 2:
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.002)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the kill must land mid-switch"
    kept = db.execute("SELECT count(*) FROM staged_vectors").fetchone()[0]
    db.close()
    assert kept >= staged > 0

    resumed = Engine(resolve_paths(home), NEW)
    assert resumed.status().embedding_model == "hash:64"  # the old vectors still serve
    assert resumed.search(words(42), 1)
    progress: list[Progress] = []
    resumed.index(on_progress=progress.append)
    steps = [p for p in progress if p.phase == "reembed"]
    assert steps[0].chunks_embedded == kept, "the resumed run starts from what was committed"
    assert steps[-1].chunks_embedded == total
    assert resumed.status().embedding_model == "hash:48"
    assert resumed.store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    resumed.close()


def test_a_switch_to_another_model_begun_mid_batch_keeps_none_of_the_batch(tmp_path):
    """While a run embeds a batch for hash:48, another process starts a switch to hash:32: the batch finds the
    switch's mark changed and stages nothing (it was staged under hash:32's mark before), and the run stops."""
    from desktop_rag.engine.ingest import reembed
    from desktop_rag.engine.models.embedding import HashEmbedder
    from desktop_rag.engine.store import staged_vectors
    from tests.support.watched_embedder import Watched

    build(tmp_path, 3).close()
    running, other = (Engine(resolve_paths(tmp_path / "home"), NEW) for _ in range(2))
    try:
        switched = Watched(HashEmbedder(48), lambda _texts: staged_vectors.begin(other.store, "hash:32"))
        assert reembed.run(running.store, switched, threading.Event(), lambda _p: None) is None
        assert staged_vectors.model(running.store) == "hash:32" and staged_vectors.count(running.store) == 0
    finally:
        running.close(), other.close()


def test_a_switchs_batches_and_its_swap_move_the_marks_another_window_reads(tmp_path):
    """Another process re-embedding the library: each batch it stages moves the switch's mark (`switch_mark`), the
    swap the documents' mark too (`files_mark`), which a window reads after the library's files change: its status
    line shows the switch's progress and end without waiting for a document to change."""
    from desktop_rag.engine.models.embedding import HashEmbedder
    from desktop_rag.engine.store import staged_vectors

    other = build(tmp_path, 3)
    window = Engine(resolve_paths(tmp_path / "home"), OLD)
    try:
        ids = [int(i) for i in other.store.vector_ids()]
        staged_vectors.begin(other.store, "hash:48")
        for batch in (ids[:1], ids[1:]):
            mark = window.switch_mark()
            assert staged_vectors.stage(other.store, "hash:48", batch, HashEmbedder(48).embed(["x"] * len(batch)))
            assert window.switch_mark() != mark
        mark = window.files_mark()
        assert staged_vectors.swap(other.store, "hash:48", 48)
        assert window.files_mark() != mark and window.switch_mark() == (None, 0)
    finally:
        window.close()
        other.close()
