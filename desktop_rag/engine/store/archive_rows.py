"""A collection's rows as an archive holds them (archive/archive_export.py writes them out, archive/importer.py
brings them back in as a new collection), and the re-link of a source imported without its documents."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

import numpy as np

from desktop_rag.config import CHUNKING_SETTINGS
from desktop_rag.engine.store import collections, legacy_reasons, ocr_lines
from desktop_rag.engine.store.languages import note_chunk_texts
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import ChunkDraft, OcrLine

FILE_FIELDS = ("id", "source_id", "path", "size", "mtime_ns", "sha256", "status", "error", "chunk_count", "parent_id")
CHUNK_FIELDS = ("id", "file_id", "ordinal", "text", "page", "heading", "char_start", "char_end", "ocr")


def collection_name(store: Store, collection_id: int) -> str | None:
    row = store.db.execute("SELECT name FROM collections WHERE id = ?", (collection_id,)).fetchone()
    return row[0] if row else None


def collection_rows(store: Store, collection_id: int):
    """(sources, files, chunks as dicts; vector ids; vectors as one float32 matrix) of one collection; a file with
    recognised lines (a scanned PDF's, `ocr_lines`) has them under "ocr_lines" as [page, start, end, x0, y0, x1, y1]
    rows (an archive of an earlier version has none, and an earlier version reads the file without them)."""
    db = store.db
    sources = [{"id": r[0], "path": r[1], "kind": r[2]} for r in db.execute(
        "SELECT id, path, kind FROM sources WHERE collection_id = ? ORDER BY id", (collection_id,))]
    files = [dict(zip(FILE_FIELDS, r)) for r in db.execute(
        "SELECT f.id, f.source_id, f.path, f.size, f.mtime_ns, f.sha256, f.status, f.error, f.chunk_count, f.parent_id "
        "FROM files f JOIN sources s ON s.id = f.source_id WHERE s.collection_id = ? ORDER BY f.id", (collection_id,))]
    by_id = {f["id"]: f for f in files}
    for file_id, *line in db.execute(
            "SELECT l.file_id, l.page, l.char_start, l.char_end, l.x0, l.y0, l.x1, l.y1 FROM ocr_lines l "
            "JOIN files f ON f.id = l.file_id JOIN sources s ON s.id = f.source_id WHERE s.collection_id = ? "
            "ORDER BY l.file_id, l.page, l.char_start", (collection_id,)):
        by_id[file_id].setdefault("ocr_lines", []).append(line)
    chunks = [dict(zip(CHUNK_FIELDS, r)) for r in db.execute(
        "SELECT c.id, c.file_id, c.ordinal, c.text, c.page, c.heading, c.char_start, c.char_end, c.ocr "
        "FROM chunks c JOIN files f ON f.id = c.file_id JOIN sources s ON s.id = f.source_id "
        "WHERE s.collection_id = ? ORDER BY c.id", (collection_id,))]
    batches = list(store.iter_vectors(collection_id=collection_id))
    if not batches:
        return sources, files, chunks, np.zeros(0, np.int64), np.zeros((0, 0), np.float32)
    return sources, files, chunks, np.concatenate([i for i, _ in batches]), np.concatenate([m for _, m in batches])


def insert_collection(store: Store, name: str, sources: Sequence[dict], files: Sequence[dict],
                      chunks: Sequence[dict], source_paths: Mapping, file_paths: Mapping, detached: bool | Mapping,
                      vectors: tuple[Sequence[int], np.ndarray, str | None, int | None] | None,
                      chunking: Mapping | None, into: int | None = None) -> tuple[int, np.ndarray]:
    """Write an archive's rows as a new collection called `name` (or into the empty collection `into`), in one
    transaction (paths as mapped here; `detached`: whether the sources are not linked to this computer (one for
    all, or by source id); `vectors`: (the archive's chunk ids, their vectors, model, dimension), or None to embed
    them again; `chunking`: the archive's chunking settings). Returns the collection's id and the new chunk ids of
    the vectors written."""
    collections.administer(store)
    now = time.time()
    with store.transaction() as db:
        collection_id = into if into is not None else db.execute(
            "INSERT INTO collections (name, created_at) VALUES (?, ?) RETURNING id", (name, now)).fetchone()[0]
        new_source = {}
        for s in sources:
            new_source[s["id"]] = db.execute(
                "INSERT INTO sources (path, kind, added_at, collection_id, detached) VALUES (?, ?, ?, ?, ?) "
                "RETURNING id",
                (source_paths[s["id"]], s["kind"], now, collection_id,
                 int(detached[s["id"]] if isinstance(detached, Mapping) else detached))).fetchone()[0]
        new_file: dict[int, int] = {}
        deadline = time.monotonic() + legacy_reasons.BUDGET_S  # an archive's reasons are English text: read once
        for f in sorted(files, key=lambda f: f.get("parent_id") is not None):  # a message before its attachments
            parent = f.get("parent_id")
            reason = legacy_reasons.parse(f["error"], deadline)
            new_file[f["id"]] = db.execute(
                "INSERT INTO files (source_id, path, size, mtime_ns, sha256, status, error, reason, chunk_count, "
                "indexed_at, parent_id) VALUES (?,?,?,?,?,?,?,?,?,?,?) RETURNING id",
                (new_source[f["source_id"]], file_paths[f["id"]], f["size"], f["mtime_ns"], f["sha256"], f["status"],
                 str(reason), reason.to_json(), f["chunk_count"], now,
                 None if parent is None else new_file[parent])).fetchone()[0]
        new_chunk = {}
        by_file: dict[int, list[dict]] = {}
        for c in sorted(chunks, key=lambda c: c["id"]):
            by_file.setdefault(c["file_id"], []).append(c)
        for old_file, rows in by_file.items():
            drafts = [ChunkDraft(c["ordinal"], c["text"], c.get("page"), c["heading"], c["char_start"],
                                 c["char_end"], bool(c["ocr"])) for c in rows]
            new_chunk.update(zip((c["id"] for c in rows), store.insert_chunks(new_file[old_file], drafts)))
        ocr_lines.add(store, [(new_file[f["id"]], OcrLine(*line)) for f in files for line in f.get("ocr_lines", ())])
        new_ids = np.zeros(0, np.int64)
        if vectors is not None:
            vector_ids, matrix, model, dimension = vectors
            new_ids = np.array([new_chunk[int(i)] for i in vector_ids], dtype=np.int64)
            if len(new_ids):
                store.add_vectors(new_ids.tolist(), np.asarray(matrix, dtype=np.float32))
                if not store.get_meta("embedding_model"):
                    store.set_meta("embedding_model", model)
                    store.set_meta("dimension", str(dimension))
        store.bump_membership()
        if all(store.get_meta(key) is None for key in CHUNKING_SETTINGS):  # both or none: a pair archive_file checked
            for key, value in (chunking or {}).items():
                if key in CHUNKING_SETTINGS and isinstance(value, int):
                    store.set_meta(key, str(value))
        note_chunk_texts(store, [c["text"] for c in chunks])
    return collection_id, new_ids


def relink_rows(store: Store, source_id: int, target: str, moved: Mapping[int, str]) -> None:
    """Move a source to `target` and its files to their `moved` paths, each marked for one hash check (mtime 0)."""
    with store.transaction() as db:
        for file_id, path in moved.items():
            db.execute("UPDATE files SET path = ?, mtime_ns = 0 WHERE id = ?", (path, file_id))
        db.execute("UPDATE sources SET path = ?, detached = 0 WHERE id = ?", (target, source_id))
        store.bump_membership()
