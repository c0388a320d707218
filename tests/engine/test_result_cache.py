"""The result cache: a repeat is served from memory, and every write that can change results invalidates it."""

from __future__ import annotations

import pytest

from desktop_rag.engine.search.cache import BoundedLRU
from tests.support.tea_and_buses import tea_and_buses


@pytest.fixture
def engine(tmp_path):
    with tea_and_buses(tmp_path) as opened:
        yield opened


def searches_run(engine, monkeypatch) -> list[str]:
    """The queries that really reached hybrid_search (a cache hit never does)."""
    from desktop_rag.engine.search import retrieval

    ran: list[str] = []
    real = retrieval.hybrid_search

    def counting(question, *args, **kwargs):
        ran.append(question.normalised)
        return real(question, *args, **kwargs)

    monkeypatch.setattr(retrieval, "hybrid_search", counting)
    return ran


def test_a_repeat_is_served_from_the_cache_with_the_same_hits(engine, monkeypatch):
    ran = searches_run(engine, monkeypatch)
    first = engine.search("green tea water", 2)
    again = engine.search("  green   tea water ", 2)  # the normalised question is the key
    assert ran == ["green tea water"]
    assert [h.chunk_id for h in again] == [h.chunk_id for h in first]
    engine.search("green tea water", 1)  # another k is another key
    engine.search("green tea water", 2, collection=engine.collections()[0].id)  # another scope too
    assert len(ran) == 3


def test_changing_a_file_invalidates_the_cached_result(engine, tmp_path, monkeypatch):
    ran = searches_run(engine, monkeypatch)
    before = engine.search("green tea water", 2)
    assert "eighty" in before[0].text
    (tmp_path / "docs" / "tea.txt").write_text("Green tea water should be at seventy degrees.", encoding="utf-8")
    engine.index()
    after = engine.search("green tea water", 2)
    assert len(ran) == 2 and "seventy" in after[0].text


def test_removing_a_source_and_new_vectors_move_the_library_version(engine, tmp_path):
    version = engine.store.library_version()
    (tmp_path / "docs" / "new.txt").write_text("Trams stop at midnight.", encoding="utf-8")
    engine.index()
    assert engine.store.library_version() > version
    version = engine.store.library_version()
    engine.new_conversation("not part of the index")  # conversations do not change results
    assert engine.store.library_version() == version
    assert engine.remove_source(tmp_path / "docs")
    assert engine.store.library_version() > version
    assert engine.search("green tea water", 2) == []


def test_the_query_vector_is_embedded_once_per_model(engine, monkeypatch):
    embedder, _ = engine.runtime.dense_pair()
    calls: list[list[str]] = []
    real = type(embedder._embedder).embed_queries

    def counting(self, texts):
        calls.append(list(texts))
        return real(self, texts)

    monkeypatch.setattr(type(embedder._embedder), "embed_queries", counting)
    engine.search("buses every ten minutes", 2)
    engine.runtime.results.clear()  # a new library version would do the same: the vector is still known
    engine.search("buses every ten minutes", 2)
    asked = [texts for texts in calls if "buses every ten minutes" in texts]  # (not the language centroids)
    assert asked == [["buses every ten minutes"]]


def test_the_lru_is_bounded_by_entries_and_bytes():
    lru = BoundedLRU(max_entries=2, max_bytes=100)
    lru.put("a", 1, 10)
    lru.put("b", 2, 10)
    lru.get("a")
    lru.put("c", 3, 10)  # b is the least recently used
    assert lru.get("b") is None and lru.get("a") == 1 and lru.get("c") == 3
    lru.put("d", 4, 95)  # over the byte budget: the older entries go
    assert len(lru) == 1 and lru.get("d") == 4 and lru.size_bytes == 95
    lru.put("huge", 5, 1000)  # larger than the whole budget: not kept
    assert lru.get("huge") is None
