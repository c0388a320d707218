"""A collection exported as an archive (the format: archive_file.py): its rows, chunks and vectors, and the documents
copied as they were indexed, into a temporary file beside the target renamed over it when complete."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.config import CHUNKING_SETTINGS
from desktop_rag.engine.archive.archive_file import (CHUNKS, COLLECTION, COPY_BLOCK, DOCUMENT_NAME, FORMAT,
                                                     FORMAT_VERSION, MANIFEST, VECTOR_IDS, VECTORS, ArchiveError,
                                                     path_leaf)
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.paths import is_inside
from desktop_rag.engine.store import archive_rows, chunking
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.system_errors import os_reason


@dataclass(frozen=True)
class ExportReport:
    """What an export wrote: the archive, its counts, and the documents left out (`_put_file` says when)."""

    path: str
    collection: str
    files: int
    chunks: int
    vectors: int
    documents: int
    missing_documents: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"path": self.path, "collection": self.collection, "files": self.files, "chunks": self.chunks,
                "vectors": self.vectors, "documents": self.documents,
                "missing_documents": list(self.missing_documents)}


def export_collection(store: Store, collection_id: int, target: Path, *, app_version: str,
                      with_documents: bool = False, replace: bool = False) -> ExportReport:
    """Write one collection to `target` (a temp file beside it, renamed when complete); UsageError, before anything
    is read, when `target` may not be replaced (`_check_target`) or its folder cannot be written."""
    _check_target(target, replace)
    with store.read_snapshot():
        name = archive_rows.collection_name(store, collection_id)
        if name is None:
            raise UsageError.coded("collection_gone")
        sources, files, chunks, ids, vectors = archive_rows.collection_rows(store, collection_id)
        detached = {s.id for s in store.sources(collection_id) if s.detached}
        meta = {k: store.get_meta(k) for k in ("embedding_model", "dimension")}
        settings = chunking.recorded(store) or {}  # none when what is recorded cannot cut text
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise UsageError.coded("export_not_writable", folder=target.parent, detail=os_reason(exc)) from exc
    os.close(fd)
    members: dict[str, dict] = {}
    missing: list[str] = []
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, allowZip64=True) as zf:
            members[COLLECTION] = _put(zf, COLLECTION, _json_bytes({"sources": sources, "files": files}))
            members[CHUNKS] = _put(zf, CHUNKS, b"".join(_json_bytes(c) + b"\n" for c in chunks))
            members[VECTOR_IDS] = _put(zf, VECTOR_IDS, ids.astype("<i8").tobytes())
            members[VECTORS] = _put(zf, VECTORS, vectors.astype("<f4").tobytes())
            if with_documents:
                linked = {s["id"]: s for s in sources if s["id"] not in detached}
                for f in (f for f in files if f["parent_id"] is None):  # attachments: inside their message
                    member = f"documents/{f['id']}/{_member_leaf(f['path'])}"
                    entry = None
                    if DOCUMENT_NAME.fullmatch(member) and f["source_id"] in linked:
                        entry = _put_file(zf, member, f, linked[f["source_id"]])
                    if entry is None:
                        missing.append(f["path"])
                    else:
                        members[member] = entry
            manifest = {
                "format": FORMAT, "format_version": FORMAT_VERSION, "app_version": app_version,
                "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "collection": name,
                "embedding_model": meta["embedding_model"] if len(ids) else None,
                "dimension": int(meta["dimension"]) if len(ids) and meta["dimension"] else None,
                "chunking": {key: settings.get(key) for key in CHUNKING_SETTINGS},
                "counts": {"sources": len(sources), "files": len(files), "chunks": len(chunks), "vectors": len(ids),
                           "documents": sum(1 for m in members if m.startswith("documents/"))},
                "members": members,
            }
            zf.writestr(MANIFEST, _json_bytes(manifest))
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return ExportReport(str(target), name, len(files), len(chunks), len(ids),
                        manifest["counts"]["documents"], tuple(missing))


def _check_target(target: Path, replace: bool) -> None:
    """Nothing is lost by writing the archive to `target`: it is new, or a collection archive (exported again), or a
    file the user chose to replace (`replace`: a save dialog asked). A folder, a device, a pipe or a socket is never
    replaced: `export /dev/null` run as root had replaced the device with the archive."""
    if target.is_dir():
        raise UsageError.coded("export_target_folder", path=target)
    if not target.exists():
        return
    if not target.is_file():
        raise UsageError.coded("export_target_special", path=target)
    if not replace and not _is_archive(target):
        raise UsageError.coded("export_target_exists", path=target)


def _is_archive(path: Path) -> bool:
    """Whether `path` is a zip with a collection archive's manifest (not a .docx, which is a zip too)."""
    try:
        with zipfile.ZipFile(path) as zf:
            return MANIFEST in zf.namelist()
    except (OSError, zipfile.BadZipFile):
        return False


def _put(zf: zipfile.ZipFile, name: str, data: bytes) -> dict:
    zf.writestr(name, data)
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _put_file(zf: zipfile.ZipFile, name: str, file: dict, source: dict) -> dict | None:
    """Copy the document as it was indexed into the archive; None (left out) when the path is now a link,
    leads outside its source, is not a regular file, or holds other bytes than the ones indexed."""
    fd = _open_indexed(file["path"], source)
    if fd is None:
        return None
    with os.fdopen(fd, "rb") as src:
        if not file["sha256"] or _digest(src, None)[0] != file["sha256"]:
            return None
        src.seek(0)
        with zf.open(name, "w", force_zip64=True) as dst:
            digest, size = _digest(src, dst)
    if digest != file["sha256"]:  # changed between the check and the copy: the archive would hold other bytes
        raise ArchiveError.coded("changed_during_export", path=file["path"])
    return {"size": size, "sha256": digest}


def _open_indexed(path: str, source: dict) -> int | None:
    """A descriptor on the regular file at `path` itself (no link followed, not even a folder above it),
    inside its source; None otherwise. Non-blocking, so a FIFO put there cannot stall the export."""
    real = os.path.realpath(path)
    inside = real == source["path"] if source["kind"] == "file" else is_inside(real, source["path"])
    if real != os.path.normpath(path) or not inside:
        return None
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


def _digest(src, dst) -> tuple[str, int]:
    """sha256 and size of the rest of `src`, written on to `dst` when given."""
    digest, size = hashlib.sha256(), 0
    while block := src.read(COPY_BLOCK):
        digest.update(block)
        size += len(block)
        if dst is not None:
            dst.write(block)
    return digest.hexdigest(), size


def _json_bytes(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _member_leaf(path: str) -> str:
    """The document's member name in the archive: its leaf with control characters and backslashes as "_" (a
    name with a newline, an escape or a backslash is a valid POSIX file name; the import names the file from its
    row, not from the member)."""
    return re.sub(r"[\x00-\x1f\\]", "_", path_leaf(path))
