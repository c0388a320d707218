"""A hostile archive's numbers past the server's 32-bit columns: refused with the archive's own message before any
row is written (not PostgreSQL's 22003 at the INSERT), as the same archive is into a SQLite library
(tests/security/test_archive_hostile.py; the archives: tests/support/archives.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import resolve_paths
from desktop_rag.engine.engine import Engine
from tests.support.archives import BEYOND_32_BITS, FAST, exported, forge, refused


@pytest.mark.parametrize("field", sorted(BEYOND_32_BITS))
def test_numbers_beyond_32_bits_are_refused_by_a_server_library_with_the_archives_own_message(
        pg_server, tmp_path: Path, field: str):
    archive, _ = exported(tmp_path)
    evil = tmp_path / "evil.zip"
    edits, phrase = BEYOND_32_BITS[field]
    forge(archive, evil, **edits)
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST,
                    library=pg_server.url(pg_server.new_database(f"numbers_{field}")))
    try:
        before = victim.collection_names()
        refused(victim, evil, phrase)
        assert victim.collection_names() == before
        assert victim.store.db.execute("SELECT count(*) FROM files").fetchone()[0] == 0
        assert victim.store.db.execute("SELECT count(*) FROM chunks").fetchone()[0] == 0
    finally:
        victim.close()
