"""Two windows or processes on one library: the vector cache is checked by its ids, and one process writes at a time.

Bookkeeping, not semantics: the deterministic hashing embedder keeps it fast.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np

from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.sqlite.vector_index import VectorIndex, open_vector_index
from tests.support.index_runs import make_engine


def write(folder, name: str, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def stored_ids(engine: Engine) -> np.ndarray:
    rows = engine.store.db.execute("SELECT chunk_id FROM vectors ORDER BY chunk_id").fetchall()
    return np.array([r[0] for r in rows], dtype=np.int64)


def assert_cache_matches_store(engine: Engine) -> None:
    assert np.array_equal(engine.runtime.vectors().ids(), stored_ids(engine))


def two_windows(tmp_path):
    """Window A indexes f1..f3 ([1,2,3]) and stays open; window B then rewrites f1's chunk and closes."""
    docs, home = tmp_path / "docs", tmp_path / "home"
    for i in (1, 2, 3):
        write(docs, f"f{i}.txt", f"File {i} talks about subject{i}.")
    a = make_engine(home)
    a.index([docs])
    assert_cache_matches_store(a)
    write(docs, "f1.txt", "File 1 was rewritten: now it is about the zeppelin hangar.")
    os.utime(docs / "f1.txt", ns=(1, 1))
    b = make_engine(home)
    b.index()
    b.close()
    return docs, home, a


def test_an_open_window_sees_what_another_process_indexed(tmp_path):
    _, _, a = two_windows(tmp_path)
    try:
        assert_cache_matches_store(a)
    finally:
        a.close()


def test_a_stale_window_never_saves_a_cache_with_wrong_ids(tmp_path):
    """The issue's scenario: A, still holding [1,2,3], adds a file and saves [1,2,3,5] over a database that
    holds [2,3,4,5] (same generation, same count); the next window must not accept it."""
    docs, home, a = two_windows(tmp_path)
    write(docs, "f5.txt", "File 5 is new.")
    a.index()
    a.close()
    c = make_engine(home)
    try:
        assert len(stored_ids(c)) == 4
        assert_cache_matches_store(c)
    finally:
        c.close()


def test_a_cache_with_the_right_generation_and_count_but_other_ids_is_rebuilt(tmp_path):
    docs, home = tmp_path / "docs", tmp_path / "home"
    for i in range(4):
        write(docs, f"f{i}.txt", f"File {i} talks about subject{i}.")
    engine = make_engine(home)
    engine.index([docs])
    ids = stored_ids(engine)
    generation = engine.store.vectors_generation()
    engine.close()

    engine = make_engine(home)
    try:
        forged = VectorIndex(64)
        wrong = ids.copy()
        wrong[0] = ids.max() + 100  # same count, one id that the database does not have
        forged.add(wrong, np.eye(len(wrong), 64, dtype=np.float32))
        forged.save(engine.paths.vector_index, generation)
        index = open_vector_index(engine.paths.vector_index, engine.store, 64)
        assert np.array_equal(index.ids(), ids)
    finally:
        engine.close()


def test_chunk_ids_are_never_reused(tmp_path):
    """An id names one text for good, so equal id sets mean equal content (the last chunk deleted and re-added
    would otherwise come back under the same id with other text)."""
    docs, home = tmp_path / "docs", tmp_path / "home"
    write(docs, "a.txt", "First version.")
    engine = make_engine(home)
    try:
        engine.index([docs])
        first = set(stored_ids(engine).tolist())
        write(docs, "a.txt", "Second version, longer.")
        engine.index()
        second = set(stored_ids(engine).tolist())
        assert first and second and not first & second
    finally:
        engine.close()


CHILD = textwrap.dedent("""
    import sys, threading
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine.engine import Engine

    engine = Engine(resolve_paths(sys.argv[1]), Settings(embedding_model="hash:64"))
    held = threading.Event()

    def progress(p):
        if p.phase == "text" and not held.is_set():  # mid-run: say so, then wait for the parent's word
            held.set()
            print("writing", flush=True)
            sys.stdin.readline()

    report = engine.index([sys.argv[2]], on_progress=progress)
    engine.close()
    print("done", report.added, flush=True)
""")


def cli(home, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DESKTOP_RAG_EMBEDDING_MODEL": "hash:64"}
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args],
                          capture_output=True, text=True, timeout=300, env=env)


def test_a_second_writer_gets_a_clear_message_while_another_process_indexes(tmp_path):
    docs, more, home = tmp_path / "docs", tmp_path / "more", tmp_path / "home"
    for i in range(3):
        write(docs, f"f{i}.txt", f"File {i} talks about subject{i}.")
    write(more, "m.txt", "Another folder.")
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(home), str(docs)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "writing"
        out = cli(home, "index", str(more))
        assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
        assert "being updated by another Desktop RAG window or process" in out.stderr
        assert cli(home, "status", "--json").returncode == 0, "reading is never blocked"
        child.stdin.write("go\n")
        child.stdin.flush()
        assert child.stdout.readline().split() == ["done", "3"]
        assert child.wait(timeout=60) == 0, child.stderr.read()
    finally:
        child.kill()
        child.wait()
    out = cli(home, "index", str(more))
    assert out.returncode == 0, out.stderr
