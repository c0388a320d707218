"""Shape checks for the rows of a collection archive: types, integer ranges, paths, references, counts.

Paths come from someone else's computer: each must be absolute and local (a POSIX path or a drive-letter
path; never relative, `..`, or a network share), name a supported document type, and lie inside its source;
sources never overlap one another.
"""

from __future__ import annotations

import re

import numpy as np

from desktop_rag.engine.file_types import is_supported
from desktop_rag.engine.paths import is_inside

_SOURCE = {"id": int, "path": str, "kind": str}
_FILE = {"id": int, "source_id": int, "path": str, "size": int, "mtime_ns": int, "sha256": str, "status": str,
         "error": str, "chunk_count": int}
_CHUNK = {"id": int, "file_id": int, "ordinal": int, "text": str, "heading": str, "char_start": int, "char_end": int,
          "ocr": int}
MAX_PATH_CHARS = 4096
# A passage may be this long at most (its heading too). The app writes passages of at most chunk_size + chunk_overlap
# characters (500 + 50 by default, 8,000 + 7,999 at most in Settings); one of megabytes made answering take minutes.
MAX_PASSAGE_CHARS = 64_000
INT64_MAX = (1 << 63) - 1
MAX_LINES = 1_000_000  # recognised lines of one file (2,000 a page at most, ocr_boxes.MAX_LINES, on 500 pages)
MAX_PAGE_POINTS = 14_400.0  # a PDF page is at most 200 inches a side (a rectangle past it is none of its lines)
_SIGNED = {"mtime_ns"}  # the only integer that may be negative (a file dated before 1970)
_LOCAL_ABSOLUTE = re.compile(r"^(?:/(?![/\\])|[A-Za-z]:[\\/])")  # /x (not //x) or C:\x; never \\server


def check_rows(sources: object, files: object, chunks: list, vector_ids: np.ndarray, counts: dict,
               documents: dict[int, str]) -> str | None:
    """What is wrong with the rows (a short reason), or None when they fit together."""
    if not isinstance(sources, list) or not isinstance(files, list):
        return "collection.json has no lists of sources and files"
    for rows, shape, what in ((sources, _SOURCE, "source"), (files, _FILE, "file"), (chunks, _CHUNK, "chunk")):
        bad = next((r for r in rows if not _fits(r, shape)), None)
        if bad is not None:
            return f"a {what} record is malformed"
    if any(not _in_range(r) for rows in (sources, files, chunks) for r in rows):
        return "a record holds a number out of range"
    if any(s["kind"] not in ("folder", "file") or not _sane_path(s["path"]) for s in sources):
        return "a source has an invalid kind, or a path that is not an absolute local path (relative, with '..', " \
               "or a network share)"
    if any(f["status"] not in ("pending", "indexed", "failed") or not _sane_path(f["path"]) for f in files):
        return "a file has an invalid status, or a path that is not an absolute local path"
    if any(not is_supported(f["path"]) for f in files):
        return "a file is not a supported document type"
    problem = _attachments(files) or _placement(sources, files)
    if problem:
        return problem
    if any(c.get("page") is not None and not isinstance(c["page"], int) for c in chunks):
        return "a chunk has an invalid page"
    if any(not _recognised_lines(f.get("ocr_lines", [])) for f in files):
        return "a file's recognised lines are malformed"
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
    attachments = {f["id"] for f in files if f.get("parent_id") is not None}
    if any(d in attachments for d in documents):
        return "an attachment has a document of its own (it travels inside its message)"
    found = {"sources": len(sources), "files": len(files), "chunks": len(chunks), "vectors": len(vector_ids)}
    if any(counts.get(k) != v for k, v in found.items()):
        return "its counts do not match its content"
    return None


def oversized_passage(chunks: list[dict]) -> str | None:
    """Why a passage (or its heading) is too long to import, or None (rows already checked by check_rows)."""
    longest = max((max(len(c["text"]), len(c["heading"])) for c in chunks), default=0)
    if longest <= MAX_PASSAGE_CHARS:
        return None
    return (f"one of its passages is {longest:,} characters long, and a passage may be at most {MAX_PASSAGE_CHARS:,} "
            "characters (Desktop RAG writes passages of about the chunk size, 500 characters by default)")


def _recognised_lines(lines: object) -> bool:
    """A file's recognised lines (archive_rows.collection_rows): at most MAX_LINES, each [page, start, end, x0, y0,
    x1, y1] with a page from 1, 0 <= start < end and a finite rectangle within the largest page a PDF may have."""
    if not isinstance(lines, list) or len(lines) > MAX_LINES:
        return False
    for line in lines:
        if not (isinstance(line, list) and len(line) == 7 and all(_integer(v) for v in line[:3])
                and all(_integer(v) or isinstance(v, float) for v in line[3:])):
            return False
        page, start, end, *rect = line
        if not (1 <= page <= INT64_MAX and 0 <= start < end <= INT64_MAX
                and all(-1.0 <= v <= MAX_PAGE_POINTS for v in rect) and rect[0] < rect[2] and rect[1] < rect[3]):
            return False
    return True


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fits(row: object, shape: dict[str, type]) -> bool:
    if not isinstance(row, dict):
        return False
    return all(isinstance(row.get(key), kind) and not isinstance(row.get(key), bool) for key, kind in shape.items())


def _in_range(row: dict) -> bool:
    return all(-INT64_MAX <= v <= INT64_MAX if k in _SIGNED else 0 <= v <= INT64_MAX
               for k, v in row.items() if isinstance(v, int) and not isinstance(v, bool))


def _sane_path(path: str) -> bool:
    """Absolute, local, without `.`/`..` parts or NUL, and not too long (other names are cleaned on extraction)."""
    if not 0 < len(path) <= MAX_PATH_CHARS or "\x00" in path or not _LOCAL_ABSOLUTE.match(path):
        return False
    return not any(part in (".", "..") for part in re.split(r"[/\\]", path))


def _attachments(files: list[dict]) -> str | None:
    """An attachment row (parent_id; archives before schema 3 have none) belongs to a message of the archive in
    the same source, one level deep, and lies below that message's path."""
    by_id = {f["id"]: f for f in files}
    for f in files:
        parent_id = f.get("parent_id")
        if parent_id is None:
            continue
        parent = by_id.get(parent_id) if isinstance(parent_id, int) and not isinstance(parent_id, bool) else None
        if parent is None or parent.get("parent_id") is not None or parent["source_id"] != f["source_id"]:
            return "an attachment belongs to no message of the archive"
        if not (is_inside(f["path"], parent["path"]) and f["path"] != parent["path"]):
            return "an attachment lies outside its message"
    return None


def _placement(sources: list[dict], files: list[dict]) -> str | None:
    """Sources apart from one another, and every file inside its own source."""
    for i, a in enumerate(sources):
        for b in sources[i + 1:]:
            if is_inside(a["path"], b["path"]) or is_inside(b["path"], a["path"]):
                return "two of its sources overlap"
    by_id = {s["id"]: s for s in sources}
    for f in files:
        source = by_id.get(f["source_id"])
        if source is None or f.get("parent_id") is not None:
            continue  # a missing source is reported below; an attachment lies below its message (checked above)
        inside = f["path"] == source["path"] if source["kind"] == "file" else \
            is_inside(f["path"], source["path"]) and not is_inside(source["path"], f["path"])
        if not inside:
            return "a file lies outside its source"
    return None
