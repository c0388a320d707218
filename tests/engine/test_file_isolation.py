"""Issue 49 item 1: whatever goes wrong while one file is read, chunked, stored or embedded fails that file with a
reason, and the run goes on (`Ingestor._index_one`, `ingest.embed_isolation`).

Faults are injected where no real file reaches today (that is the point of a second level): the store's write for
one path raises, the reader raises something that is not a LoadError, the chunker raises, the embedding model
raises on one file's passages. Each time the other files are indexed, embedded and reported, the failed one
carries a reason naming the step, and the library stays consistent. A model that fails on every text, and a full
disk, still end the run (no file is at fault then). The real files that did stop runs (Tika's RTF, pdf.js's
bug1997343.pdf) are bench/README's corpus run; the text boundary has tests/engine/test_valid_text.py.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import DiskFullError, LibraryBusyError
from desktop_rag.engine.ingest import ingest as ingest_module
from desktop_rag.engine.models.embedders.hashing import HashEmbedder
from desktop_rag.engine.store.sqlite.store import SqliteStore as Store

# Bookkeeping, not semantics: the deterministic hashing embedder keeps these fast.
HASH = Settings(embedding_model="hash:64")
NAMES = ("alpha", "bravo", "poison", "delta", "echo")


def _docs(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True)
    paths = {}
    for name in NAMES:
        paths[name] = folder / f"{name}.txt"
        paths[name].write_text(f"The {name} file talks about its own {name} topic, poisonword aside. " * 3
                               if name == "poison" else f"The {name} file talks about its own {name} topic. " * 3,
                               encoding="utf-8")
    return paths


def _check_rest(engine: Engine, paths: dict[str, Path], report, step_words: str) -> None:
    """The four good files indexed, embedded and findable; the poisoned one failed with a reason naming the step."""
    failed = {f.path: str(f.error) for f in report.failed}
    assert list(failed) == [str(paths["poison"])]
    assert step_words in failed[str(paths["poison"])] and "injected" in failed[str(paths["poison"])]
    record = engine.store.file_by_path(str(paths["poison"]))
    assert record.status == "failed" and str(record.error) == failed[str(paths["poison"])] and record.chunk_count == 0
    for name in NAMES:
        if name != "poison":
            assert engine.store.file_by_path(str(paths[name])).status == "indexed"
            assert engine.search(f"{name} topic", 1)[0].path == str(paths[name])
    assert engine.store.count_chunks() == engine.store.count_vectors() == 4
    status = engine.status()
    assert (status.files_indexed, status.files_failed, status.chunks_pending_embedding) == (4, 1, 0)


def _poisoned(path: object) -> bool:
    return str(path).endswith("poison.txt")


def _fail_on(monkeypatch: pytest.MonkeyPatch, owner: object, name: str, hit, error: BaseException) -> None:
    """`owner.name` raises `error` when `hit(*args)` holds for its arguments, else does what it did."""
    real = getattr(owner, name)

    def wrapper(*args, **kwargs):
        if hit(*args):
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)


def test_a_store_write_that_raises_fails_that_file_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _docs(tmp_path / "docs")
    _fail_on(monkeypatch, Store, "replace_file_chunks", lambda _self, _source, path, *_: _poisoned(path),
             RuntimeError("injected store fault"))
    engine = Engine(resolve_paths(tmp_path / "home"), HASH)
    events = []
    try:
        report = engine.index([tmp_path / "docs"], on_file=events.append)
        assert report.added == 4
        _check_rest(engine, paths, report, "could not be stored in the library")
        assert [e.state for e in events if e.path == str(paths["poison"])][-1] == "failed"
        assert sum(e.state == "indexed" for e in events) == 4
    finally:
        engine.close()


def test_a_reader_or_chunker_that_raises_fails_that_file_alone(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _docs(tmp_path / "docs")
    real_chunk = ingest_module.chunk_document
    _fail_on(monkeypatch, ingest_module, "chunk_document", lambda doc, *_: "poisonword" in doc.sections[0].text,
             IndexError("injected chunking fault"))
    engine = Engine(resolve_paths(tmp_path / "home"), HASH)
    try:
        _check_rest(engine, paths, engine.index([tmp_path / "docs"]), "could not be cut into passages")
        monkeypatch.setattr(ingest_module, "chunk_document", real_chunk)
        # not a LoadError: a reader bug that escaped
        _fail_on(monkeypatch, type(engine.runtime.parser()), "parse", lambda _self, path, *_: _poisoned(path),
                 KeyError("injected reader fault"))
        paths["poison"].write_text("The poison file, changed, read again: poisonword.", encoding="utf-8")
        again = engine.index()
        assert [f.path for f in again.failed] == [str(paths["poison"])]
        assert "The reader failed on this file (KeyError: 'injected reader fault')" == str(again.failed[0].error)
        assert again.unchanged == 4
    finally:
        engine.close()


def test_a_file_whose_passages_the_model_cannot_embed_fails_alone(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _docs(tmp_path / "docs")
    _fail_on(monkeypatch, HashEmbedder, "embed", lambda _self, texts, *_: any("poisonword" in t for t in texts),
             ValueError("injected embedding fault"))
    engine = Engine(resolve_paths(tmp_path / "home"), HASH)
    try:
        report = engine.index([tmp_path / "docs"])
        _check_rest(engine, paths, report, "The embedding model could not take this file's passages")
        assert report.embedded == 4
        assert engine.runtime.vectors().ids().tolist() == sorted(
            r[0] for r in engine.store.db.execute("SELECT chunk_id FROM vectors"))
    finally:
        engine.close()


def test_a_model_that_fails_on_every_text_still_ends_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _docs(tmp_path / "docs")

    def broken(self, texts, batch_size=64):
        raise RuntimeError("the model is broken")

    monkeypatch.setattr(HashEmbedder, "embed", broken)
    engine = Engine(resolve_paths(tmp_path / "home"), HASH)
    try:
        with pytest.raises(RuntimeError, match="the model is broken"):
            engine.index([tmp_path / "docs"])
        assert engine.status().files_failed == 0  # no file was blamed; their passages wait for a working model
        assert engine.status().chunks_pending_embedding == 5
    finally:
        engine.close()


def test_a_full_disk_still_ends_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _docs(tmp_path / "docs")

    def full(self, *args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Store, "replace_file_chunks", full)
    engine = Engine(resolve_paths(tmp_path / "home"), HASH)
    try:
        with pytest.raises(DiskFullError):
            engine.index([tmp_path / "docs"])
        assert engine.status().files_failed == 0
    finally:
        engine.close()


def test_an_attachment_the_model_cannot_embed_fails_below_its_message(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from email.message import EmailMessage

    docs = tmp_path / "docs"
    docs.mkdir()
    message = EmailMessage()
    message["Subject"], message["From"] = "Harbour notes", "ann@example.org"
    message.set_content("The harbour notes are attached.")
    message.add_attachment(b"The tide table, poisonword inside.", maintype="text", subtype="plain",
                           filename="tides.txt")
    (docs / "notes.eml").write_bytes(message.as_bytes())
    _fail_on(monkeypatch, HashEmbedder, "embed", lambda _self, texts, *_: any("poisonword" in t for t in texts),
             ValueError("injected embedding fault"))
    engine = Engine(resolve_paths(tmp_path / "home"), HASH)
    try:
        report = engine.index([docs])
        attached = str(docs / "notes.eml" / "1" / "tides.txt")
        assert [f.path for f in report.failed] == [attached]
        row = engine.store.file_by_path(attached)
        assert row.status == "failed" and row.parent_id == engine.store.file_by_path(str(docs / "notes.eml")).id
        assert engine.store.file_by_path(str(docs / "notes.eml")).status == "indexed"
        assert engine.status().chunks_pending_embedding == 0
    finally:
        engine.close()


def test_another_client_holding_the_library_ends_the_run_and_fails_no_file(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A write stopped by another client (on a server: a deadlock, a lock wait timed out) is no file's fault: the run
    stops with that reason, the file is not recorded as failed (a failed file with the same size and time is never
    read again), and the next run indexes it."""
    paths = _docs(tmp_path / "docs")
    _fail_on(monkeypatch, Store, "replace_file_chunks", lambda _self, _source, path, *_: _poisoned(path),
             LibraryBusyError.coded("server_busy", server="db.example"))
    engine = Engine(resolve_paths(tmp_path / "home"), HASH)
    try:
        with pytest.raises(LibraryBusyError, match="Another client is changing"):
            engine.index([tmp_path / "docs"])
        assert engine.status().files_failed == 0
        assert engine.store.file_by_path(str(paths["poison"])) is None or \
            engine.store.file_by_path(str(paths["poison"])).status != "failed"
        monkeypatch.undo()
        report = engine.index([tmp_path / "docs"])
        assert not report.failed and engine.status().files_indexed == 5
        assert engine.search("poison topic", 1)[0].path == str(paths["poison"])
    finally:
        engine.close()
