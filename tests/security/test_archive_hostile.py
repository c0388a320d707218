"""Attack: a collection archive from someone else names local folders, bombs memory, carries programs, or is
changed after it was checked; an export copies what a swapped-in link points at.

Each archive here is made the way an attacker would: a real export from a real library, then its rows and
members edited and its manifest re-hashed so every checksum agrees. The hashing embedder (hash:64) is used:
these tests are about what the archive can make the app do, not about meaning.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from desktop_rag.config import resolve_paths
from desktop_rag.engine import Engine, UsageError
from desktop_rag.engine.archive.archive_file import ArchiveError
from tests.support.archives import (BEYOND_32_BITS, FAST, SECRET, dump, exported, forge, library, move_rows,
                                    refused)


# ---- sources that name local folders --------------------------------------------------------------------


def test_an_archive_source_naming_a_local_folder_is_never_scanned_until_the_user_links_it(tmp_path: Path):
    archive, _ = exported(tmp_path)
    private = tmp_path / "home" / "private"  # a folder outside the archive, on the victim's computer
    private.mkdir(parents=True)
    (private / "vault.txt").write_text(f"Vault\n\n{SECRET}.", encoding="utf-8")
    evil = tmp_path / "evil.zip"
    forge(archive, evil, rows=lambda c: move_rows(c, str(private)))
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST)
    try:
        victim.import_archive(evil, name="Shared")
        report = victim.index()  # what `desktop-rag index` and the window's start-up scan do
        assert report.added == 0 and report.removed == 0
        assert not any("vault" in h.path for h in victim.search("vault combination"))
        assert victim.status().not_linked == (str(private),)
        assert victim.store.file_linked(str(private / "plan.txt")) is False  # the viewer reads nothing there
        with pytest.raises(UsageError, match="not linked"):
            victim.index([private / "vault.txt"])  # a path inside it does not scan it either
        assert not any("vault" in h.path for h in victim.search("vault combination"))
        # the user links it to a folder of their choice: only then is anything read, and only there
        chosen = tmp_path / "chosen"
        chosen.mkdir()
        (chosen / "plan.txt").write_text("Garden plan\n\nTomatoes go along the south fence.", encoding="utf-8")
        victim.relink_source(str(private), chosen)
        victim.index()
        assert victim.status().not_linked == ()
        assert {f.path for f in victim.files()} == {str(chosen / "plan.txt")}
        assert not any("vault" in h.path for h in victim.search("vault combination"))
    finally:
        victim.close()


def test_the_command_line_shows_not_linked_and_links_to_a_chosen_folder(tmp_path: Path, capsys):
    from desktop_rag.cli.main import main
    from desktop_rag.config import save_settings

    archive, docs = exported(tmp_path)
    data = str(tmp_path / "victim")
    save_settings(resolve_paths(data).ensure(), FAST)
    assert main(["--data-dir", data, "import", str(archive), "--name", "Shared"]) == 0
    capsys.readouterr()
    assert main(["--data-dir", data, "status"]) == 0
    assert "not linked" in capsys.readouterr().out
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    (chosen / "plan.txt").write_bytes((docs / "plan.txt").read_bytes())
    assert main(["--data-dir", data, "link", str(docs), str(chosen)]) == 0
    out = capsys.readouterr().out
    assert "Linked" in out and "1 unchanged" in out  # same bytes as indexed: nothing read again
    assert main(["--data-dir", data, "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["not_linked"] == [] and status["sources"] == [str(chosen)]


@pytest.mark.parametrize("where, message", [
    ("above an existing source", "overlaps"),
    ("relative", "absolute local path"),
    ("a network share", "absolute local path"),
    ("with ..", "absolute local path"),
    ("a file outside its source", "outside its source"),
])
def test_archive_sources_that_overlap_or_are_not_absolute_local_paths_are_refused(tmp_path: Path, where, message):
    archive, _ = exported(tmp_path)
    victim, mine = library(tmp_path / "victim", {"mine.txt": "Mine\n\nMy own notes."})
    forged = {
        "above an existing source": lambda c: move_rows(c, str(mine.parent)),
        "relative": lambda c: move_rows(c, "docs"),
        "a network share": lambda c: move_rows(c, "\\\\attacker\\share\\docs", "\\"),
        "with ..": lambda c: move_rows(c, str(mine / ".." / "elsewhere")),
        "a file outside its source": lambda c: c["files"][0].update(path=str(tmp_path / "home" / "x.txt")),
    }[where]
    evil = tmp_path / "evil.zip"
    forge(archive, evil, rows=forged)
    try:
        before = dump(victim)
        with pytest.raises(UsageError, match=message) as caught:
            victim.import_archive(evil, name="Shared")
        assert "Nothing was changed" in str(caught.value)
        assert dump(victim) == before
    finally:
        victim.close()


# ---- zip bombs ----------------------------------------------------------------------------------------------

_READ_IN_CHILD = """
import json, resource, sys, time
from pathlib import Path
from desktop_rag.engine.archive.archive_file import read_archive
def peak_mb():  # VmHWM, this process's own peak: on Linux ru_maxrss keeps the forking parent's across exec
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
start = time.monotonic()
try:
    read_archive(Path(sys.argv[1]))
    error = ""
except Exception as exc:
    error = str(exc)
print(json.dumps({"error": error, "seconds": time.monotonic() - start,
                  "rss_mb": peak_mb()}))
"""


def _bomb(archive: Path, target: Path, member: str, consistent: bool = False) -> None:
    """`archive` with `member` inflating to 1 GiB of zeros (about 1 MB compressed). `consistent`: the manifest's
    counts and ids agree with a vectors member of that size, so only the compression ratio gives it away."""
    size, block = 1 << 30, bytes(1 << 20)
    digest = hashlib.sha256()
    for _ in range(size // len(block)):
        digest.update(block)
    with zipfile.ZipFile(archive) as zf:
        members = {n: zf.read(n) for n in zf.namelist() if n != member}
    manifest = json.loads(members.pop("manifest.json"))
    manifest["members"][member] = {"size": size, "sha256": digest.hexdigest()}
    if consistent:
        count = size // (64 * 4)
        ids = bytes(count * 8)
        members["vector_ids.i64"] = ids
        manifest["members"]["vector_ids.i64"] = {"size": len(ids), "sha256": hashlib.sha256(ids).hexdigest()}
        manifest["counts"]["vectors"] = count
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
        with zf.open(member, "w", force_zip64=True) as out:
            for _ in range(size // len(block)):
                out.write(block)
        zf.writestr("manifest.json", json.dumps(manifest))


@pytest.mark.parametrize("member, consistent, message", [
    ("vectors.f32", False, "do not match their count"),
    ("vectors.f32", True, "inflates more than"),
    ("documents/1/plan.txt", False, "inflates more than"),
])
def test_a_zip_bomb_is_refused_from_its_headers_without_inflating_it(tmp_path: Path, member, consistent, message):
    archive, _ = exported(tmp_path, with_documents=member.startswith("documents/"))
    bomb = tmp_path / "bomb.zip"
    _bomb(archive, bomb, member, consistent)
    assert bomb.stat().st_size < 8 << 20
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, "-c", _READ_IN_CHILD, str(bomb)], capture_output=True, text=True,
                          timeout=300, env=env)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert message in result["error"] and "Nothing was changed" in result["error"]
    assert result["rss_mb"] < 300, result  # the old code read the whole member first: 2.1 GB, 15-20 s
    assert result["seconds"] < 5, result


def test_an_import_checks_free_disk_space_first(tmp_path: Path, monkeypatch):
    import shutil

    from desktop_rag.engine.archive import importer

    archive, _ = exported(tmp_path, with_documents=True)
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST)
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(importer.shutil, "disk_usage", lambda _p: usage._replace(free=importer.SPACE_MARGIN))
    try:
        with pytest.raises(UsageError, match="Not enough free disk space"):
            victim.import_archive(archive, name="Shared", documents_dir=tmp_path / "out")
        assert not (tmp_path / "out").exists() and victim.collection_id("Default") and len(victim.collections()) == 1
    finally:
        victim.close()


# ---- programs dressed as documents ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Quarterly report.pdf.bat", "invoice.exe"])
def test_a_document_of_an_unsupported_type_is_never_written(tmp_path: Path, name):
    archive, docs = exported(tmp_path, with_documents=True)

    def rows(collection):
        collection["files"][0]["path"] = str(docs / name)
    file_id = json.loads(zipfile.ZipFile(archive).read("collection.json"))["files"][0]["id"]
    evil = tmp_path / "evil.zip"
    forge(archive, evil, rows=rows, documents={f"documents/{file_id}/{name}": b"@echo off\r\ncalc.exe\r\n"})
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST)
    try:
        with pytest.raises(ArchiveError, match="not a supported document type"):
            victim.import_archive(evil, name="Shared", documents_dir=tmp_path / "out")
        assert not (tmp_path / "out").exists()
        assert not list(tmp_path.glob(".out.importing-*"))
        assert not any(p.name == name for p in tmp_path.rglob("*"))
    finally:
        victim.close()


def test_the_viewer_hands_only_local_supported_documents_to_the_system():
    from desktop_rag.gui.text import openable_file

    assert openable_file("/home/me/Quarterly report.pdf")
    assert openable_file("C:\\Users\\me\\notes.docx")
    assert not openable_file("/home/me/Quarterly report.pdf.bat")
    assert not openable_file("C:\\Users\\me\\invoice.exe")
    assert not openable_file("\\\\attacker\\share\\report.pdf")
    assert not openable_file("//attacker/share/report.pdf")


# ---- export: a link swapped in ---------------------------------------------------------------------------------


def test_export_leaves_out_a_document_replaced_by_a_link_or_changed_since_indexing(tmp_path: Path):
    engine, docs = library(tmp_path / "me", {"a.txt": "Alpha\n\nShared notes.", "b.txt": "Beta\n\nMore notes.",
                                              "c.txt": "Gamma\n\nThird note."})
    private = tmp_path / "private.txt"
    private.write_text(SECRET, encoding="utf-8")
    (docs / "a.txt").unlink()
    os.symlink(private, docs / "a.txt")  # swapped in after indexing
    (docs / "b.txt").write_text("Beta\n\nRewritten since it was indexed.", encoding="utf-8")
    try:
        report = engine.export_collection(engine.collection_id("Default"), tmp_path / "out.zip", with_documents=True)
    finally:
        engine.close()
    with zipfile.ZipFile(tmp_path / "out.zip") as zf:
        body = b"".join(zf.read(n) for n in zf.namelist() if n.startswith("documents/"))
    assert SECRET.encode() not in body
    assert set(report.missing_documents) == {str(docs / "a.txt"), str(docs / "b.txt")}
    assert report.documents == 1 and b"Third note" in body


# ---- changed after the check -------------------------------------------------------------------------------------


def test_a_document_changed_after_the_archive_was_checked_is_not_extracted(tmp_path: Path):
    """The app checks an archive (the GUI's import dialog), then imports it: bytes changed in between are caught
    by the second sha256 check during extraction."""
    archive, _ = exported(tmp_path, with_documents=True)
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST)
    try:
        content = victim.read_archive(archive)
        with zipfile.ZipFile(archive) as zf:
            members = {n: zf.read(n) for n in zf.namelist()}
        name = next(n for n in members if n.startswith("documents/"))
        members[name] = members[name].swapcase()  # same size, other bytes
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
            for n, data in members.items():
                zf.writestr(n, data)
        before = dump(victim)
        with pytest.raises(ArchiveError, match="changed while it was being extracted"):
            victim.import_archive(archive, name="Shared", content=content, documents_dir=tmp_path / "out")
        assert dump(victim) == before
        assert not (tmp_path / "out").exists() and not list(tmp_path.glob(".out.importing-*"))
    finally:
        victim.close()


# ---- bad values: a message, never a traceback ----------------------------------------------------------------------


def test_numbers_beyond_64_bits_are_refused_with_a_message(tmp_path: Path):
    archive, _ = exported(tmp_path)
    evil = tmp_path / "evil.zip"
    forge(archive, evil, rows=lambda c: c["files"][0].update(mtime_ns=2 ** 64))
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST)
    try:
        with pytest.raises(ArchiveError, match="number out of range"):
            victim.import_archive(evil, name="Shared")
    finally:
        victim.close()


@pytest.mark.parametrize("field", sorted(BEYOND_32_BITS))
def test_numbers_beyond_32_bits_are_refused_with_the_archives_own_message(tmp_path: Path, field: str):
    archive, _ = exported(tmp_path)
    evil = tmp_path / "evil.zip"
    edits, phrase = BEYOND_32_BITS[field]
    forge(archive, evil, **edits)
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST)
    try:
        before = dump(victim)
        refused(victim, evil, phrase)
        assert dump(victim) == before
    finally:
        victim.close()


BAD_CHUNKING = [{"chunk_size": 10 ** 100}, {"chunk_size": 2 ** 31}, {"chunk_size": -1}, {"chunk_size": "500"},
                {"chunk_size": 0}, {"chunk_size": True}, {"chunk_overlap": 500}, {"chunk_overlap": 501},
                {"chunk_size": 40, "chunk_overlap": 45}]  # the archive's own: chunk_size 500, chunk_overlap 50


@pytest.mark.parametrize("chunking", BAD_CHUNKING)
def test_chunking_settings_that_cannot_cut_text_are_refused_not_made_an_empty_librarys(tmp_path: Path, chunking):
    """An empty library takes an archive's chunking settings as its own: one of a hundred digits became its
    chunk_size (and every later mismatch message quoted it); a chunk size of 0 or an overlap not below it made
    every later index run refuse the settings in use, which cannot be set back to those."""
    archive, _ = exported(tmp_path)
    evil = tmp_path / "evil.zip"
    forge(archive, evil, manifest_edit=lambda m: m["chunking"].update(chunking))
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST)
    try:
        before = dump(victim)
        refused(victim, evil, "chunking")
        assert dump(victim) == before and victim.store.get_meta("chunk_size") is None
    finally:
        victim.close()


def test_a_library_takes_an_archives_chunking_settings_whole_or_not_at_all(tmp_path: Path):
    """One archive gives only a chunk size, another only an overlap larger than it: each fits alone, but the
    library takes settings only while it has recorded none, so the two never make a pair that cannot cut text."""
    archive, _ = exported(tmp_path)
    size_only, overlap_only = tmp_path / "size.zip", tmp_path / "overlap.zip"
    forge(archive, size_only, manifest_edit=lambda m: m["chunking"].update(chunk_size=100, chunk_overlap=None))
    forge(archive, overlap_only, manifest_edit=lambda m: m["chunking"].update(chunk_size=None, chunk_overlap=600),
          rows=lambda c: move_rows(c, str(tmp_path / "elsewhere")))
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST)
    try:
        victim.import_archive(size_only, name="Sizes")
        victim.import_archive(overlap_only, name="Overlaps")
        assert (victim.store.get_meta("chunk_size"), victim.store.get_meta("chunk_overlap")) == ("100", None)
    finally:
        victim.close()


@pytest.mark.parametrize("held", [("0", "50"), ("500", "500"), ("1" + "0" * 100, "50"), ("abc", "50")])
def test_a_library_holding_chunking_settings_that_cannot_cut_text_takes_the_ones_in_use(tmp_path: Path, caplog,
                                                                                          held):
    """A library that took such settings from an archive before imports checked them: its next index run records
    the settings in use over them, with a warning in the log, and keeps every passage (its not-linked sources
    could not be read again); an export writes none of them, so the archive imports."""
    archive, _ = exported(tmp_path)
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST)
    try:
        victim.import_archive(archive, name="Shared")
        with victim.store.transaction():
            for key, value in zip(("chunk_size", "chunk_overlap"), held):
                victim.store.set_meta(key, value)
        passages = victim.status().chunks
        assert not victim.needs_reindex()
        victim.export_collection(victim.collection_id("Shared"), tmp_path / "again.zip")
        with zipfile.ZipFile(tmp_path / "again.zip") as zf:
            assert json.loads(zf.read("manifest.json"))["chunking"] == {"chunk_size": None, "chunk_overlap": None}
        with caplog.at_level("WARNING", logger="desktop_rag.engine.store.chunking"):
            victim.index()
        assert "cannot cut text" in caplog.text and len(caplog.text) < 1000
        assert (victim.store.get_meta("chunk_size"), victim.store.get_meta("chunk_overlap")) == ("500", "50")
        assert victim.status().chunks == passages and victim.status().not_linked
        assert any("south fence" in h.text for h in victim.search("tomatoes south fence"))
        assert victim.needs_reindex(FAST.replace(chunk_size=300))  # recorded as any library's from here on
        other = Engine(resolve_paths(tmp_path / "other"), FAST)
        try:
            other.import_archive(tmp_path / "again.zip", name="Again")
            assert other.store.get_meta("chunk_size") is None
        finally:
            other.close()
    finally:
        victim.close()


def test_names_that_collide_once_cleaned_are_told_apart_or_refused(tmp_path: Path):
    archive, docs = exported(tmp_path, with_documents=True)
    ids = [f["id"] for f in json.loads(zipfile.ZipFile(archive).read("collection.json"))["files"]]

    def colliding(first: str, second: str):
        def rows(collection):
            collection["files"][0]["path"] = str(docs / first)
            collection["files"][1]["path"] = str(docs / second)
        return rows
    victim = Engine(resolve_paths(tmp_path / "victim"), FAST)
    try:
        same = tmp_path / "same.zip"
        forge(archive, same, rows=colliding("a:b.txt", "a_b.txt"),
               documents={f"documents/{ids[0]}/a_b.txt": b"first", f"documents/{ids[1]}/a_b.txt": b"second"})
        victim.import_archive(same, name="Same", documents_dir=tmp_path / "out")
        written = sorted(p.name for p in (tmp_path / "out").rglob("*.txt"))
        assert written == ["a_b (2).txt", "a_b.txt"]
        nested = tmp_path / "nested.zip"
        forge(archive, nested, rows=colliding("x.txt", "x.txt/y.txt"),
               documents={f"documents/{ids[0]}/x.txt": b"first", f"documents/{ids[1]}/y.txt": b"second"})
        with pytest.raises(ArchiveError, match="has the name of a document"):
            victim.import_archive(nested, name="Nested", documents_dir=tmp_path / "out2")
        assert not (tmp_path / "out2").exists()
    finally:
        victim.close()
