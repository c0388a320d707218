"""A cited passage's chunks on a server are read as on this computer, within a bounded range of the file's index
(tests/engine/test_given_places.py); a real PostgreSQL server, no stand-in."""

from __future__ import annotations

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from tests.support.given_places import places_read_alike


def test_a_places_chunks_are_read_alike_within_a_bounded_range(pg_library, tmp_path):
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64", chunk_size=300,
                                                                 chunk_overlap=30), library=pg_library)
    try:
        assert places_read_alike(engine, tmp_path / "docs", "EXPLAIN") > 60
    finally:
        engine.close()
