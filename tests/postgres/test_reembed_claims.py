"""Administrators' clients moving one library to another embedding model at once (two computers switching, or both
resuming a switch): each chunk gets its staged vector from one client only (a client claims a batch before it
embeds it), a killed client's batch is the next run's, and the switch is swapped in once, whole. A real PostgreSQL
server, real stores; the embedder is the library's own, watched (tests/support/watched_embedder.py)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from contextlib import closing
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest import reembed
from desktop_rag.engine.models.embedding import HashEmbedder, batch_size_for, embedding_text
from desktop_rag.engine.store import staged_vectors
from desktop_rag.engine.store.postgres.store import PostgresStore
from tests.support.shared_queue import folder, stalled_client, together

OLD, NEW = Settings(embedding_model="hash:64"), Settings(embedding_model="hash:48")
BATCH = batch_size_for(HashEmbedder(48))  # the chunks a client re-embeds in one round


def _engine(home: Path, url: str, settings: Settings = NEW) -> Engine:
    return Engine(resolve_paths(home), settings, library=url)


def _library(pg_server, tmp_path: Path, files: int) -> tuple[str, str, Counter]:
    """A library embedded with the old model: (database, url, every chunk's passage, as the embedder is given it)."""
    database = pg_server.new_database("reembed")
    url = pg_server.url(database)
    writer = _engine(tmp_path / "writer", url, OLD)
    try:
        writer.index([folder(tmp_path / "docs", files)])
    finally:
        writer.close()
    raw = pg_server.admin(database)
    try:
        rows = raw.run("SELECT heading, text FROM desktop_rag.chunks")
    finally:
        raw.close()
    return database, url, Counter(embedding_text(heading, text) for heading, text in rows)


def _switched(pg_server, database: str, chunks: int) -> None:
    """The library is on the new model: every chunk has one new vector, nothing is left staged."""
    raw = pg_server.admin(database)
    try:
        vectors = raw.run("SELECT count(*), min(vector_dims(embedding)), max(vector_dims(embedding)) "
                          "FROM desktop_rag.vectors")[0]
        staged = raw.run("SELECT count(*) FROM desktop_rag.staged_vectors")[0][0]
        meta = dict(raw.run("SELECT key, value FROM desktop_rag.meta WHERE key IN ('embedding_model', "
                            "'dimension', 'staged_model')"))
    finally:
        raw.close()
    assert vectors == [chunks, 48, 48] and staged == 0
    assert meta == {"embedding_model": "hash:48", "dimension": "48"}


def test_two_administrators_switching_at_once_embed_each_chunk_once(pg_server, tmp_path, monkeypatch):
    database, url, queue = _library(pg_server, tmp_path, 32)
    assert sum(queue.values()) > 2 * BATCH  # several rounds each
    with together(monkeypatch, lambda name: _engine(tmp_path / name, url)) as pair:
        reports = pair.index()
        pair.each_once(queue, "reembed")
        assert [r.reembed_remaining for r in reports.values()] == [0, 0]  # neither has a switch to go on with
        _switched(pg_server, database, sum(queue.values()))


def test_a_client_killed_mid_switch_leaves_its_claim_for_the_next_run(pg_server, tmp_path, monkeypatch):
    database, url, queue = _library(pg_server, tmp_path, 20)
    assert sum(queue.values()) > BATCH
    with (stalled_client(monkeypatch, url, tmp_path, NEW.embedding_model) as stalled,
          closing(_engine(tmp_path / "other", url)) as other):
        stalled.gave_the_rest(other.index, queue)  # while the stalled client re-embeds its batch: the rest only
        assert staged_vectors.model(other.store) == "hash:48"  # not swapped in: the stalled batch is missing
        stalled.kill(pg_server, database)
        assert other.index().reembed_remaining == 0  # the killed client's batch is the next run's
        assert Counter(stalled.here) == Counter(stalled.texts)
        _switched(pg_server, database, sum(queue.values()))


def test_two_clients_swapping_a_staged_switch_at_once_swap_it_once(pg_server, tmp_path):
    database, url, queue = _library(pg_server, tmp_path, 4)
    clients = [_engine(tmp_path / name, url) for name in ("a", "b")]
    raw = pg_server.admin(database)
    try:
        assert reembed.run(clients[0].store, clients[0].runtime.embedder("hash:48"), threading.Event(),
                           lambda _p: None)
        raw.run("BEGIN")
        raw.run("LOCK TABLE desktop_rag.vectors IN SHARE MODE")  # both swaps get as far as the vectors, and wait
        swapped: list[bool] = []
        threads = [threading.Thread(target=lambda c=c: swapped.append(staged_vectors.swap(c.store, "hash:48", 48)))
                   for c in clients]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30
        while raw.run("SELECT count(*) FROM pg_locks WHERE NOT granted")[0][0] < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        raw.run("COMMIT")
        for thread in threads:
            thread.join(60)
        _switched(pg_server, database, sum(queue.values()))
        assert sorted(swapped) == [False, True]
    finally:
        raw.close()
        for client in clients:
            client.close()


# what an administrator does to a switch in progress: starts one to another model (the mark it leaves), or drops it
SWITCHES = {"begin": (lambda store: staged_vectors.begin(store, "hash:32"), [["hash:32"]]),
            "abandon": (staged_vectors.abandon, [])}


def _begun_while_paused(pg_server, database: str, writer: threading.Thread, paused: threading.Event,
                        go: threading.Event, admin: Engine, switch: str = "begin") -> None:
    """Run `writer` until it pauses inside its transaction (`paused`), start a switch to hash:32 (or drop the
    switch) meanwhile, let the writer go on once the switch waits for a lock (or has ended), and check that nothing
    is left staged: no row of the old switch's model outlived the switch's start."""
    start, mark = SWITCHES[switch]
    raw = pg_server.admin(database)
    try:
        writer.start()
        assert paused.wait(20)
        switching = threading.Thread(target=start, args=(admin.store,))
        switching.start()
        deadline = time.monotonic() + 30
        while switching.is_alive() and not raw.run("SELECT count(*) FROM pg_locks WHERE NOT granted")[0][0]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        go.set()
        writer.join(60), switching.join(60)
        assert raw.run("SELECT value FROM desktop_rag.meta WHERE key = 'staged_model'") == mark
        assert raw.run("SELECT count(*) FROM desktop_rag.staged_vectors") == [[0]]
    finally:
        go.set()
        raw.close()


@pytest.mark.parametrize("switch", SWITCHES)
def test_a_switch_begun_while_a_client_copies_staged_vectors_keeps_none_of_them(pg_server, tmp_path, monkeypatch,
                                                                                switch):
    """A client re-reading an edited file copies its unchanged passages' staged vectors (hash:48's) while an
    administrator starts a switch to hash:32, or drops the switch: it waits for the copy's transaction and empties
    the table after it (without waiting, the copies it never saw were committed under hash:32's mark, or none)."""
    database, url, _ = _library(pg_server, tmp_path, 2)
    editor, admin = _engine(tmp_path / "writer", url, OLD), _engine(tmp_path / "admin", url)  # the docs linked
    try:
        assert reembed.run(editor.store, editor.runtime.embedder("hash:48"), threading.Event(), lambda _p: None)
        doc = tmp_path / "docs" / "doc000.txt"
        doc.write_text(doc.read_text("utf-8") + " a closing sentence added", "utf-8")
        paused, go, copy, reports = threading.Event(), threading.Event(), PostgresStore.copy_vectors, []

        def copy_then_pause(store: PostgresStore, table: str, pairs) -> None:  # the run's store: its own thread's
            copy(store, table, pairs)
            if table == "staged_vectors" and pairs:
                paused.set()
                go.wait(60)

        monkeypatch.setattr(PostgresStore, "copy_vectors", copy_then_pause)
        reading = threading.Thread(target=lambda: reports.append(editor.index(embed=False)))
        _begun_while_paused(pg_server, database, reading, paused, go, admin, switch)
        assert reports[0].updated == 1 and reports[0].kept > 0 and not reports[0].failed
    finally:
        editor.close(), admin.close()


def test_a_batch_staged_while_a_switch_to_another_model_begins_is_not_kept(pg_server, tmp_path):
    """A client stages a batch of hash:48's vectors while an administrator starts a switch to hash:32: the batch
    is stored before the switch empties the table (it waits), or finds the mark changed and stores nothing."""
    database, url, _ = _library(pg_server, tmp_path, 2)
    client, admin = _engine(tmp_path / "client", url), _engine(tmp_path / "admin", url)
    try:
        staged_vectors.begin(client.store, "hash:48")
        ids = [int(i) for i in client.store.db.execute("SELECT id FROM chunks ORDER BY id").fetchall()[0][:1]]
        paused, go, add = threading.Event(), threading.Event(), client.store.add_vectors

        def pause_then_add(chunk_ids, matrix, staged: bool = False):
            paused.set()
            go.wait(60)
            return add(chunk_ids, matrix, staged)

        client.store.add_vectors = pause_then_add
        matrix = HashEmbedder(48).embed(["a passage"] * len(ids))
        staging = threading.Thread(target=staged_vectors.stage, args=(client.store, "hash:48", ids, matrix))
        _begun_while_paused(pg_server, database, staging, paused, go, admin)
    finally:
        client.close(), admin.close()


def test_a_batch_staged_while_the_switch_is_swapped_in_is_not_left_behind(pg_server, tmp_path):
    """A client stages a batch for chunks added after an administrator's swap found none missing: the swap holds
    the staged vectors as a switch's start does, so it waits for the batch's transaction and swaps the batch in
    with the rest (without the lock it never saw the batch, committed after it: rows left staged with no switch in
    progress)."""
    database, url, _ = _library(pg_server, tmp_path, 2)
    client, admin = _engine(tmp_path / "writer", url), _engine(tmp_path / "admin", url)  # the docs linked to one
    raw = pg_server.admin(database)
    try:
        assert reembed.run(admin.store, admin.runtime.embedder("hash:48"), threading.Event(), lambda _p: None)
        raw.run("BEGIN")
        raw.run("LOCK TABLE desktop_rag.vectors IN SHARE MODE")  # the swap gets past its checks and waits here
        swapped, staged, go = [], [], threading.Event()
        swapping = threading.Thread(target=lambda: swapped.append(staged_vectors.swap(admin.store, "hash:48", 48)))
        swapping.start()
        _wait_for(raw, lambda: not swapping.is_alive(), 1)
        (tmp_path / "docs" / "late.txt").write_text("A late document, added while the switch is swapped in.", "utf-8")
        assert client.index(embed=False).added == 1
        late = [r[0] for r in raw.run("SELECT id FROM desktop_rag.chunks c WHERE NOT EXISTS "
                                      "(SELECT 1 FROM desktop_rag.staged_vectors s WHERE s.chunk_id = c.id)")]
        assert late

        def stage() -> None:  # its transaction committed once the swap has ended
            with client.store.transaction():
                staged.append(staged_vectors.stage(client.store, "hash:48", late, HashEmbedder(48).embed(
                    ["a late passage"] * len(late))))
                go.wait(60)

        staging = threading.Thread(target=stage)
        staging.start()
        _wait_for(raw, lambda: bool(staged), 2)
        raw.run("COMMIT")
        _wait_for(raw, lambda: not swapping.is_alive(), 1)  # the swap waits for the batch (or has ended)
        go.set()
        staging.join(60), swapping.join(60)
        assert raw.run("SELECT count(*) FROM desktop_rag.staged_vectors") == [[0]]
        assert swapped == [True] and staged == [True]
        assert raw.run("SELECT value FROM desktop_rag.meta WHERE key = 'staged_model'") == []
        assert raw.run("SELECT count(*) FROM desktop_rag.vectors WHERE chunk_id = ANY(:ids)", ids=late) == [[len(late)]]
    finally:
        go.set()
        raw.close()
        client.close(), admin.close()


def _wait_for(raw, done, waiting: int) -> None:
    """Until `done()` or `waiting` connections wait for a lock."""
    deadline = time.monotonic() + 30
    while not done() and raw.run("SELECT count(*) FROM pg_locks WHERE NOT granted")[0][0] < waiting:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_swap_while_a_client_copies_an_edited_files_vectors_waits_for_it(pg_server, tmp_path, monkeypatch):
    """A client re-reading an edited file has copied its unchanged passages' vectors and is about to copy their
    staged ones when an administrator swaps the switch in: the swap locks the tables in the order the copy does
    (the vectors, then the staged vectors), so it waits for the copy and swaps its staged rows in (in the other
    order each waited for the other: the server broke the deadlock by failing one)."""
    database, url, _ = _library(pg_server, tmp_path, 2)
    editor, admin = _engine(tmp_path / "writer", url, OLD), _engine(tmp_path / "admin", url)
    try:
        assert reembed.run(editor.store, editor.runtime.embedder("hash:48"), threading.Event(), lambda _p: None)
        doc = tmp_path / "docs" / "doc000.txt"
        doc.write_text(doc.read_text("utf-8") + " a closing sentence added", "utf-8")
        paused, go, copy, reports, swapped = threading.Event(), threading.Event(), PostgresStore.copy_vectors, [], []

        def pause_between_copies(store: PostgresStore, table: str, pairs) -> None:
            if table == "staged_vectors" and pairs:
                paused.set()
                go.wait(60)
            copy(store, table, pairs)

        monkeypatch.setattr(PostgresStore, "copy_vectors", pause_between_copies)
        reading = threading.Thread(target=lambda: reports.append(editor.index(embed=False)))
        swap = threading.Thread(target=lambda: swapped.append(staged_vectors.swap(admin.store, "hash:48", 48)))
        raw = pg_server.admin(database)
        try:
            reading.start()
            assert paused.wait(20)
            swap.start()
            _wait_for(raw, lambda: not swap.is_alive(), 1)
            go.set()
            reading.join(60), swap.join(60)
            assert raw.run("SELECT count(*) FROM desktop_rag.staged_vectors") == [[0]]
            assert raw.run("SELECT count(*) FROM desktop_rag.chunks c WHERE NOT EXISTS "
                           "(SELECT 1 FROM desktop_rag.vectors v WHERE v.chunk_id = c.id)") == [[1]]  # the edited one
        finally:
            go.set()
            raw.close()
        assert swapped == [True] and reports[0].updated == 1 and reports[0].kept > 0 and not reports[0].failed
    finally:
        editor.close(), admin.close()
