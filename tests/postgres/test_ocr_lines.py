"""A scanned page's recognised lines on a server (`ocr_lines`, schema version 8) are a content table like chunks:
each row carries its file's collection, and row-level security shows a member the lines of the collections granted
to it only, whatever SQL it runs; a library of version 7 opened by its administrator gets the table and its members
the use of it.

Real PostgreSQL (the app's local server), two real roles, real OCR of image-only PDFs (tests/support/scans.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.postgres.schema import SCHEMA_VERSION
from tests.support import scans

FAST = Settings(embedding_model="hash:64")


def _scan(folder: Path, name: str, lines: tuple[str, ...]) -> Path:
    folder.mkdir(parents=True)
    scans.image_pdf([scans.strip(lines, False)], folder / name)
    return folder


def _lines_by_file(raw) -> dict[int, int]:
    return {file_id: count for file_id, count in raw.run("SELECT file_id, count(*) FROM desktop_rag.ocr_lines "
                                                         "GROUP BY file_id")}


def test_a_member_reads_the_lines_of_its_collections_only(pg_server, tmp_path: Path) -> None:
    import pg8000.native

    database = pg_server.new_database("lines")
    pg_server.role("alice", "alice-password-1")
    admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
    alice = None
    try:
        work = _scan(tmp_path / "work", "work scan.pdf", scans.ENGLISH[1:3])
        home = _scan(tmp_path / "home", "home scan.pdf", scans.ENGLISH[4:6])
        admin.index([work], collection=admin.create_collection("Work"))
        admin.index([home], collection=admin.create_collection("Home"))
        admin.library.grant(admin.collection_id("Work"), "alice")
        work_file = admin.indexed_file(str(work / "work scan.pdf"))[0].id
        home_file = admin.indexed_file(str(home / "home scan.pdf"))[0].id
        owner = pg_server.admin(database)
        try:
            everything = _lines_by_file(owner)
        finally:
            owner.close()
        assert set(everything) == {work_file, home_file}

        raw = pg8000.native.Connection("alice", database=database, password="alice-password-1",
                                       unix_sock=str(pg_server.socket_dir / f".s.PGSQL.{pg_server.server._port()}"))
        try:
            raw.run("SET search_path = desktop_rag, public")
            assert _lines_by_file(raw) == {work_file: everything[work_file]}  # Home's lines are not there
            assert raw.run("SELECT count(*) FROM desktop_rag.ocr_lines WHERE file_id = :f", f=home_file) == [[0]]
            # nor can she write lines into Home (a file she cannot see gives no collection; none of hers either)
            with pytest.raises(Exception, match="row-level security|not-null"):
                raw.run("INSERT INTO desktop_rag.ocr_lines (file_id, page, char_start, char_end, x0, y0, x1, y1) "
                        "VALUES (:f, 1, 0, 5, 0, 0, 10, 10)", f=home_file)
        finally:
            raw.close()

        alice = Engine(resolve_paths(tmp_path / "alice"), FAST,
                       library=pg_server.url(database, "alice", "alice-password-1"))
        hit = next(h for h in alice.search(scans.ENGLISH_PHRASE, k=5) if h.path.endswith("work scan.pdf"))
        assert hit.ocr and alice.recognised_lines(hit)  # her client highlights her collection's scans
    finally:
        if alice is not None:
            alice.close()
        admin.close()


def test_a_version_7_library_gets_the_table_and_its_members_the_use_of_it(pg_server, tmp_path: Path) -> None:
    database = pg_server.new_database("lines7")
    pg_server.role("alice", "alice-password-1")
    admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
    admin.library.grant(admin.create_collection("Work"), "alice")
    admin.close()
    raw = pg_server.admin(database)
    try:
        raw.run("DROP TABLE desktop_rag.ocr_lines")  # as version 7 made it
        raw.run("UPDATE desktop_rag.meta SET value = '7' WHERE key = 'schema_version'")
        admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
        try:
            work = _scan(tmp_path / "work", "scan.pdf", scans.ENGLISH[1:2])
            admin.index([work], collection=admin.collection_id("Work"))
        finally:
            admin.close()
        assert raw.run("SELECT value FROM desktop_rag.meta WHERE key = 'schema_version'") == [[str(SCHEMA_VERSION)]]
        assert raw.run("SELECT has_table_privilege('alice', 'desktop_rag.ocr_lines', 'SELECT, INSERT, DELETE')") \
            == [[True]]
        assert raw.run("SELECT count(*) > 0 FROM desktop_rag.ocr_lines") == [[True]]
    finally:
        raw.close()
    alice = Engine(resolve_paths(tmp_path / "alice"), FAST, library=pg_server.url(database, "alice", "alice-password-1"))
    try:
        hit = alice.search(scans.ENGLISH_PHRASE, k=1)[0]
        assert hit.ocr and alice.recognised_lines(hit)
    finally:
        alice.close()

