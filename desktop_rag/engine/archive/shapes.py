"""Shape checks for the rows of a collection archive: types, references between them, and counts."""

from __future__ import annotations

import numpy as np

_SOURCE = {"id": int, "path": str, "kind": str}
_FILE = {"id": int, "source_id": int, "path": str, "size": int, "mtime_ns": int, "sha256": str, "status": str,
         "error": str, "chunk_count": int}
_CHUNK = {"id": int, "file_id": int, "ordinal": int, "text": str, "heading": str, "char_start": int, "char_end": int,
          "ocr": int}
MAX_PATH_CHARS = 4096


def check_rows(sources: object, files: object, chunks: list, vector_ids: np.ndarray, counts: dict,
               documents: dict[int, str]) -> str | None:
    """What is wrong with the rows (a short reason), or None when they fit together."""
    if not isinstance(sources, list) or not isinstance(files, list):
        return "collection.json has no lists of sources and files"
    for rows, shape, what in ((sources, _SOURCE, "source"), (files, _FILE, "file"), (chunks, _CHUNK, "chunk")):
        bad = next((r for r in rows if not _fits(r, shape)), None)
        if bad is not None:
            return f"a {what} record is malformed"
    if any(s["kind"] not in ("folder", "file") or not _sane_path(s["path"]) for s in sources):
        return "a source has an invalid kind or path"
    if any(f["status"] not in ("pending", "indexed", "failed") or not _sane_path(f["path"]) for f in files):
        return "a file has an invalid status or path"
    if any(c.get("page") is not None and not isinstance(c["page"], int) for c in chunks):
        return "a chunk has an invalid page"
    source_ids = {s["id"] for s in sources}
    file_ids = {f["id"] for f in files}
    chunk_ids = {c["id"] for c in chunks}
    if len(source_ids) != len(sources) or len(file_ids) != len(files) or len(chunk_ids) != len(chunks):
        return "two records share an id"
    if len({s["path"] for s in sources}) != len(sources) or len({f["path"] for f in files}) != len(files):
        return "two records share a path"
    if any(f["source_id"] not in source_ids for f in files) or any(c["file_id"] not in file_ids for c in chunks):
        return "a record points at a missing source or file"
    if len(set(vector_ids.tolist())) != len(vector_ids) or not set(vector_ids.tolist()) <= chunk_ids:
        return "a vector belongs to no chunk"
    if any(d not in file_ids for d in documents):
        return "a document belongs to no file"
    found = {"sources": len(sources), "files": len(files), "chunks": len(chunks), "vectors": len(vector_ids)}
    if any(counts.get(k) != v for k, v in found.items()):
        return "its counts do not match its content"
    return None


def _fits(row: object, shape: dict[str, type]) -> bool:
    if not isinstance(row, dict):
        return False
    return all(isinstance(row.get(key), kind) and not isinstance(row.get(key), bool) for key, kind in shape.items())


def _sane_path(path: str) -> bool:
    return 0 < len(path) <= MAX_PATH_CHARS and "\x00" not in path
