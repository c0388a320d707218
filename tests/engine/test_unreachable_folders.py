"""A source or folder that cannot be listed (a drive not connected, a permission taken away) keeps what was indexed
from it: its files are not known to be gone, so nothing is removed and nothing is embedded again when it is back."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

from tests.support.hash_cli import indexed_home, run_cli
from tests.support.index_runs import consistent, make_engine, write_docs
from tests.support.system_limits import without_root_powers


def test_a_source_folder_not_there_keeps_its_files_and_says_so(tmp_path):
    docs = write_docs(tmp_path / "drive" / "docs", 3)
    engine = make_engine(tmp_path / "home")
    engine.index([tmp_path / "drive" / "docs"])
    chunks, vectors = engine.store.count_chunks(), engine.store.count_vectors()

    (tmp_path / "drive").rename(tmp_path / "unplugged")  # the drive is not connected when the app starts
    report = engine.index()
    assert report.removed == 0 and engine.store.count_chunks() == chunks and engine.store.count_vectors() == vectors
    assert [(f.path, f.error.code) for f in report.failed] == [(str(tmp_path / "drive" / "docs"), "source_missing")]
    assert "Connect it again, or remove it from the library" in str(report.failed[0].error)

    (tmp_path / "unplugged").rename(tmp_path / "drive")
    report = engine.index()
    assert (report.unchanged, report.removed, report.embedded, report.failed) == (3, 0, 0, ())
    assert all(engine.store.file_by_path(str(d)).status == "indexed" for d in docs)
    consistent(engine)
    engine.close()


def test_a_file_source_whose_folder_is_not_there_is_kept_a_deleted_one_goes(tmp_path):
    kept = write_docs(tmp_path / "drive" / "docs", 1)[0]
    deleted = write_docs(tmp_path / "here", 1)[0]
    engine = make_engine(tmp_path / "home")
    engine.index([kept, deleted])
    deleted.unlink()  # its folder is there: the file was deleted
    (tmp_path / "drive").rename(tmp_path / "unplugged")
    report = engine.index()
    assert report.removed == 1 and engine.store.file_by_path(str(deleted)) is None
    assert [(f.path, f.error.code) for f in report.failed] == [(str(kept), "source_missing")]
    assert engine.store.file_by_path(str(kept)).status == "indexed"
    engine.close()


def test_a_subfolder_that_cannot_be_read_keeps_its_files(tmp_path):
    prefix = without_root_powers()
    home = indexed_home(tmp_path, {"top.txt": "Green tea is brewed at 80 degrees."})
    (tmp_path / "docs" / "sub").mkdir()
    (tmp_path / "docs" / "sub" / "inner.txt").write_text("Oolong is rolled into balls.", encoding="utf-8")
    assert json.loads(run_cli(home, "index", "--json", prefix=prefix).stdout)["added"] == 1
    (tmp_path / "docs" / "sub").chmod(0)
    try:
        run = run_cli(home, "index", "--json", prefix=prefix)
        report = json.loads(run.stdout)
    finally:
        (tmp_path / "docs" / "sub").chmod(0o755)
    assert report["removed"] == 0 and [f["code"] for f in report["failed"]] == ["folder_unreadable"], run.stderr
    assert report["failed"][0]["path"] == str(tmp_path / "docs" / "sub")
    assert "could not be read (Permission denied)" in report["failed"][0]["error"]
    report = json.loads(run_cli(home, "index", "--json", prefix=prefix).stdout)
    assert (report["unchanged"], report["removed"], report["embedded"]) == (2, 0, 0)


def _written_at(home, path) -> float:
    """When the file's row was last written (every failure recorded stamps it)."""
    with closing(sqlite3.connect(home / "library.sqlite3")) as db:
        return db.execute("SELECT indexed_at FROM files WHERE path = ?", (str(path),)).fetchone()[0]


def test_a_file_that_may_not_be_read_fails_with_why_and_is_read_once_it_may(tmp_path):
    prefix = without_root_powers()
    home = indexed_home(tmp_path, {"top.txt": "Green tea is brewed at 80 degrees."})
    locked = tmp_path / "docs" / "locked.txt"
    locked.write_text("Oolong is rolled into balls.", encoding="utf-8")
    locked.chmod(0)
    try:
        run = run_cli(home, "index", "--json", prefix=prefix)
        report = json.loads(run.stdout)
        assert [(f["path"], f["code"]) for f in report["failed"]] == [(str(locked), "permission_denied")], run.stderr
        written = _written_at(home, locked)
        again = json.loads(run_cli(home, "index", "--json", prefix=prefix).stdout)  # still refused: said, not written
        assert [(f["path"], f["code"]) for f in again["failed"]] == [(str(locked), "permission_denied")]
        assert _written_at(home, locked) == written
    finally:
        locked.chmod(0o644)  # given back: no size or time of the file changes
    report = json.loads(run_cli(home, "index", "--json", prefix=prefix).stdout)
    assert (report["failed"], report["updated"], report["embedded"]) == ([], 1, 1)


def test_a_file_refused_when_hashed_fails_alone_with_why_and_is_read_once_it_may(tmp_path, monkeypatch):
    """The same rule in one process, for any reader (root included, whom mode 000 does not stop): the file the
    system refuses fails with why, under its source and with its size; the files after it are still read; and a
    permission given back, which changes neither size nor time, is noticed by the next run."""
    from desktop_rag.engine.ingest import ingest

    docs = write_docs(tmp_path / "docs", 3)
    refused, hashed = str(docs[1]), ingest.file_sha256

    def guarded(path: str) -> str:
        if str(path) == refused:
            raise PermissionError(13, "Permission denied", path)
        return hashed(path)

    monkeypatch.setattr(ingest, "file_sha256", guarded)
    engine = make_engine(tmp_path / "home")
    report = engine.index([tmp_path / "docs"])
    assert report.added == 2 and [(f.path, f.error.code) for f in report.failed] == [(refused, "permission_denied")]
    row = engine.store.file_by_path(refused)
    assert (row.status, row.sha256, row.size, row.chunk_count) == ("failed", "", docs[1].stat().st_size, 0)
    assert row.source_id == engine.store.source_by_path(str(tmp_path / "docs")).id

    monkeypatch.setattr(ingest, "file_sha256", hashed)  # the permission given back
    report = engine.index()
    assert report.failed == () and engine.store.file_by_path(refused).status == "indexed"
    consistent(engine)
    engine.close()
