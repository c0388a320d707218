"""Archives made the way an attacker would: a real export from a real library, then its rows and members edited
and its manifest re-hashed so every checksum agrees (so the import's own checks are what refuses it). Shared by the
archive tests on SQLite (tests/security, tests/engine) and on a server library (tests/postgres)."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.archive.archive_file import ArchiveError
from desktop_rag.engine.engine import Engine

FAST = Settings(embedding_model="hash:64")  # these tests are about what an archive can make the app do, not meaning
SECRET = "the vault combination is 31-41-59"


def library(root: Path, files: dict[str, str]) -> tuple[Engine, Path]:
    """A library at `root`/lib with `files` (name -> text) in `root`/docs, indexed."""
    docs = root / "docs"
    docs.mkdir(parents=True)
    for name, text in files.items():
        (docs / name).write_text(text, encoding="utf-8")
    engine = Engine(resolve_paths(root / "lib"), FAST)
    engine.index([docs])
    return engine, docs


def exported(tmp_path: Path, with_documents: bool = False) -> tuple[Path, Path]:
    """(shared.zip: a library's "Default" of two notes exported, the notes' folder)."""
    engine, docs = library(tmp_path / "author", {"plan.txt": "Garden plan\n\nTomatoes go along the south fence.",
                                                 "notes.txt": "Notes\n\nWater the beans every second morning."})
    archive = tmp_path / "shared.zip"
    engine.export_collection(engine.collection_id("Default"), archive, with_documents=with_documents)
    engine.close()
    return archive, docs


def forge(src: Path, dst: Path, rows=None, documents: dict[str, bytes] | None = None,
          manifest_edit=None, chunks=None) -> None:
    """`src` with collection.json edited by `rows(collection)`, chunks.jsonl by `chunks(list of chunk rows)`,
    documents replaced, the manifest re-hashed (then edited by `manifest_edit(manifest)`)."""
    with zipfile.ZipFile(src) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    manifest = json.loads(members.pop("manifest.json"))
    if rows is not None:
        collection = json.loads(members["collection.json"])
        rows(collection)
        members["collection.json"] = json.dumps(collection).encode()
    if chunks is not None:
        chunk_rows = [json.loads(line) for line in members["chunks.jsonl"].splitlines() if line.strip()]
        chunks(chunk_rows)
        members["chunks.jsonl"] = b"\n".join(json.dumps(c).encode() for c in chunk_rows) + b"\n"
    if documents is not None:
        for name in [n for n in members if n.startswith("documents/")]:
            del members[name], manifest["members"][name]
        members.update(documents)
    for name, data in members.items():
        manifest["members"][name] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    manifest["counts"]["documents"] = sum(1 for n in members if n.startswith("documents/"))
    if manifest_edit is not None:
        manifest_edit(manifest)
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
        zf.writestr("manifest.json", json.dumps(manifest))


def move_rows(collection: dict, folder: str, sep: str = "/") -> None:
    """Every source and file of the archive moved to `folder` (names kept)."""
    for source in collection["sources"]:
        source["path"] = folder
    for f in collection["files"]:
        f["path"] = folder.rstrip("/\\") + sep + f["path"].replace("\\", "/").rsplit("/", 1)[-1]


# Numbers past what the server's 32-bit columns hold (chunks.ordinal/page/char_start/char_end, files.chunk_count,
# ocr_lines.page/char_start/char_end): each is the archive's own message on either backend.
BEYOND_32_BITS = {
    "chunk_count": ({"rows": lambda c: c["files"][0].update(chunk_count=2 ** 31)}, "rows.number_range"),
    "ordinal": ({"chunks": lambda rows: rows[0].update(ordinal=2 ** 31)}, "rows.number_range"),
    "page": ({"chunks": lambda rows: rows[0].update(page=2 ** 31)}, "rows.number_range"),
    "char_end": ({"chunks": lambda rows: rows[0].update(char_end=2 ** 40)}, "rows.number_range"),
    "ocr_line_page": ({"rows": lambda c: c["files"][0].update(ocr_lines=[[2 ** 31, 0, 5, 1.0, 1.0, 9.0, 9.0]])},
                      "rows.ocr_lines"),
    "ocr_line_end": ({"rows": lambda c: c["files"][0].update(ocr_lines=[[1, 0, 2 ** 31, 1.0, 1.0, 9.0, 9.0]])},
                     "rows.ocr_lines"),
}


def refused(victim: Engine, evil: Path, phrase: str) -> None:
    """Importing `evil` into `victim` raises the archive's own reason `phrase.archive.{phrase}` (English and
    Chinese)."""
    from desktop_rag.engine.errors import error_text
    from desktop_rag.engine.messages import message

    with pytest.raises(ArchiveError) as caught:
        victim.import_archive(evil, name="Shared")
    for language in ("en", "zh"):
        assert message(f"phrase.archive.{phrase}", language) in error_text(caught.value, language)


def dump(engine: Engine) -> str:
    """Every row of a SQLite library's content tables, for "nothing changed"."""
    db = engine.store.db
    tables = ["collections", "sources", "files", "chunks", "vectors", "chunks_fts", "conversations"]
    rows = {t: [list(map(_plain, r)) for r in db.execute(f"SELECT * FROM {t} ORDER BY rowid")] for t in tables}
    rows["meta"] = db.execute("SELECT * FROM meta ORDER BY key").fetchall()
    return json.dumps(rows)


def _plain(value):
    return hashlib.sha256(value).hexdigest() if isinstance(value, bytes) else value
