"""A hostile archive's numbers past the server's 32-bit columns, or chunking settings that cannot cut text: refused
with the archive's own message before any row is written (not PostgreSQL's 22003 at the INSERT), as the same archive
is into a SQLite library (tests/security/test_archive_hostile.py; the archives: tests/support/archives.py)."""

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


@pytest.mark.parametrize("chunking", [{"chunk_size": 0}, {"chunk_overlap": 500}, {"chunk_size": 2 ** 31}])
def test_chunking_settings_that_cannot_cut_text_are_refused_by_a_server_library(pg_server, tmp_path: Path, chunking):
    archive, _ = exported(tmp_path)
    evil = tmp_path / "evil.zip"
    forge(archive, evil, manifest_edit=lambda m: m["chunking"].update(chunking))
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST,
                    library=pg_server.url(pg_server.new_database(f"chunking_{'_'.join(map(str, chunking.values()))}")))
    try:
        before = victim.collection_names()
        refused(victim, evil, "chunking")
        assert victim.collection_names() == before and victim.store.get_meta("chunk_size") is None
        assert victim.store.db.execute("SELECT count(*) FROM files").fetchone()[0] == 0
    finally:
        victim.close()


def test_a_server_library_holding_chunking_settings_that_cannot_cut_text_takes_the_ones_in_use(pg_server,
                                                                                                tmp_path: Path):
    """As a SQLite library does (tests/security/test_archive_hostile.py): the next index run records the settings in
    use over them and keeps every passage."""
    archive, _ = exported(tmp_path)
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST, library=pg_server.url(pg_server.new_database("held")))
    try:
        victim.import_archive(archive, name="Shared")
        with victim.store.transaction():
            victim.store.set_meta("chunk_size", "0")
        passages = victim.status().chunks
        assert not victim.needs_reindex()
        victim.index()
        assert (victim.store.get_meta("chunk_size"), victim.store.get_meta("chunk_overlap")) == ("500", "50")
        assert victim.status().chunks == passages
    finally:
        victim.close()
