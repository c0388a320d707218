"""Export / import of collections: an identical library on a fresh data dir with nothing embedded again,
path mapping when the documents travel too, a model mismatch said first, and damaged or foreign archives
rejected with nothing changed.

The hashing embedder (hash:64, and hash:48 as "another model") is used: these tests are about what the
archive carries, not about meaning.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.archive.archive_file import ArchiveError
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import ModelMismatchError, UsageError
from tests.support.archives import dump
from tests.support.mail_attachments import harbour_message
from tests.support.two_collections import QUERIES, CountingEmbedder, search_results, two_folders

FAST = Settings(embedding_model="hash:64")


@pytest.fixture()
def source(tmp_path: Path):
    a, b = two_folders(tmp_path)
    engine = Engine(resolve_paths(tmp_path / "source"), FAST)
    grid = engine.create_collection("Grid")
    engine.index([a], collection=engine.collection_id("Default"))
    engine.index([b], collection=grid)
    yield engine, a, b
    engine.close()


def _fresh(path: Path, settings: Settings = FAST) -> tuple[Engine, CountingEmbedder]:
    engine = Engine(resolve_paths(path), settings)
    counting = CountingEmbedder()
    engine.runtime._embedders["hash:64"] = counting  # every passage embedding in the fresh library is counted
    return engine, counting


def _vectors_by_text(engine: Engine) -> dict[str, bytes]:
    rows = engine.store.db.execute("SELECT c.text, v.vector FROM chunks c JOIN vectors v ON v.chunk_id = c.id")
    return dict(rows.fetchall())


def test_round_trip_gives_identical_search_results_without_embedding(source, tmp_path: Path):
    engine, a, b = source
    default, grid = engine.collection_id("Default"), engine.collection_id("Grid")
    engine.export_collection(default, tmp_path / "default.zip")
    engine.export_collection(grid, tmp_path / "grid.zip")
    target, counting = _fresh(tmp_path / "fresh")
    try:
        target.create_collection("Scratch")  # the fresh library's own "Default" stays; imports are named apart
        statements: list[str] = []
        target.store.db.set_trace_callback(statements.append)
        first = target.import_archive(tmp_path / "default.zip", name="Plants")
        second = target.import_archive(tmp_path / "grid.zip")
        target.store.db.set_trace_callback(None)
        assert statements and not [s for s in statements if "ocr_lines" in s]  # no lines: none dropped, none added
        assert (first.vectors, first.to_embed, second.vectors, second.to_embed) == (2, 0, 2, 0)
        assert search_results(target, None) == search_results(engine, None)
        assert search_results(target, first.collection_id) == search_results(engine, default)
        assert search_results(target, second.collection_id) == search_results(engine, grid)
        assert counting.passages == 0
        assert _vectors_by_text(target) == _vectors_by_text(engine)
        # the sources keep their paths but are not linked: a run scans nothing until the user links them; linked
        # to the folders where the documents still are, each file's hash is checked and nothing is read again
        assert target.index().unchanged == 0 and set(target.status().not_linked) == {str(a), str(b)}
        for folder in (a, b):
            target.relink_source(str(folder), folder)
        report = target.index()
        assert (report.unchanged, report.embedded, report.removed) == (4, 0, 0) and counting.passages == 0
        assert target.status().not_linked == ()
    finally:
        target.close()
    reopened = Engine(resolve_paths(tmp_path / "fresh"), FAST)  # the FAISS cache saved by the import is valid
    try:
        assert search_results(reopened, None) == search_results(engine, None)
    finally:
        reopened.close()


def test_an_archives_recognised_lines_go_to_their_files_rows(source, tmp_path: Path):
    """The lines an archive carries for a file (a scanned PDF's: tests/engine/test_ocr_lines.py) are stored under
    that file's new row, each whole; a file without any gets none."""
    from tests.support.archives import forge

    engine, a, _ = source
    engine.export_collection(engine.collection_id("Default"), tmp_path / "plain.zip")
    lines = [[1, 0, 9, 72.0, 100.0, 300.5, 112.0], [2, 10, 30, 72.0, 130.0, 310.0, 142.25]]

    def add_lines(collection: dict) -> None:
        collection["files"][0]["ocr_lines"] = lines
    forge(tmp_path / "plain.zip", tmp_path / "lines.zip", rows=add_lines)
    named = json.loads(zipfile.ZipFile(tmp_path / "lines.zip").read("collection.json"))["files"][0]["path"]
    target, _ = _fresh(tmp_path / "fresh")
    try:
        target.import_archive(tmp_path / "lines.zip", name="Lines")
        rows = target.store.db.execute("SELECT f.path, l.page, l.char_start, l.char_end, l.x0, l.y0, l.x1, l.y1 "
                                       "FROM ocr_lines l JOIN files f ON f.id = l.file_id ORDER BY l.page").fetchall()
        assert [tuple(r) for r in rows] == [(named, *line) for line in lines]
    finally:
        target.close()


def test_a_collection_goes_into_the_empty_one_of_its_name_and_never_over_one_with_sources(source, tmp_path: Path):
    """One person's second computer: a fresh library has an empty "Default", and the archive of the first one's
    "Default" goes into it, without a name of its own; a collection of that name holding sources is never touched."""
    engine, a, _ = source
    default = engine.collection_id("Default")
    engine.export_collection(default, tmp_path / "default.zip")
    target, counting = _fresh(tmp_path / "fresh")
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "note.txt").write_text("A note of this computer's own, in a collection of its own.", encoding="utf-8")
    try:
        target.index([notes], collection=target.create_collection("Notes"))  # sources elsewhere do not matter
        empty, embedded = target.collection_id("Default"), counting.passages
        report = target.import_archive(tmp_path / "default.zip")
        assert (report.collection, report.collection_id, report.vectors) == ("Default", empty, 2)
        assert sorted(c.name for c in target.collections()) == ["Default", "Notes"]
        found = lambda: [Path(h.path).name for h in target.search("plants store solar energy", 2, collection=empty)]  # noqa: E731
        assert found()[0] == "plants.txt" and counting.passages == embedded
        with pytest.raises(UsageError, match="“Default” already exists here"):
            target.import_archive(tmp_path / "default.zip")
        assert found()[0] == "plants.txt" and target.status().chunks == report.chunks + 1
    finally:
        target.close()


def test_documents_travel_and_map_to_a_new_folder(source, tmp_path: Path):
    engine, a, b = source
    engine.export_collection(engine.collection_id("Grid"), tmp_path / "grid.zip", with_documents=True)
    target, counting = _fresh(tmp_path / "fresh")
    try:
        report = target.import_archive(tmp_path / "grid.zip", documents_dir=tmp_path / "moved")
        assert report.documents == 2 and report.documents_dir == str((tmp_path / "moved").resolve())
        assert (tmp_path / "moved" / "b" / "grid.txt").read_bytes() == (b / "grid.txt").read_bytes()
        hits = target.search("pumped hydro", 3, report.collection_id)
        assert hits[0].path == str((tmp_path / "moved" / "b" / "hydro.txt").resolve())
        scan = target.index(collection=report.collection_id)  # same bytes and mtimes: nothing read or embedded
        assert (scan.unchanged, scan.updated, scan.embedded) == (2, 0, 0) and counting.passages == 0
    finally:
        target.close()


def test_without_a_documents_folder_each_import_gets_a_new_one_beside_the_archive(source, tmp_path: Path):
    """The app has no folder to choose: the same archive imported again (after deleting its collection, or under
    another name) goes to "grid documents (2)", (3), ..., never refused for the first import's folder."""
    engine, _, b = source
    engine.export_collection(engine.collection_id("Grid"), tmp_path / "grid.zip", with_documents=True)
    target, _ = _fresh(tmp_path / "fresh")
    try:
        first = target.import_archive(tmp_path / "grid.zip")
        (tmp_path / "grid documents (2)").mkdir()  # an empty folder of that name takes them
        second = target.import_archive(tmp_path / "grid.zip", name="Grid again")
        target.delete_collection(first.collection_id)
        third = target.import_archive(tmp_path / "grid.zip")
        folders = [Path(r.documents_dir).name for r in (first, second, third)]
        assert folders == ["grid documents", "grid documents (2)", "grid documents (3)"]
        assert (tmp_path / "grid documents (3)" / "b" / "grid.txt").read_bytes() == (b / "grid.txt").read_bytes()
        assert sorted(c.name for c in target.collections()) == ["Default", "Grid", "Grid again"]
    finally:
        target.close()


def test_a_failed_write_removes_the_extracted_documents_and_changes_nothing(source, tmp_path: Path):
    """The library refuses the write (a real SQLite abort, from a trigger on its passages): the documents already
    extracted are removed again, no staging folder is left, no collection or row is added, and the same import
    works once the library accepts it."""
    import sqlite3

    engine, _, b = source
    engine.export_collection(engine.collection_id("Grid"), tmp_path / "grid.zip", with_documents=True)
    target, _ = _fresh(tmp_path / "fresh")
    try:
        before = target.status().chunks
        target.store.db.execute("CREATE TRIGGER refuse BEFORE INSERT ON chunks BEGIN SELECT RAISE(ABORT, 'full'); END")
        with pytest.raises(sqlite3.IntegrityError, match="full"):
            target.import_archive(tmp_path / "grid.zip", documents_dir=tmp_path / "moved")
        assert not (tmp_path / "moved").exists() and not list(tmp_path.glob(".moved*"))
        assert [c.name for c in target.collections()] == ["Default"] and target.status().chunks == before
        assert target.store.sources() == []
        target.store.db.execute("DROP TRIGGER refuse")
        report = target.import_archive(tmp_path / "grid.zip", documents_dir=tmp_path / "moved")
        assert (report.collection, report.documents, report.vectors, report.to_embed) == ("Grid", 2, 2, 0)
        assert report.to_json() == {"collection": "Grid", "collection_id": report.collection_id, "sources": 1,
                                    "files": 2, "chunks": 2, "vectors": 2, "to_embed": 0, "model": "hash:64",
                                    "documents": 2, "documents_dir": str((tmp_path / "moved").resolve())}
        assert (tmp_path / "moved" / "b" / "grid.txt").read_bytes() == (b / "grid.txt").read_bytes()
    finally:
        target.close()


def test_documents_with_control_characters_in_their_names_travel_too(tmp_path: Path):
    """A newline, an escape or a backslash is a valid file name: the document goes in the archive under a
    cleaned member name and comes out under the import's cleaned file name (a backslash never makes a folder),
    so its passages survive the next run."""
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "new\nline.txt").write_text("Kangaroos carry their young in a pouch.\n", encoding="utf-8")
    (folder / "esc\x1b[31m.txt").write_text("Penguins live in Antarctica.\n", encoding="utf-8")
    (folder / "back\\slash.txt").write_text("Owls hunt at night.\n", encoding="utf-8")  # one name on POSIX
    engine = Engine(resolve_paths(tmp_path / "source"), FAST)
    try:
        engine.index([folder])
        report = engine.export_collection(engine.collection_id("Default"), tmp_path / "odd.zip", with_documents=True)
    finally:
        engine.close()
    assert (report.documents, report.missing_documents) == (3, ())
    target, counting = _fresh(tmp_path / "fresh")
    try:
        imported = target.import_archive(tmp_path / "odd.zip", name="Odd", documents_dir=tmp_path / "moved")
        assert imported.documents == 3
        assert sorted(p.name for p in (tmp_path / "moved" / "odd").iterdir()) == \
            ["back_slash.txt", "esc_[31m.txt", "new_line.txt"]
        scan = target.index(collection=imported.collection_id)
        assert (scan.unchanged, scan.removed, scan.embedded) == (3, 0, 0) and counting.passages == 0
        assert target.status(imported.collection_id).chunks == 3
    finally:
        target.close()


def test_export_to_a_folder_or_an_unwritable_place_is_refused_with_a_message(source, tmp_path: Path):
    """`export --collection X ~/Desktop` named a folder: the archive was written to a temp file, then the rename onto
    the folder failed with an IsADirectoryError traceback; a place that cannot be written gave an OSError one."""
    engine, a, b = source
    default = engine.collection_id("Default")
    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(UsageError, match="is a folder: name the archive file"):
        engine.export_collection(default, folder)
    assert list(folder.iterdir()) == [] and not list(tmp_path.glob(".out.*"))
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(UsageError, match="cannot be written in"):
        engine.export_collection(default, blocker / "x.zip")


def test_another_model_is_said_first_and_reembeds_only_when_asked(source, tmp_path: Path):
    engine, a, b = source
    engine.export_collection(engine.collection_id("Grid"), tmp_path / "grid.zip")
    other = Settings(embedding_model="hash:48")
    target = Engine(resolve_paths(tmp_path / "other"), other)
    try:
        target.index([a])  # this library's vectors are hash:48
        before = dump(target)
        with pytest.raises(ModelMismatchError, match="hash:64.*hash:48"):
            target.import_archive(tmp_path / "grid.zip")
        assert dump(target) == before
        report = target.import_archive(tmp_path / "grid.zip", reembed=True)
        assert (report.vectors, report.to_embed) == (0, 2)
        target.index([], collection=report.collection_id)
        assert target.status(report.collection_id).chunks_pending_embedding == 0
        assert target.store.get_meta("embedding_model") == "hash:48" and target.runtime.vectors().dimension == 48
        assert {h.path for h in target.search("pumped hydro grid", 5, report.collection_id)} <= {
            str(b / "grid.txt"), str(b / "hydro.txt")}
    finally:
        target.close()


def _rewrite(src: Path, dst: Path, change) -> None:
    """Copy an archive member by member, letting `change(name, data)` return new (name, data) or None."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            out = change(info.filename, zin.read(info))
            if out is not None:
                zout.writestr(out[0], out[1])


def _with_manifest(edit):
    def change(name, data):
        if name != "manifest.json":
            return name, data
        manifest = json.loads(data)
        edit(manifest)
        return name, json.dumps(manifest).encode()
    return change


def _flip_chunk_text(name, data):
    return (name, data.replace(b"Pumped hydro", b"Pumped HYDRO")) if name == "chunks.jsonl" else (name, data)


def _evil_member(manifest):
    manifest["members"]["../../evil.txt"] = {"size": 1, "sha256": "0" * 64}


@pytest.mark.parametrize("damage, message", [
    ("truncated", "not a readable zip file"),
    ("not a zip", "not a readable zip file"),
    ("foreign zip", "no manifest.json"),
    ("edited chunk", "does not match its checksum"),
    ("missing member", "is missing"),
    ("zip-slip name", "unexpected member name"),
    ("newer format", "newer Desktop RAG"),
    ("wrong counts", "counts do not match"),
])
def test_a_damaged_or_foreign_archive_is_rejected_and_nothing_changes(source, tmp_path: Path, damage, message):
    engine, a, b = source
    good = tmp_path / "grid.zip"
    engine.export_collection(engine.collection_id("Grid"), good, with_documents=True)
    bad = tmp_path / "bad.zip"
    if damage == "truncated":
        bad.write_bytes(good.read_bytes()[: good.stat().st_size * 2 // 3])
    elif damage == "not a zip":
        bad.write_bytes(b"%PDF-1.7 definitely not an archive")
    elif damage == "foreign zip":
        with zipfile.ZipFile(bad, "w") as zf:
            zf.writestr("readme.txt", "hello")
    elif damage == "edited chunk":
        _rewrite(good, bad, _flip_chunk_text)
    elif damage == "missing member":
        _rewrite(good, bad, lambda n, d: None if n == "vectors.f32" else (n, d))
    elif damage == "zip-slip name":
        _rewrite(good, bad, _with_manifest(_evil_member))
    elif damage == "newer format":
        _rewrite(good, bad, _with_manifest(lambda m: m.update(format_version=99)))
    else:
        _rewrite(good, bad, _with_manifest(lambda m: m["counts"].update(chunks=7)))
    target = Engine(resolve_paths(tmp_path / "target"), FAST)
    try:
        target.index([a])
        before, listing = dump(target), sorted(p.name for p in tmp_path.iterdir())
        with pytest.raises(ArchiveError, match=message) as caught:
            target.import_archive(bad, documents_dir=tmp_path / "docs-out")
        assert "Nothing was changed" in str(caught.value)
        assert dump(target) == before
        assert sorted(p.name for p in tmp_path.iterdir()) == listing  # no documents folder, no stray files
        assert not (tmp_path.parent / "evil.txt").exists()
    finally:
        target.close()


def test_the_archive_holds_float32_vectors_and_a_hashed_manifest(source, tmp_path: Path):
    engine, a, b = source
    report = engine.export_collection(engine.collection_id("Grid"), tmp_path / "grid.zip")
    with zipfile.ZipFile(tmp_path / "grid.zip") as zf:
        manifest = json.loads(zf.read("manifest.json"))
        for name, entry in manifest["members"].items():
            assert hashlib.sha256(zf.read(name)).hexdigest() == entry["sha256"]
        vectors = np.frombuffer(zf.read("vectors.f32"), dtype="<f4").reshape(-1, 64)
    assert manifest["format"] == "desktop-rag-collection" and manifest["embedding_model"] == "hash:64"
    assert manifest["counts"] == {"sources": 1, "files": 2, "chunks": 2, "vectors": 2, "documents": 0}
    assert report.vectors == 2 and np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert QUERIES  # the shared queries are what the round trip compares


def test_stored_paths_are_split_as_the_system_that_wrote_them():
    """A Windows path splits at either slash; a POSIX one only at "/", where a backslash belongs to a name."""
    from desktop_rag.engine.archive.importer import _relative_parts

    assert _relative_parts("C:\\Users\\me\\docs\\sub\\a.txt", "C:\\Users\\me\\docs") == ["sub", "a.txt"]
    assert _relative_parts("\\\\server\\share\\docs/sub\\a.txt", "\\\\server\\share\\docs\\") == ["sub", "a.txt"]
    assert _relative_parts("/home/me/docs/sub/a\\b.txt", "/home/me/docs/") == ["sub", "a_b.txt"]
    assert _relative_parts("/home/me/elsewhere/a\\b.txt", "/home/me/docs") == ["a_b.txt"]


def _library_rows(engine: Engine) -> dict[str, list[tuple]]:
    """Every file's and passage's fields an archive carries, by path, and the library's model and chunking."""
    db = engine.store.db
    files = db.execute("SELECT f.path, f.size, f.mtime_ns, f.sha256, f.status, f.error, f.reason, f.chunk_count, "
                       "p.path FROM files f LEFT JOIN files p ON p.id = f.parent_id ORDER BY f.path").fetchall()
    chunks = db.execute("SELECT f.path, c.ordinal, c.text, c.page, c.heading, c.char_start, c.char_end, c.ocr "
                        "FROM chunks c JOIN files f ON f.id = c.file_id ORDER BY f.path, c.ordinal").fetchall()
    meta = [(k, engine.store.get_meta(k)) for k in ("embedding_model", "dimension", "chunk_size", "chunk_overlap")]
    return {"files": files, "chunks": chunks, "meta": meta}


def test_an_import_carries_every_field_of_files_and_passages(tmp_path: Path):
    """A message with a text and a three-page PDF attached (pages, headings, spans, attachments below their
    message), a document that failed (its reason), and the library's model and chunking: row for row the same in a
    fresh library after the import, with each vector on the passage it was made for."""
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "harbour.eml").write_bytes(bytes(harbour_message()))
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 not really a PDF")
    (folder / "notes.txt").write_text("Kangaroos carry their young in a pouch.\n\nOwls hunt at night.", "utf-8")
    engine = Engine(resolve_paths(tmp_path / "source"), FAST)
    try:
        report = engine.index([folder])
        assert report.failed and report.attachments == 2
        engine.export_collection(engine.collection_id("Default"), tmp_path / "mixed.zip")
        expected, vectors = _library_rows(engine), _vectors_by_text(engine)
    finally:
        engine.close()
    target, counting = _fresh(tmp_path / "fresh")
    try:
        target.import_archive(tmp_path / "mixed.zip")
        assert _library_rows(target) == expected and _vectors_by_text(target) == vectors
        assert any(page == 3 for *_, page, _, _, _, _ in expected["chunks"])  # the PDF's pages came along
        assert counting.passages == 0
    finally:
        target.close()


def test_a_free_name_for_an_import_fits_the_name_limit(source, tmp_path: Path):
    engine, a, _ = source
    long = "长" * 80
    taken = engine.create_collection(long)
    (tmp_path / "long").mkdir()
    (tmp_path / "long" / "x.txt").write_text("x", encoding="utf-8")
    engine.index([tmp_path / "long"], collection=taken)
    assert engine.free_import_name("Default") == "Default (2)" and engine.free_import_name("Grid") == "Grid (2)"
    assert engine.free_import_name(long) == "长" * 76 + " (2)"
    assert engine.free_import_name("Empty") == "Empty"
    engine.create_collection("empty")  # an empty collection of the name takes the import
    assert engine.free_import_name("EMPTY") == "EMPTY"
    assert engine.free_import_name("默认知识库", reserved=("默认知识库",)) == "默认知识库 (2)"  # how "Default" shows
    assert engine.free_import_name("Empty", reserved=("EMPTY (2)",)) == "Empty"


def test_documents_that_cannot_be_written_beside_the_archive_are_refused_with_a_message(source, tmp_path: Path):
    """An archive on a read-only place (a USB stick, a disc): its documents' default folder cannot be made. It was
    an OSError traceback ("[Errno 30] Read-only file system: '…/.grid documents.importing-…'")."""
    from tests.support.read_only import read_only_folder

    engine, _, b = source
    stick = tmp_path / "stick"
    stick.mkdir()
    engine.export_collection(engine.collection_id("Grid"), stick / "grid.zip", with_documents=True)
    target, _ = _fresh(tmp_path / "fresh")
    try:
        with read_only_folder(stick) as mounted:
            with pytest.raises(UsageError) as raised:
                target.import_archive(mounted / "grid.zip")
            assert raised.value.code == "documents_dir_not_writable" and str(mounted) in str(raised.value)
            assert [c.name for c in target.collections()] == ["Default"] and target.status().chunks == 0
            report = target.import_archive(mounted / "grid.zip", documents_dir=tmp_path / "here")
        assert report.documents == 2 and (tmp_path / "here" / "b" / "grid.txt").read_bytes() == (
            b / "grid.txt").read_bytes()
    finally:
        target.close()


def test_an_import_into_the_empty_collection_of_its_name_reports_that_collections_name(source, tmp_path: Path):
    """"Imported “GRID”" named a collection that is "grid" (the empty one the import filled, another letter case)."""
    engine, _, _ = source
    engine.export_collection(engine.collection_id("Grid"), tmp_path / "grid.zip")
    target, _ = _fresh(tmp_path / "fresh")
    try:
        empty = target.create_collection("grid")
        report = target.import_archive(tmp_path / "grid.zip", name="GRID")
        assert (report.collection, report.collection_id) == ("grid", empty)
        assert [c.name for c in target.collections()] == ["Default", "grid"]
    finally:
        target.close()
