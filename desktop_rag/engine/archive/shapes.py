"""Shape checks for the rows of a collection archive: types, integer ranges, paths, references, counts.

Paths come from someone else's computer: each must be absolute and local (a POSIX path or a drive-letter
path; never relative, `..`, or a network share), name a supported document type, and lie inside its source;
sources never overlap one another.
"""

from __future__ import annotations

import re

import numpy as np

from desktop_rag.engine.file_types import is_supported
from desktop_rag.engine.messages import Phrase
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
# What both backends hold: the server's ordinal, page, offsets, chunk_count (and ocr_lines' page and offsets) are
# 32-bit `integer` columns; ids, size and mtime_ns are 64-bit (bigint, and SQLite's integers).
INT32_MAX = (1 << 31) - 1
_32_BIT = {"chunk_count", "ordinal", "page", "char_start", "char_end", "ocr"}
MAX_LINES = 1_000_000  # recognised lines of one file (2,000 a page at most, ocr_boxes.MAX_LINES, on 500 pages)
MAX_PAGE_POINTS = 14_400.0  # a PDF page is at most 200 inches a side (a rectangle past it is none of its lines)
_SIGNED = {"mtime_ns"}  # the only integer that may be negative (a file dated before 1970)
_LOCAL_ABSOLUTE = re.compile(r"^(?:/(?![/\\])|[A-Za-z]:[\\/])")  # /x (not //x) or C:\x; never \\server


def check_rows(sources: object, files: object, chunks: list, vector_ids: np.ndarray, counts: dict,
               documents: dict[int, str]) -> Phrase | None:
    """What is wrong with the rows (a short reason), or None when they fit together."""
    if not isinstance(sources, list) or not isinstance(files, list):
        return Phrase("phrase.archive.rows.no_lists")
    for rows, shape, what in ((sources, _SOURCE, "source"), (files, _FILE, "file"), (chunks, _CHUNK, "chunk")):
        bad = next((r for r in rows if not _fits(r, shape)), None)
        if bad is not None:
            return Phrase(f"phrase.archive.rows.malformed_{what}")
    if any(not _in_range(r) for rows in (sources, files, chunks) for r in rows):
        return Phrase("phrase.archive.rows.number_range")
    if any(s["kind"] not in ("folder", "file") or not _sane_path(s["path"]) for s in sources):
        return Phrase("phrase.archive.rows.source_path")
    if any(f["status"] not in ("pending", "indexed", "failed") or not _sane_path(f["path"]) for f in files):
        return Phrase("phrase.archive.rows.file_path")
    if any(not is_supported(f["path"]) for f in files):
        return Phrase("phrase.archive.rows.file_type")
    problem = _attachments(files) or _placement(sources, files)
    if problem:
        return problem
    if any(c.get("page") is not None and not isinstance(c["page"], int) for c in chunks):
        return Phrase("phrase.archive.rows.chunk_page")
    if any(not _recognised_lines(f.get("ocr_lines", [])) for f in files):
        return Phrase("phrase.archive.rows.ocr_lines")
    source_ids = {s["id"] for s in sources}
    file_ids = {f["id"] for f in files}
    chunk_ids = {c["id"] for c in chunks}
    if len(source_ids) != len(sources) or len(file_ids) != len(files) or len(chunk_ids) != len(chunks):
        return Phrase("phrase.archive.rows.same_id")
    if len({s["path"] for s in sources}) != len(sources) or len({f["path"] for f in files}) != len(files):
        return Phrase("phrase.archive.rows.same_path")
    if any(f["source_id"] not in source_ids for f in files) or any(c["file_id"] not in file_ids for c in chunks):
        return Phrase("phrase.archive.rows.missing_parent")
    if len(set(vector_ids.tolist())) != len(vector_ids) or not set(vector_ids.tolist()) <= chunk_ids:
        return Phrase("phrase.archive.rows.stray_vector")
    if any(d not in file_ids for d in documents):
        return Phrase("phrase.archive.rows.stray_document")
    attachments = {f["id"] for f in files if f.get("parent_id") is not None}
    if any(d in attachments for d in documents):
        return Phrase("phrase.archive.rows.attachment_document")
    found = {"sources": len(sources), "files": len(files), "chunks": len(chunks), "vectors": len(vector_ids)}
    if any(counts.get(k) != v for k, v in found.items()):
        return Phrase("phrase.archive.rows.counts")
    return None


def oversized_passage(chunks: list[dict]) -> Phrase | None:
    """Why a passage (or its heading) is too long to import, or None (rows already checked by check_rows)."""
    longest = max((max(len(c["text"]), len(c["heading"])) for c in chunks), default=0)
    if longest <= MAX_PASSAGE_CHARS:
        return None
    return Phrase("phrase.archive.rows.passage_too_long", length=f"{longest:,}", limit=f"{MAX_PASSAGE_CHARS:,}")


def _recognised_lines(lines: object) -> bool:
    """A file's recognised lines (archive_rows.collection_rows): at most MAX_LINES, each [page, start, end, x0, y0,
    x1, y1] with a page from 1, 0 <= start < end (32-bit numbers) and a finite rectangle within the largest page a
    PDF may have."""
    if not isinstance(lines, list) or len(lines) > MAX_LINES:
        return False
    for line in lines:
        if not (isinstance(line, list) and len(line) == 7 and all(_integer(v) for v in line[:3])
                and all(_integer(v) or isinstance(v, float) for v in line[3:])):
            return False
        page, start, end, *rect = line
        if not (1 <= page <= INT32_MAX and 0 <= start < end <= INT32_MAX
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
    """Every integer of the row fits its column on both backends (`_32_BIT`, else 64-bit; only `_SIGNED` below 0)."""
    return all((-INT64_MAX if k in _SIGNED else 0) <= v <= (INT32_MAX if k in _32_BIT else INT64_MAX)
               for k, v in row.items() if isinstance(v, int) and not isinstance(v, bool))


def _sane_path(path: str) -> bool:
    """Absolute, local, without `.`/`..` parts or NUL, and not too long (other names are cleaned on extraction)."""
    if not 0 < len(path) <= MAX_PATH_CHARS or "\x00" in path or not _LOCAL_ABSOLUTE.match(path):
        return False
    return not any(part in (".", "..") for part in re.split(r"[/\\]", path))


def _attachments(files: list[dict]) -> Phrase | None:
    """An attachment row (parent_id; archives before schema 3 have none) belongs to a message of the archive in
    the same source, one level deep, and lies below that message's path."""
    by_id = {f["id"]: f for f in files}
    for f in files:
        parent_id = f.get("parent_id")
        if parent_id is None:
            continue
        parent = by_id.get(parent_id) if isinstance(parent_id, int) and not isinstance(parent_id, bool) else None
        if parent is None or parent.get("parent_id") is not None or parent["source_id"] != f["source_id"]:
            return Phrase("phrase.archive.rows.attachment_parent")
        if not (is_inside(f["path"], parent["path"]) and f["path"] != parent["path"]):
            return Phrase("phrase.archive.rows.attachment_outside")
    return None


def _placement(sources: list[dict], files: list[dict]) -> Phrase | None:
    """Sources apart from one another, and every file inside its own source."""
    for i, a in enumerate(sources):
        for b in sources[i + 1:]:
            if is_inside(a["path"], b["path"]) or is_inside(b["path"], a["path"]):
                return Phrase("phrase.archive.rows.sources_overlap")
    by_id = {s["id"]: s for s in sources}
    for f in files:
        source = by_id.get(f["source_id"])
        if source is None or f.get("parent_id") is not None:
            continue  # a missing source is reported below; an attachment lies below its message (checked above)
        inside = f["path"] == source["path"] if source["kind"] == "file" else \
            is_inside(f["path"], source["path"]) and not is_inside(source["path"], f["path"])
        if not inside:
            return Phrase("phrase.archive.rows.file_outside")
    return None
