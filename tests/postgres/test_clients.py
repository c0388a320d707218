"""Several clients of one library on a server at once: two command-line clients (two computers: data folders of
their own) index different folders at the same time, a long-lived one sees what the others added without
restarting, each reconciles only its own sources, a rename is no re-embedding, and a client killed mid-index
leaves only whole files behind. A real PostgreSQL server and real `desktop-rag` processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.postgres import pgvector
from tests.support import REPO

FAST = Settings(embedding_model="hash:64")


def _folder(path: Path, prefix: str, count: int, words: int = 60) -> Path:
    path.mkdir(parents=True)
    for i in range(count):
        (path / f"{prefix}{i:03}.txt").write_text(
            f"{prefix} note {i}\n\n" + " ".join(f"{prefix}{i}w{j}" for j in range(words)), "utf-8")
    return path


def _cli(home: Path, url: str, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO), "DESKTOP_RAG_EMBEDDING_MODEL": "hash:64"}
    return subprocess.Popen([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "--library", url, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, env=env)


def _rows(pg_server, database: str, sql: str):
    raw = pg_server.admin(database)
    try:
        return raw.run(sql)
    finally:
        raw.close()


def test_two_clients_index_at_once_and_see_each_other(pg_server, tmp_path):
    database = pg_server.new_database("clients")
    url = pg_server.url(database)
    a_docs, b_docs = _folder(tmp_path / "a", "alpha", 60), _folder(tmp_path / "b", "beta", 60)
    watcher = Engine(resolve_paths(tmp_path / "c"), FAST, library=url)  # a third client, left running
    try:
        watcher.create_collection("Unused")  # the library exists before the two start
        assert watcher.search("alpha7w3 beta9w5", 10) == []
        runs = [_cli(tmp_path / "home-a", url, "index", str(a_docs), "--json"),
                _cli(tmp_path / "home-b", url, "index", str(b_docs), "--json")]
        outputs = [run.communicate(timeout=600) for run in runs]
        for run, (out, err) in zip(runs, outputs):
            assert run.returncode == 0, err
            assert json.loads(out.strip().splitlines()[-1])["added"] == 60
        # no file or chunk lost or twice; every chunk has its vector
        assert _rows(pg_server, database, "SELECT count(*), count(DISTINCT path) FROM desktop_rag.files") == [[120, 120]]
        chunks = _rows(pg_server, database, "SELECT count(*), count(DISTINCT id), count(DISTINCT (file_id, ordinal)) "
                                            "FROM desktop_rag.chunks")[0]
        assert chunks[0] == chunks[1] == chunks[2] == sum(f.chunk_count for f in watcher.files())
        assert _rows(pg_server, database, "SELECT count(*) FROM desktop_rag.vectors")[0][0] == chunks[0]
        # the long-lived client sees both without restarting (its caches follow the library's version)
        found = {Path(h.path).parent.name for h in watcher.search("alpha7w3 beta9w5", 10)}
        assert found == {"a", "b"}
        # each reconciles only its own sources: b's folder changing is b's to see
        (b_docs / "beta000.txt").unlink()
        (b_docs / "beta001.txt").rename(b_docs / "beta001-renamed.txt")
        out, err = _cli(tmp_path / "home-a", url, "index", "--json").communicate(timeout=300)
        report = json.loads(out.strip().splitlines()[-1])
        assert report["unchanged"] == 60 and report["removed"] == 0 and report["added"] == 0
        assert watcher.store.file_by_path(str(b_docs / "beta000.txt")) is not None
        before = _rows(pg_server, database, "SELECT c.id FROM desktop_rag.chunks c JOIN desktop_rag.files f ON "
                                            f"f.id = c.file_id WHERE f.path = '{b_docs / 'beta001.txt'}' ORDER BY c.id")
        out, err = _cli(tmp_path / "home-b", url, "index", "--json").communicate(timeout=300)
        report = json.loads(out.strip().splitlines()[-1])
        assert report["removed"] == 1 and report["embedded"] == 0  # the rename moved its passages, none embedded
        after = _rows(pg_server, database, "SELECT c.id FROM desktop_rag.chunks c JOIN desktop_rag.files f ON "
                                           f"f.id = c.file_id WHERE f.path = '{b_docs / 'beta001-renamed.txt'}' "
                                           "ORDER BY c.id")
        assert before and after == before
        assert [s.path for s in watcher.sources() if not s.detached] == []  # neither folder is the watcher's
        assert {s.path for s in Engine(resolve_paths(tmp_path / "home-a"), FAST, library=url).sources()
                if not s.detached} == {str(a_docs)}
    finally:
        watcher.close()


def test_the_first_vectors_of_two_clients_at_once_set_the_dimension_once(pg_server, tmp_path):
    """A new library's vectors get their dimension from the first ones stored. Two clients bringing them at once,
    while a third holds the table (as setting the dimension does), queue for it: one sets it, the other finds it
    set. (Both looking at the table before altering it, each held what the other waited for: one was stopped as a
    deadlock, "another client is changing the same part of the library", and its whole index run with it.)"""
    database = pg_server.new_database("dimension")
    url = pg_server.url(database)
    clients = [Engine(resolve_paths(tmp_path / name), FAST, library=url) for name in ("a", "b")]
    assert [engine.files() for engine in clients] == [[], []]  # both have opened the library
    holder, watcher = pg_server.admin(database), pg_server.admin(database)
    failures: list[BaseException] = []

    def first_vectors(engine: Engine) -> None:
        try:
            with engine.store.transaction():
                pgvector.ensure_dimension(engine.store.db, 64)
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    try:
        holder.run("BEGIN")
        holder.run("LOCK TABLE desktop_rag.vectors IN ACCESS EXCLUSIVE MODE")
        threads = [threading.Thread(target=first_vectors, args=(engine,)) for engine in clients]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 60
        while watcher.run("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                          "AND wait_event_type = 'Lock'")[0][0] < 2:
            assert time.monotonic() < deadline, "the two clients never came to wait for the table"
            time.sleep(0.05)
        holder.run("COMMIT")
        for thread in threads:
            thread.join(120)
        assert failures == []
        assert watcher.run("SELECT atttypmod FROM pg_attribute WHERE attrelid = 'desktop_rag.vectors'::regclass "
                           "AND attname = 'embedding'") == [[64]]
        assert watcher.run("SELECT count(*) FROM pg_indexes WHERE indexname = 'vectors_hnsw'") == [[1]]
    finally:
        holder.close()
        watcher.close()
        for engine in clients:
            engine.close()


def test_a_client_killed_mid_index_leaves_whole_files(pg_server, tmp_path):
    database = pg_server.new_database("killed")
    url = pg_server.url(database)
    docs = _folder(tmp_path / "docs", "gamma", 400, words=300)
    run = _cli(tmp_path / "home", url, "index", str(docs))
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            done = _rows(pg_server, database, "SELECT count(*) FROM desktop_rag.files WHERE status = 'indexed'")[0][0]
        except Exception:  # noqa: BLE001 - the library is being made
            done = 0
        if done >= 40:
            break
        time.sleep(0.1)
    run.send_signal(signal.SIGKILL)
    run.wait(60)
    assert 0 < done < 400
    bad = _rows(pg_server, database,
                "SELECT f.path FROM desktop_rag.files f LEFT JOIN desktop_rag.chunks c ON c.file_id = f.id "
                "GROUP BY f.id, f.path, f.chunk_count, f.status HAVING (f.status = 'indexed' AND "
                "(count(c.id) <> f.chunk_count OR coalesce(max(c.ordinal), -1) <> f.chunk_count - 1)) "
                "OR (f.status <> 'indexed' AND count(c.id) > 0)")
    assert bad == []
    out, err = _cli(tmp_path / "home", url, "index", "--json").communicate(timeout=900)
    assert json.loads(out.strip().splitlines()[-1])["failed"] == [], err
    assert _rows(pg_server, database, "SELECT count(*) FROM desktop_rag.files WHERE status = 'indexed'") == [[400]]
    assert _rows(pg_server, database, "SELECT count(*) FROM desktop_rag.chunks c LEFT JOIN desktop_rag.vectors v "
                                      "ON v.chunk_id = c.id WHERE v.chunk_id IS NULL") == [[0]]
