"""Collections: isolation of searches and answers, deletion that leaves the others untouched, the upgrade of a
schema-1 library into "Default" without re-embedding, and the FAISS filter.

The hashing embedder (hash:64) is used: these tests are about which passages a collection may return, not
about meaning; shared words make every document a dense and keyword candidate for every query.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.store.sqlite.schema import SCHEMA_VERSION
from desktop_rag.engine.models.embedders.hashing import HashEmbedder
from desktop_rag.engine.text import keyword
from desktop_rag.engine.answer.events import SourcesEvent
from tests.support.two_collections import QUERIES, CountingEmbedder, search_results, two_folders, write_files

FAST = Settings(embedding_model="hash:64")


@pytest.fixture()
def two(tmp_path: Path):
    a, b = two_folders(tmp_path)
    engine = Engine(resolve_paths(tmp_path / "data"), FAST)
    first = engine.collection_id("Default")
    second = engine.create_collection("Grid")
    engine.index([a], collection=first)
    engine.index([b], collection=second)
    yield engine, first, second, a, b
    engine.close()


def test_a_question_in_one_collection_never_returns_anothers_passages(two):
    engine, first, second, a, b = two
    for q in QUERIES:
        everywhere = {Path(h.path).parent for h in engine.search(q, 10)}
        assert everywhere == {a, b}  # unrestricted, both collections answer: the filter below is what isolates
        assert {Path(h.path).parent for h in engine.search(q, 10, first)} == {a}
        assert {Path(h.path).parent for h in engine.search(q, 10, second)} == {b}
    conversation = engine.new_conversation("grid questions", collection=second)
    events = list(engine.ask("What stores solar energy?", conversation))
    hits = next(e for e in events if isinstance(e, SourcesEvent)).hits
    assert hits and {Path(h.path).parent for h in hits} == {b}
    assert engine.conversation_collection(conversation) == second


def test_deleting_a_collection_leaves_the_other_byte_identical(two, tmp_path: Path):
    engine, first, second, a, b = two
    store = engine.store
    b_rows = ("SELECT c.id, c.text, c.heading, c.page, v.vector, t.body FROM chunks c JOIN vectors v ON v.chunk_id = c.id "
              "JOIN chunks_fts t ON t.rowid = c.id JOIN files f ON f.id = c.file_id JOIN sources s ON s.id = f.source_id "
              "WHERE s.collection_id = ? ORDER BY c.id")
    before_rows = store.db.execute(b_rows, (second,)).fetchall()
    before_order = [[h.chunk_id for h in engine.search(q, 10, second)] for q in QUERIES]
    engine.delete_collection(first)
    assert [c.name for c in engine.collections()] == ["Grid"]
    assert engine.runtime.vectors().size == len(before_rows)  # A's vectors left the FAISS cache too
    assert all(p.exists() for p in (a / "plants.txt", a / "soil.txt"))  # never the user's files
    assert store.db.execute(b_rows, (second,)).fetchall() == before_rows
    assert [[h.chunk_id for h in engine.search(q, 10, second)] for q in QUERIES] == before_order
    # Scores included: exactly what a library that never held A returns (BM25 statistics are library-wide,
    # so this, not the pre-deletion scores, is the reference for them).
    alone = Engine(resolve_paths(tmp_path / "alone"), FAST)
    try:
        alone.index([b])
        assert search_results(engine, second) == search_results(alone, None)
    finally:
        alone.close()
    reopened = Engine(resolve_paths(engine.paths.data_dir), FAST)  # the saved cache holds B only
    try:
        assert search_results(reopened, second) == search_results(engine, second)
    finally:
        reopened.close()


def test_a_source_belongs_to_one_collection(two):
    engine, first, second, a, b = two
    with pytest.raises(UsageError, match="one collection only"):
        engine.index([b / "grid.txt"], collection=first)
    with pytest.raises(UsageError, match="one collection only"):
        engine.index([a.parent], collection=first)
    with pytest.raises(UsageError, match="already exists"):
        engine.create_collection("grid")
    with pytest.raises(UsageError, match="no collection called"):
        engine.collection_id("Nope")
    assert not engine.remove_source(b, collection=first)
    # the window's watcher re-scans a source by path without naming its collection: it stays where it is
    assert engine.index([b]).unchanged == 2 and [s.collection_id for s in engine.sources(second)] != []
    assert engine.status(second).files_total == 2 and engine.status(first).files_total == 2


def test_names_differing_only_by_case_or_spacing_are_one_name_in_any_script(tmp_path: Path):
    """"Work" and "work" were one name, but "Café" and "CAFÉ", "Данные" and "данные" were two (SQLite's lower() folds
    ASCII only; a library on a server refused them)."""
    engine = Engine(resolve_paths(tmp_path / "data"), FAST)
    try:
        cafe, data = engine.create_collection("Café"), engine.create_collection("Данные  отдела")
        engine.create_collection("Work")
        for taken in ("CAFÉ", "café", "данные отдела", " ДАННЫЕ   Отдела ", "WORK"):
            with pytest.raises(UsageError, match="already exists"):
                engine.create_collection(taken)
        assert engine.collection_id("CAFÉ") == cafe and engine.collection_id("данные   отдела") == data
        with pytest.raises(UsageError, match="already exists"):
            engine.rename_collection(data, "café")
        engine.rename_collection(cafe, "CAFÉ")  # its own name in other letters
        assert [c.name for c in engine.collections()] == ["Default", "CAFÉ", "Данные отдела", "Work"]
    finally:
        engine.close()


@pytest.mark.parametrize("name", ["👩‍💻 Work", "🏳️‍🌈 Pride", "👨‍👩‍👧 家庭", "کتاب‌ها"])  # ZWJ emoji; a Persian ZWNJ
def test_names_with_joined_emoji_or_a_scripts_joiner_are_taken(tmp_path: Path, name: str):
    """An emoji made of several joined by U+200D (ZERO WIDTH JOINER) or a Persian word with U+200C was refused as
    "control or invisible characters"; a bidi override, or a joiner where it joins nothing ("中\u200d文" looks like
    "中文"), still is."""
    engine = Engine(resolve_paths(tmp_path / "data"), FAST)
    try:
        created = engine.create_collection(name)
        assert engine.collection_id(name) == created and name in [c.name for c in engine.collections()]
        for hostile in ("\u202eevil", "Wo\u200drk", "\u200d", "a\u200b b", "中\u200d文", "中\u200c文", "👩\u200cx"):
            with pytest.raises(UsageError, match="control or invisible"):
                engine.create_collection(hostile)
    finally:
        engine.close()


def test_documents_added_to_a_collection_another_process_deleted_are_refused(two, tmp_path: Path):
    """The window still shows a collection the command line deleted: adding a folder to it is refused, not kept as
    sources of no collection (listed nowhere, searched in "All collections", blocking that folder elsewhere)."""
    engine, first, second, a, b = two
    other = Engine(resolve_paths(tmp_path / "data"), FAST)  # another process of the same library
    try:
        other.delete_collection(second)
    finally:
        other.close()
    c = write_files(tmp_path / "c", {"kelp.txt": "Kelp\n\nKelp forests store carbon along rocky coasts."})
    with pytest.raises(UsageError, match="That collection no longer exists"):
        engine.index([c], collection=second)
    assert [s.path for s in engine.sources()] == [str(a)]  # nothing of "c" kept anywhere
    assert all(Path(h.path).parent == a for h in engine.search("kelp forests carbon", 5))
    engine.index([c], collection=first)  # still free to go into a collection that exists
    assert sorted(s.path for s in engine.sources(first)) == sorted([str(a), str(c)])


# The schema-1 SQL as shipped (git show e99f184:desktop_rag/engine/store.py, with the OCR column of the
# working tree's first migration), so the test does not depend on git being present.
SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sources (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('folder', 'file')), added_at REAL NOT NULL);
CREATE TABLE files (id INTEGER PRIMARY KEY, source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL DEFAULT 0, mtime_ns INTEGER NOT NULL DEFAULT 0,
    sha256 TEXT NOT NULL DEFAULT '', status TEXT NOT NULL CHECK (status IN ('pending', 'indexed', 'failed')),
    error TEXT NOT NULL DEFAULT '', chunk_count INTEGER NOT NULL DEFAULT 0, indexed_at REAL NOT NULL DEFAULT 0);
CREATE INDEX files_source ON files(source_id);
CREATE INDEX files_hash ON files(sha256);
CREATE TABLE chunks (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL, text TEXT NOT NULL, page INTEGER, heading TEXT NOT NULL DEFAULT '',
    char_start INTEGER NOT NULL, char_end INTEGER NOT NULL);
CREATE INDEX chunks_file ON chunks(file_id, ordinal);
CREATE TABLE vectors (chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE, vector BLOB NOT NULL);
CREATE VIRTUAL TABLE chunks_fts USING fts5(body, tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN DELETE FROM chunks_fts WHERE rowid = old.id; END;
CREATE TABLE conversations (id INTEGER PRIMARY KEY, title TEXT NOT NULL, created_at REAL NOT NULL,
    updated_at REAL NOT NULL);
CREATE TABLE messages (id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL REFERENCES conversations(id)
    ON DELETE CASCADE, role TEXT NOT NULL, content TEXT NOT NULL, sources_json TEXT NOT NULL DEFAULT '[]',
    created_at REAL NOT NULL);
"""


def _schema_1_library(data: Path, docs: Path) -> None:
    """A library as 0.1 wrote it: one source, its files, chunks, keyword rows and hash:64 vectors."""
    data.mkdir(parents=True)
    db = sqlite3.connect(data / "library.sqlite3")
    db.executescript(SCHEMA_1)
    db.executemany("INSERT INTO meta VALUES (?, ?)", [("schema_version", "1"), ("vectors_generation", "3"),
                   ("embedding_model", "hash:64"), ("dimension", "64"), ("chunk_size", str(FAST.chunk_size)),
                   ("chunk_overlap", str(FAST.chunk_overlap))])
    db.execute("INSERT INTO sources VALUES (1, ?, 'folder', 0)", (str(docs),))
    embedder = HashEmbedder(64)
    for file_id, path in enumerate(sorted(docs.iterdir()), 1):
        text = path.read_text("utf-8")
        heading, body = text.split("\n\n", 1)
        stat = path.stat()
        import hashlib

        sha = hashlib.sha256(path.read_bytes()).hexdigest()
        db.execute("INSERT INTO files VALUES (?, 1, ?, ?, ?, ?, 'indexed', '', 1, 0)",
                   (file_id, str(path), stat.st_size, stat.st_mtime_ns, sha))
        db.execute("INSERT INTO chunks VALUES (?, ?, 0, ?, NULL, ?, 0, ?)", (file_id, file_id, text, heading, len(text)))
        db.execute("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)",
                   (file_id, keyword.index_text(f"{heading}\n{text}")))
        vector = embedder.embed([f"{heading}\n{text}"])[0]
        db.execute("INSERT INTO vectors VALUES (?, ?)", (file_id, vector.astype(np.float32).tobytes()))
    db.commit()
    db.close()


def test_a_schema_1_library_becomes_default_without_reembedding(tmp_path: Path, monkeypatch):
    docs, _ = two_folders(tmp_path)
    data = tmp_path / "old"
    _schema_1_library(data, docs)
    old = sqlite3.connect(data / "library.sqlite3")
    vectors_before = old.execute("SELECT chunk_id, vector FROM vectors ORDER BY chunk_id").fetchall()
    old.close()
    engine = Engine(resolve_paths(data), FAST)
    counting = CountingEmbedder()
    engine.runtime._embedders["hash:64"] = counting  # the engine's embedder cache: every passage embedding is counted
    try:
        assert engine.store.get_meta("schema_version") == str(SCHEMA_VERSION)
        assert [(c.name, c.sources, c.files, c.chunks) for c in engine.collections()] == [("Default", 1, 2, 2)]
        assert [s.collection_id for s in engine.sources()] == [1]
        default = engine.collection_id("Default")
        hits = engine.search("solar energy storage", 5, default)
        assert hits and hits[0].path.endswith("plants.txt")
        report = engine.index(collection=default)  # a re-scan: nothing changed on disk, nothing to embed
        assert (report.unchanged, report.embedded) == (2, 0)
        assert counting.passages == 0
        assert engine.store.db.execute("SELECT chunk_id, vector FROM vectors ORDER BY chunk_id").fetchall() == vectors_before
        new = engine.create_collection("Later")
        assert engine.conversation_collection(engine.new_conversation("x", collection=new)) == new
    finally:
        engine.close()


def test_restricted_dense_search_filters_inside_the_approximate_index_too(monkeypatch):
    import desktop_rag.engine.store.sqlite.vector_index as vi
    from desktop_rag.engine.store.sqlite.filters import id_selector

    monkeypatch.setattr(vi, "APPROX_THRESHOLD", 500)
    rng = np.random.default_rng(1)
    vectors = rng.standard_normal((3000, 32)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = np.arange(1, 3001, dtype=np.int64)
    index = vi.VectorIndex(32, vi._build(32, ids, vectors))
    assert index.approximate
    allowed = ids[ids % 5 == 0]
    for row in (4, 9, 1234):  # ids 5, 10, 1235: in the allowed set, so each is its own best hit
        found = index.search(vectors[row], 20, id_selector(allowed))
        assert found[0][0] == row + 1 and len(found) == 20
        assert all(cid % 5 == 0 for cid, _ in found)


def test_a_message_moved_into_another_collections_folder_is_found_there_only_with_its_attachment(two, tmp_path):
    """The collection of a passage is its file's source's (nothing on a chunk or vector carries one here): a message
    moved on disk into the other collection's folder, re-indexed by another process, is searched (keyword and the
    dense side's cached filter) in the new collection only, its attachment with it."""
    import os
    from email.message import EmailMessage

    from desktop_rag.engine.store.sqlite import filters

    engine, first, second, a, b = two
    message = EmailMessage()
    message["Subject"] = "Lantern audit"
    message.set_content("Lantern audit: the harbour fund paid zephyrine invoices.")
    message.add_attachment(b"Zephyrine invoices of the lantern audit.", maintype="text", subtype="plain",
                           filename="invoices.txt")
    (a / "audit.eml").write_bytes(bytes(message))
    engine.index()
    moved = {"audit.eml", "invoices.txt"}

    def found(collection: int) -> tuple[set[str], set[str]]:
        keyword_and_dense = {Path(h.path).name for h in engine.search("zephyrine invoices lantern", 20, collection)}
        ids = filters.vector_ids(engine.store, engine.restriction(collection=collection))
        count, _ = filters.member_filter(engine.store, engine.restriction(collection=collection))
        assert count == len(ids)
        dense = {Path(h.path).name for h in engine.store.hits_for([(int(i), 1.0) for i in ids])}
        return keyword_and_dense & moved, dense & moved

    assert found(first) == (moved, moved) and found(second) == (set(), set())  # (the filters are cached now)
    os.replace(a / "audit.eml", b / "audit.eml")
    other = Engine(resolve_paths(tmp_path / "data"), FAST)  # the command line, while the window stays open
    try:
        assert other.index().embedded == 0  # moved, not read again
    finally:
        other.close()
    assert found(first) == (set(), set()) and found(second) == (moved, moved)
