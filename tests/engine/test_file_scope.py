"""Ask this document (issue 40): a search, a context and an answer limited to one file return, send and cite only
that file, on the keyword and the dense side; a file the library lacks is a clear UsageError; the result cache
keeps one scope's hits apart from another's.

The hashing embedder (hash:64): these tests are about which passages a scope lets through, not about meaning;
the shared words make every document a keyword and dense candidate for every question.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent
from desktop_rag.engine.store.sqlite import filters as rs
from desktop_rag.engine.store.sqlite.keyword_index import search as keyword_search
from tests.support.openai_server import run_openai_server
from tests.support.scope_docs import NAMES, scope_docs


@pytest.fixture()
def lib(tmp_path: Path):
    root = scope_docs(tmp_path / "docs")
    engine = Engine(resolve_paths(tmp_path / "data"), Settings(embedding_model="hash:64", chunk_size=120,
                                                                chunk_overlap=0))
    engine.index([root])
    yield engine, root
    engine.close()


def test_a_file_scope_returns_only_that_file_keyword_dense_and_hybrid(lib):
    engine, root = lib
    target = str(root / "report.txt")
    everywhere = {h.path for h in engine.search("solar energy storage", 50)}
    assert len(everywhere) == len(NAMES)
    hits = engine.search("solar energy storage", 50, files=[target])
    assert hits and {h.path for h in hits} == {target}
    within = engine.restriction(files=[target])
    keyword = engine.store.hits_for(keyword_search(engine.store.db, "energy storage", 50, within))
    assert keyword and {h.path for h in keyword} == {target}
    embedder, vectors = engine.runtime.dense_pair()
    count, selector = rs.member_filter(engine.store, within)
    dense = engine.store.hits_for(vectors.search(embedder.embed_queries(["energy storage"])[0], 50, selector))
    assert count == len(dense) == len(keyword) and {h.path for h in dense} == {target}
    two = engine.search("energy", 50, files=[target, str(root / "notes.md")])
    assert {Path(h.path).name for h in two} == {"report.txt", "notes.md"}
    assert engine.search("energy", 50, folders=[str(root / "reports")], files=[target]) == []  # parts are AND-ed


def test_the_result_cache_keeps_scopes_apart(lib):
    engine, root = lib
    first, second = str(root / "report.txt"), str(root / "notes.md")
    assert {h.path for h in engine.search("energy", 20, files=[first])} == {first}
    assert {h.path for h in engine.search("energy", 20, files=[second])} == {second}
    assert {h.path for h in engine.search("energy", 20, files=[first])} == {first}
    assert len({h.path for h in engine.search("energy", 20)}) == len(NAMES)


def test_a_file_the_library_lacks_is_a_clear_usage_error(lib, tmp_path):
    engine, root = lib
    with pytest.raises(UsageError, match="is not a file of the library"):
        engine.search("energy", 5, files=[str(root / "report")])  # a name prefix is not a file
    with pytest.raises(UsageError, match="is not a file of the library"):
        engine.search("energy", 5, files=[str(root / "reports")])  # nor is a folder
    with pytest.raises(UsageError, match="empty file name"):
        engine.search("energy", 5, files=[" "])
    with pytest.raises(UsageError, match="is not a file of the library"):
        list(engine.ask("energy?", files=[str(tmp_path / "elsewhere.txt")]))  # before any event


def test_a_file_scoped_answer_never_cites_another_file(lib, tmp_path):
    engine, root = lib
    target = str(root / "reports" / "report.txt")
    with run_openai_server() as server:
        server.reply = "Plants store energy [1][2][3][4][5][6][7][8]."  # cites every number it could
        engine.settings = Settings(embedding_model="hash:64", chunk_size=120, chunk_overlap=0,
                                   llm_base_url=server.base_url, llm_model="fake-model", translate_queries=False)
        for question in ("Where is solar energy stored?", "What does the report say about batteries?"):
            events = list(engine.ask(question, files=[target]))
            sent = next(e for e in events if isinstance(e, SourcesEvent)).hits
            done = events[-1]
            assert isinstance(done, DoneEvent) and done.mode == "llm"
            assert sent and {h.path for h in sent} == {target}
            assert done.cited and {h.path for h in done.cited} == {target}
        prompt = server.chat_requests()[-1].body["messages"][-1]["content"]
        numbers = {name: [n * 10 + i for i in range(3)] for n, name in enumerate(NAMES)}  # each file's own text
        assert any(f"storage {k}:" in prompt for k in numbers["reports/report.txt"])
        assert not any(f"storage {k}:" in prompt for name, ks in numbers.items() if name != "reports/report.txt"
                       for k in ks)
        extractive = list(engine.answerer(files=[target], extractive=True).answer("Where is energy stored?"))
        assert {h.path for h in extractive[-1].cited} == {target}
    context = engine.context("energy storage", files=[target])
    assert context["passages"] and {p["path"] for p in context["passages"]} == {target}
