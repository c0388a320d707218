"""Clients embedding one library's queue at once: each chunk committed as text but not embedded yet is embedded by
one client only (a client claims a batch before it embeds it), and a client that fails or is killed with chunks
claimed leaves them for the next run. A real PostgreSQL server, real stores; the embedder is the library's own,
watched (tests/support/watched_embedder.py) to tell which passages each client embeds."""

from __future__ import annotations

import threading
from collections import Counter
from contextlib import closing
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import runtime
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.models.embedding import HashEmbedder, batch_size_for, embedding_text
from tests.support.shared_queue import folder, shared, stalled_client, together
from tests.support.watched_embedder import watching

FAST = Settings(embedding_model="hash:64")
BATCH = batch_size_for(HashEmbedder(64))  # the chunks a client embeds in one round


def _engine(home: Path, url: str) -> Engine:
    return Engine(resolve_paths(home), FAST, library=url)


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
        writer.index([folder(tmp_path / "docs", files)], embed=False)
    finally:
        writer.close()
    return database, url, _queue(pg_server, database)


def test_two_clients_embedding_at_once_embed_each_chunk_once(pg_server, tmp_path, monkeypatch):
    database, url, queue = _pending_library(pg_server, tmp_path, 32)
    assert sum(queue.values()) > 2 * BATCH  # several rounds each
    with together(monkeypatch, lambda name: _engine(tmp_path / name, url)) as pair:
        pair.index()
        pair.each_once(queue, "embed")
        assert _queue(pg_server, database) == Counter()


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
        assert shared(embedded, held) == 0
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
    with stalled_client(monkeypatch, url, tmp_path) as stalled, closing(_engine(tmp_path / "other", url)) as other:
        stalled.gave_the_rest(other.index, queue)  # while the stalled client embeds its batch: the rest only
        stalled.kill(pg_server, database)
        other.index()  # the killed client's batch is the next run's
        assert Counter(stalled.here) == Counter(stalled.texts)
        assert _queue(pg_server, database) == Counter()
