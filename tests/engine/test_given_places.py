"""A cited passage's chunks are read from its first ordinal to the file's first chunk past it, not to the end of the
file's index (store/given_passages.py `inside`; the same check on a server: tests/postgres/test_given_places.py)."""

from __future__ import annotations

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from tests.support.given_places import places_read_alike


def test_a_places_chunks_are_read_alike_within_a_bounded_range(tmp_path):
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64", chunk_size=300,
                                                                 chunk_overlap=30))
    try:
        assert places_read_alike(engine, tmp_path / "docs", "EXPLAIN QUERY PLAN") > 60
    finally:
        engine.close()
