"""Reconcile, as the library panel sees it: each file's event, the tallies, and what is read again (or not)."""

from __future__ import annotations

import os
import sqlite3
import threading

import pytest

from desktop_rag.engine.errors import DiskFullError
from desktop_rag.engine.ingest import ingest
from desktop_rag.engine.ingest.reports import FileEvent
from tests.support.index_runs import consistent, make_engine, write_docs


def events_of(engine, paths=None, **kwargs) -> tuple[dict[str, list[FileEvent]], object]:
    """Index; returns each file name's events (in order) and the report."""
    seen: list[FileEvent] = []
    report = engine.index(paths, on_file=seen.append, **kwargs)
    by_name: dict[str, list[FileEvent]] = {}
    for event in seen:
        by_name.setdefault(os.path.basename(event.path), []).append(event)
    return by_name, report


def states(events: dict[str, list[FileEvent]]) -> dict[str, list[str]]:
    return {name: [e.state for e in evs] for name, evs in events.items()}


def count_hashing(monkeypatch) -> list[str]:
    """The real file_sha256, with each file it reads recorded (reading content is the slow path)."""
    read: list[str] = []
    real = ingest.file_sha256

    def recording(path):
        read.append(os.path.basename(path))
        return real(path)

    monkeypatch.setattr(ingest, "file_sha256", recording)
    return read


def test_every_kind_of_change_has_its_event_and_count(tmp_path, monkeypatch):
    docs = write_docs(tmp_path / "docs", 6)
    (tmp_path / "docs" / "slides.key").write_bytes(b"PK")
    engine = make_engine(tmp_path / "home")
    first, report = events_of(engine, [tmp_path / "docs"])
    assert first["slides.key"][0].state == "skipped" and first["slides.key"][0].error.code == "unsupported_type"
    assert all(states(first)[d.name][:1] == ["queued"] for d in docs)
    chunks = {d.name: engine.store.file_by_path(str(d)).chunk_count for d in docs}

    for doc in docs[:2]:
        os.utime(doc, ns=(10**18, 10**18))  # touched: same content, new time
    docs[2].rename(docs[2].with_name("renamed.txt"))
    docs[3].unlink()
    docs[4].unlink()
    second, report = events_of(engine)
    assert (report.added, report.updated, report.removed, report.unchanged, report.embedded) == (0, 0, 2, 4, 0)
    assert [(e.state, e.chunks) for e in second[docs[0].name]] == [("unchanged", chunks[docs[0].name])]
    assert [(e.state, e.chunks) for e in second[docs[1].name]] == [("unchanged", chunks[docs[1].name])]
    assert states(second)[docs[2].name] == ["removed"]
    assert [(e.state, e.chunks) for e in second["renamed.txt"]] == [("indexed", chunks[docs[2].name])]
    assert states(second)[docs[3].name] == ["removed"] and states(second)[docs[4].name] == ["removed"]
    assert [(e.state, e.chunks) for e in second[docs[5].name]] == [("unchanged", chunks[docs[5].name])]

    read = count_hashing(monkeypatch)  # the touched files' new times were stored: nothing is read again
    third, report = events_of(engine)
    assert read == [] and report.unchanged == 4
    assert {name: [(e.state, e.chunks) for e in evs] for name, evs in third.items() if name != "slides.key"} == {
        docs[0].name: [("unchanged", chunks[docs[0].name])], docs[1].name: [("unchanged", chunks[docs[1].name])],
        "renamed.txt": [("unchanged", chunks[docs[2].name])], docs[5].name: [("unchanged", chunks[docs[5].name])]}
    consistent(engine)
    engine.close()


def test_same_size_new_content_is_read_again(tmp_path):
    doc = write_docs(tmp_path / "docs", 1)[0]
    engine = make_engine(tmp_path / "home")
    engine.index([tmp_path / "docs"])
    text = doc.read_text(encoding="utf-8")
    doc.write_text(text.replace("topic0", "zebra0"), encoding="utf-8")  # same length, other words
    events, report = events_of(engine)
    assert report.updated == 1 and states(events)[doc.name][0] == "queued"
    assert engine.search("zebra0", 1)[0].path == str(doc)
    engine.close()


def test_pending_and_forced_files_are_read_again(tmp_path):
    docs = write_docs(tmp_path / "docs", 3)
    engine = make_engine(tmp_path / "home")
    engine.index([tmp_path / "docs"])
    with engine.store.transaction():
        engine.store.db.execute("UPDATE files SET status = 'pending' WHERE path = ?", (str(docs[0]),))
    events, report = events_of(engine)
    assert report.updated == 1 and report.unchanged == 2 and states(events)[docs[0].name][0] == "queued"
    events, report = events_of(engine, force=[docs[1]])
    assert report.updated == 1 and report.unchanged == 2 and states(events)[docs[1].name][0] == "queued"
    engine.close()


def test_two_sources_keep_each_others_files(tmp_path):
    a = write_docs(tmp_path / "a", 2, prefix="a")
    b = write_docs(tmp_path / "b", 2, prefix="b")
    engine = make_engine(tmp_path / "home")
    engine.index([tmp_path / "a", tmp_path / "b"])
    report = engine.index()
    assert (report.removed, report.unchanged, report.added) == (0, 4, 0)
    assert all(engine.store.file_by_path(str(p)).status == "indexed" for p in a + b)
    engine.close()


def test_a_file_already_indexed_alone_is_not_indexed_again_with_its_folder(tmp_path):
    docs = write_docs(tmp_path / "docs", 3)
    engine = make_engine(tmp_path / "home")
    engine.index([docs[0]])
    events, report = events_of(engine, [tmp_path / "docs"])
    assert (report.added, report.unchanged) == (2, 1) and states(events)[docs[0].name] == ["unchanged"]
    engine.close()


def test_a_file_that_vanishes_while_listed_is_left_for_the_next_scan(tmp_path, monkeypatch):
    docs = write_docs(tmp_path / "docs", 3)
    real = ingest.file_sha256

    def vanishing(path):
        if path == str(docs[0]):
            raise FileNotFoundError(path)
        return real(path)

    monkeypatch.setattr(ingest, "file_sha256", vanishing)
    engine = make_engine(tmp_path / "home")
    report = engine.index([tmp_path / "docs"])
    assert report.added == 2 and not report.failed and engine.store.file_by_path(str(docs[0])) is None
    monkeypatch.setattr(ingest, "file_sha256", real)
    assert engine.index().added == 1
    engine.close()


def test_cancel_before_reconcile_changes_nothing(tmp_path):
    docs = write_docs(tmp_path / "docs", 3)
    engine = make_engine(tmp_path / "home")
    engine.index([tmp_path / "docs"])
    docs[0].unlink()
    docs[1].write_text("changed text about zebras", encoding="utf-8")
    cancel = threading.Event()
    cancel.set()
    report = engine.index(cancel=cancel)
    assert report.cancelled and (report.removed, report.updated, report.added) == (0, 0, 0)
    assert engine.store.file_by_path(str(docs[0])) is not None  # not forgotten by a cancelled scan
    engine.close()


def _touched_library(tmp_path, count: int):
    """An indexed folder whose files were all touched since (same content, new time): each is settled without
    reading, through `store.touch_file`."""
    docs = write_docs(tmp_path / "docs", count)
    engine = make_engine(tmp_path / "home")
    engine.index([tmp_path / "docs"])
    for doc in docs:
        os.utime(doc, ns=(10**18, 10**18))
    return engine, docs


def test_a_store_failure_while_settling_a_file_fails_that_file_alone(tmp_path, monkeypatch):
    """The first file the store cannot touch is recorded failed, with the store's words, at its new time and its
    hash; the files after it are still settled."""
    engine, docs = _touched_library(tmp_path, 3)
    before = {str(d): engine.store.file_by_path(str(d)) for d in docs}
    real, touched = engine.store.touch_file, []

    def refusing(file_id, size, mtime_ns):
        touched.append(file_id)
        if len(touched) == 1:
            raise RuntimeError("the row is held elsewhere")
        return real(file_id, size, mtime_ns)

    monkeypatch.setattr(engine.store, "touch_file", refusing)
    events, report = events_of(engine)
    failed = [name for name, evs in events.items() if states({name: evs})[name] == ["failed"]]
    assert len(failed) == 1 and len(touched) == 3 and report.unchanged == 2
    path = str(tmp_path / "docs" / failed[0])
    assert [f.path for f in report.failed] == [path]
    record, stat = engine.store.file_by_path(path), os.stat(path)
    assert (record.source_id, record.status, record.size, record.mtime_ns, record.sha256) == (
        before[path].source_id, "failed", stat.st_size, stat.st_mtime_ns, ingest.file_sha256(path))
    assert record.error.code == "store_failed" and "the row is held elsewhere" in record.error.text()
    assert report.failed[0].error.code == "store_failed"
    engine.close()


def test_a_full_disk_while_settling_a_file_ends_the_run(tmp_path, monkeypatch):
    """A full disk fails every file after it too: the run stops there, and no file is marked failed for it."""
    engine, docs = _touched_library(tmp_path, 2)

    def full(file_id, size, mtime_ns):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(engine.store, "touch_file", full)
    with pytest.raises(DiskFullError):
        engine.index()
    assert all(engine.store.file_by_path(str(d)).status == "indexed" for d in docs)
    engine.close()
