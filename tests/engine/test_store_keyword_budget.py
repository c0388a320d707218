"""Keyword search drops its most common terms once their document frequencies exceed the postings budget."""

from __future__ import annotations

from desktop_rag.engine.store.values import ChunkDraft
from desktop_rag.engine.store.sqlite import keyword_index
from desktop_rag.engine.store.sqlite.store import SqliteStore as Store


def library(tmp_path) -> Store:
    store = Store(tmp_path / "lib.sqlite3")
    source = store.add_source(str(tmp_path), "folder")
    for i in range(40):
        text = "common words here" + (" zeppelin" if i == 7 else "") + (" hangar" if i in (7, 9) else "")
        store.replace_file_chunks(source, str(tmp_path / f"f{i}.txt"), 1, 1, f"h{i}",
                                  [ChunkDraft(0, text, None, "", 0, len(text))])
    return store


def test_common_terms_are_dropped_beyond_the_budget(tmp_path, monkeypatch):
    store = library(tmp_path)
    assert len(store.keyword_search("zeppelin hangar common", 100)) == 40  # under the budget: plain OR
    monkeypatch.setattr(keyword_index, "KEYWORD_POSTINGS_BUDGET", 5)
    hits = store.keyword_search("zeppelin hangar common", 100)
    assert len(hits) == 2 and hits[0][0] == store.keyword_search("zeppelin", 1)[0][0]
    assert len(store.keyword_search("common", 100)) == 40  # a single term is never dropped
    store.close()
