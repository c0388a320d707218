"""Clients embedding one library's queue at once: each chunk committed as text but not embedded yet is embedded by
one client only (a client claims a batch before it embeds it), and a client that fails or is killed with chunks
claimed leaves them for the next run. A real PostgreSQL server, real stores; the embedder is the library's own,
watched (tests/support/watched_embedder.py) to tell which passages each client embeds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import runtime
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.models.embedding import HashEmbedder, batch_size_for, embedding_text
from tests.support.watched_embedder import watching

REPO = Path(__file__).resolve().parents[2]
FAST = Settings(embedding_model="hash:64")
BATCH = batch_size_for(HashEmbedder(64))  # the chunks a client embeds in one round


def _engine(home: Path, url: str) -> Engine:
    return Engine(resolve_paths(home), FAST, library=url)


def _folder(path: Path, files: int) -> Path:
    path.mkdir(parents=True)
    for i in range(files):
        (path / f"doc{i:03}.txt").write_text(" ".join(f"doc{i}w{j}" for j in range(900)), "utf-8")
    return path


def _queue(pg_server, database: str) -> Counter:
    """The passages of the chunks still without a vector, as the embedder is given them."""
    raw = pg_server.admin(database)
    try:
        rows = raw.run("SELECT c.heading, c.text FROM desktop_rag.chunks c WHERE NOT EXISTS "
                       "(SELECT 1 FROM desktop_rag.vectors v WHERE v.chunk_id = c.id)")
    finally:
        raw.close()
    return Counter(embedding_text(heading, text) for heading, text in rows)


def _pending_library(pg_server, tmp_path: Path, files: int) -> tuple[str, str, Counter]:
    """A new library whose chunks are all committed as text and none embedded: (database, url, the queue)."""
    database = pg_server.new_database("claims")
    url = pg_server.url(database)
    writer = _engine(tmp_path / "writer", url)
    try:
        writer.index([_folder(tmp_path / "docs", files)], embed=False)
    finally:
        writer.close()
    return database, url, _queue(pg_server, database)


def test_two_clients_embedding_at_once_embed_each_chunk_once(pg_server, tmp_path, monkeypatch):
    database, url, queue = _pending_library(pg_server, tmp_path, 32)
    assert sum(queue.values()) > 2 * BATCH  # several rounds each
    embedded: dict[str, list[str]] = {"a": [], "b": []}
    busy = {name: threading.Event() for name in embedded}  # embedding, or done with its run

    def hook(texts: list[str]) -> None:
        me = threading.current_thread().name
        embedded[me] += texts
        busy[me].set()
        assert busy["b" if me == "a" else "a"].wait(60)  # the two embed at the same time

    monkeypatch.setattr(runtime, "create_embedder", watching(hook))
    clients = {name: _engine(tmp_path / name, url) for name in embedded}
    failures: list[BaseException] = []

    def run(name: str) -> None:
        try:
            clients[name].index()
        except BaseException as exc:  # noqa: BLE001 - the test reports it
            failures.append(exc)
        finally:
            busy[name].set()

    threads = [threading.Thread(target=run, args=(name,), name=name) for name in embedded]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(300)
        assert not failures
        done = Counter(embedded["a"] + embedded["b"])
        assert _twice(done) == 0 and not queue - done  # each chunk once: none twice, none left out
        assert embedded["a"] and embedded["b"]  # and the two shared the queue
        assert _queue(pg_server, database) == Counter()
    finally:
        for client in clients.values():
            client.close()


def test_a_client_whose_model_fails_mid_embedding_gives_its_claim_back(pg_server, tmp_path, monkeypatch):
    database, url, queue = _pending_library(pg_server, tmp_path, 20)
    assert sum(queue.values()) > BATCH
    held: list[str] = []  # the batch the failing client had when its model failed
    embedded: list[str] = []
    holding, other_done = threading.Event(), threading.Event()

    def hook(texts: list[str]) -> None:
        if threading.current_thread().name != "failing":
            embedded.extend(texts)
            return
        held.extend(texts)
        holding.set()
        assert other_done.wait(60)
        raise DesktopRagError("the model stopped")

    monkeypatch.setattr(runtime, "create_embedder", watching(hook))
    failing, other = _engine(tmp_path / "failing", url), _engine(tmp_path / "other", url)
    raised: list[BaseException] = []

    def run() -> None:
        try:
            failing.index()
        except BaseException as exc:  # noqa: BLE001 - the test checks it
            raised.append(exc)

    thread = threading.Thread(target=run, name="failing")
    try:
        thread.start()
        assert holding.wait(60)
        other.index()  # meanwhile: the chunks the failing client holds are not given to this one
        assert _shared(embedded, held) == 0
        assert Counter(embedded) == queue - Counter(held)
        other_done.set()
        thread.join(60)
        assert [str(e) for e in raised] == ["the model stopped"]
        embedded.clear()
        other.index()  # the failing client's process lives on (its connection too): its claim was given back
        assert Counter(embedded) == Counter(held)
        assert _queue(pg_server, database) == Counter()
    finally:
        other_done.set()
        failing.close()
        other.close()


def test_a_client_killed_mid_embedding_leaves_its_claim_for_the_next_run(pg_server, tmp_path, monkeypatch):
    database, url, queue = _pending_library(pg_server, tmp_path, 20)
    assert sum(queue.values()) > BATCH
    signal = tmp_path / "stalled.json"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    stalled = subprocess.Popen([sys.executable, "-m", "tests.support.watched_embedder", url, str(tmp_path / "k"),
                                str(signal)], cwd=REPO, env=env, stderr=subprocess.PIPE, text=True)
    embedded: list[str] = []
    monkeypatch.setattr(runtime, "create_embedder", watching(embedded.extend))
    other = _engine(tmp_path / "other", url)
    try:
        deadline = time.monotonic() + 120
        while not signal.exists():
            assert stalled.poll() is None, stalled.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.1)
        claim = json.loads(signal.read_text("utf-8"))
        assert 0 < len(claim["texts"]) < sum(queue.values())
        other.index()  # while the stalled client embeds its batch, this one is given the rest only
        assert _shared(embedded, claim["texts"]) == 0
        assert Counter(embedded) == queue - Counter(claim["texts"])
        stalled.kill()
        stalled.wait(30)
        _wait_gone(pg_server, database, claim["backend"])
        embedded.clear()
        other.index()  # the killed client's batch is the next run's
        assert Counter(embedded) == Counter(claim["texts"])
        assert _queue(pg_server, database) == Counter()
    finally:
        if stalled.poll() is None:
            stalled.kill()
            stalled.wait(30)
        other.close()


def _twice(done: Counter) -> int:
    """How many embeddings were of a passage embedded before."""
    return sum(n - 1 for n in done.values())


def _shared(one: list[str], other: list[str]) -> int:
    """How many passages both clients embedded."""
    return sum((Counter(one) & Counter(other)).values())


def _wait_gone(pg_server, database: str, backend: int) -> None:
    """Until the server has noticed that the client of its process `backend` is gone (it ends the process)."""
    raw = pg_server.admin(database)
    try:
        deadline = time.monotonic() + 30
        while raw.run("SELECT 1 FROM pg_stat_activity WHERE pid = :pid", pid=backend):
            assert time.monotonic() < deadline
            time.sleep(0.1)
    finally:
        raw.close()
