"""Importing a validated collection archive: model check, path mapping, documents, one transaction."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from desktop_rag.engine.archive.archive_file import ArchiveContent, ArchiveError, path_leaf, path_parts
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.file_types import is_supported
from desktop_rag.engine.paths import attachment_part, attachment_path, is_inside, safe_file_name
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store import archive_rows, collections
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.system_errors import os_reason

SPACE_MARGIN = 64 << 20  # left free on a disk after an import's writes


@dataclass(frozen=True)
class ImportReport:
    collection: str
    collection_id: int
    sources: int
    files: int
    chunks: int
    vectors: int
    to_embed: int  # chunks imported without a vector: the vector phase embeds them with this library's model
    model: str | None  # the archive's embedding model
    documents: int = 0
    documents_dir: str | None = None

    def to_json(self) -> dict:
        return {"collection": self.collection, "collection_id": self.collection_id, "sources": self.sources,
                "files": self.files, "chunks": self.chunks, "vectors": self.vectors, "to_embed": self.to_embed,
                "model": self.model, "documents": self.documents, "documents_dir": self.documents_dir}


def model_problem(content: ArchiveContent, library_model: str, library_dimension: int | None) -> Reason | None:
    """Why the archive's vectors cannot be used here (error "archive_model", which a front end shows in its
    language through `errors.error_text`), or None."""
    same_dimension = library_dimension in (None, content.manifest["dimension"])
    if not len(content.vector_ids) or (content.model == library_model and same_dimension):
        return None
    return Reason.coded("archive_model", model=content.model, library_model=library_model, count=len(content.chunks))


def name_taken(store: Store, name: str) -> bool:
    """Whether an import called `name` is refused: a collection of that name holds sources (an empty one takes it)."""
    into = collections.find(store, name)
    return into is not None and bool(store.sources(into))


def free_name(store: Store, name: str, reserved: Iterable[str] = ()) -> str:
    """`name` when an import may take it, else the first of "name (2)", "name (3)", ... that is free (cut to fit);
    a name of `reserved` (how a front end shows another collection: 默认知识库) counts as taken, in any letter case."""
    held = {r.casefold() for r in reserved}
    candidate, n = name, 2
    while candidate.casefold() in held or name_taken(store, candidate):
        suffix = f" ({n})"
        candidate, n = name[:collections.MAX_NAME_CHARS - len(suffix)].rstrip() + suffix, n + 1
    return candidate


def import_content(store: Store, content: ArchiveContent, *, name: str | None, use_vectors: bool,
                   documents_dir: Path | None, zip_path: Path) -> tuple[ImportReport, np.ndarray, np.ndarray]:
    """Write the archive into the library as a new collection, all in one transaction (documents, when
    included, are extracted first and removed again if the transaction fails).

    Returns the report and the (new chunk ids, vectors) to add to the FAISS cache.
    """
    name = collections.checked_name(name or content.name)
    if name_taken(store, name):
        raise UsageError.coded("import_name_taken", name=name)
    into = collections.find(store, name)  # an empty collection of that name takes the archive (a fresh "Default")
    name = name if into is None else collections.name_of(store, into) or name  # (it keeps its own letter case)
    extract = documents_dir is not None and bool(content.documents)
    mapping = _map_paths(content, documents_dir) if extract else {}
    source_paths = {s["id"]: mapping.get(("source", s["id"]), s["path"]) for s in content.sources}
    file_paths = {f["id"]: mapping.get(("file", f["id"]), f["path"]) for f in content.files}
    _check_conflicts(store, source_paths.values(), file_paths.values(), extract)
    if store.folder is not None:  # (a server's disk is its own: a full one fails the transaction, nothing written)
        _check_space(store.folder, _stored_bytes(content), Phrase("phrase.imported_passages"))
    if extract:
        _extract(content, zip_path, documents_dir, file_paths)
    try:
        report, new_ids = _write(store, content, name, into, source_paths, file_paths, use_vectors, not extract)
    except BaseException:
        if extract:
            shutil.rmtree(documents_dir, ignore_errors=True)
        raise
    report = ImportReport(**{**report.__dict__, "documents": len(content.documents) if extract else 0,
                             "documents_dir": str(documents_dir) if extract else None})
    vectors = content.vectors if use_vectors else np.zeros((0, 0), np.float32)
    return report, new_ids, vectors


def _stored_bytes(content: ArchiveContent) -> int:
    """About what the import adds to the library file: each passage twice (text, keyword row), the vectors."""
    return 2 * sum(len(c["text"]) + len(c["heading"]) for c in content.chunks) + content.vectors.nbytes


def _write(store: Store, content: ArchiveContent, name: str, into: int | None, source_paths: dict, file_paths: dict,
           use_vectors: bool, detached: bool) -> tuple[ImportReport, np.ndarray]:
    vectors = (content.vector_ids, content.vectors, content.model, content.manifest["dimension"]) if use_vectors \
        else None
    collection_id, new_ids = archive_rows.insert_collection(
        store, name, content.sources, content.files, content.chunks, source_paths, file_paths, detached, vectors,
        content.manifest.get("chunking"), into)
    report = ImportReport(name, collection_id, len(content.sources), len(content.files), len(content.chunks),
                          len(new_ids), len(content.chunks) - len(new_ids), content.model)
    return report, new_ids


def _check_conflicts(store: Store, sources, files, extracting: bool) -> None:
    """No archive source may be, contain or lie inside a source of this library; no file may be here already."""
    advice = Phrase("phrase.other_documents_dir" if extracting else "phrase.empty")
    existing_sources = store.sources()
    for path in sources:
        for existing in existing_sources:
            if is_inside(path, existing.path) or is_inside(existing.path, path):
                where = collections.name_of(store, existing.collection_id)
                if path == existing.path:
                    raise UsageError.coded("import_source_exists", path=path, collection=where, advice=advice)
                raise UsageError.coded("import_source_overlaps", path=path, other=existing.path, collection=where,
                                       advice=advice)
    for path in files:
        if store.file_by_path(path) is not None:
            raise UsageError.coded("import_file_exists", path=path)


def _check_space(folder: Path, needed: int, what: Phrase) -> None:
    """UsageError unless `folder`'s disk has room for `needed` bytes and a margin (checked before writing)."""
    probe = folder
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    free = shutil.disk_usage(probe).free
    if free < needed + SPACE_MARGIN:
        raise UsageError.coded("import_no_space", what=what, needed=_mb(needed + SPACE_MARGIN), where=probe,
                               free=_mb(free))


def _mb(size: int) -> str:
    return f"{size / 1e6:,.0f} MB"


# ---- documents -------------------------------------------------------------------------------------


def _map_paths(content: ArchiveContent, root: Path) -> dict[tuple[str, int], str]:
    """New paths under `root` for the sources and files (names cleaned, every path kept inside `root`, two
    names that clean to the same one told apart)."""
    mapping: dict[tuple[str, int], str] = {}
    used: set[str] = set()
    base = {}
    for s in content.sources:
        leaf = safe_file_name(path_leaf(s["path"]))
        candidate, n = leaf, 2
        while candidate.lower() in used:
            candidate, n = f"{leaf} ({n})", n + 1
        used.add(candidate.lower())
        base[s["id"]] = root / candidate
        mapping[("source", s["id"])] = str(base[s["id"]])
    sources = {s["id"]: s for s in content.sources}
    files: set[str] = set()
    folders: set[str] = set()
    by_id = {f["id"]: f for f in content.files}
    for f in (f for f in content.files if f.get("parent_id") is None):
        source = sources[f["source_id"]]
        if source["kind"] == "file":
            target = base[source["id"]]
        else:
            target = base[source["id"]].joinpath(*_relative_parts(f["path"], source["path"]))
        if not is_inside(target, root) or is_inside(root, target):  # strictly below root
            raise ArchiveError.coded("path_outside", root=root)
        target = _unique(target, files, folders, root)
        mapping[("file", f["id"])] = str(target)
    for f in (f for f in content.files if f.get("parent_id") is not None):  # below its message, never written
        parent = by_id[f["parent_id"]]
        mapping[("file", f["id"])] = attachment_path(mapping[("file", parent["id"])],
                                                     attachment_part(parent["path"], f["path"]))
    return mapping


def _unique(target: Path, files: set[str], folders: set[str], root: Path) -> Path:
    """`target`, or `name (2).ext`... when another document or folder already has that name (compared
    without case); always a supported type."""
    if not is_supported(target):
        raise ArchiveError.coded("unsupported_member", name=repr(target.name))
    parents = [str(p).lower() for p in target.parents if p != root and is_inside(p, root)]
    if any(p in files for p in parents):
        raise ArchiveError.coded("folder_named_like_document", name=repr(target.parent.name))
    candidate, n = target, 2
    while str(candidate).lower() in files or str(candidate).lower() in folders:
        candidate, n = target.with_name(f"{target.stem} ({n}){target.suffix}"), n + 1
    files.add(str(candidate).lower())
    folders.update(parents)
    return candidate


def _relative_parts(path: str, root: str) -> list[str]:
    """The parts of `path` below `root` (written on any system), cleaned; the leaf alone if it is not below."""
    parts, below = path_parts(path), path_parts(root)
    parts = parts[len(below):] if parts[:len(below)] == below and len(parts) > len(below) else [path_leaf(path)]
    return [safe_file_name(p) for p in parts] or ["document"]


def documents_folder_free(dest: Path) -> bool:
    """Whether the documents may go to `dest`: nothing there, or an empty folder (a symlink loop: there, not a
    folder)."""
    return not os.path.lexists(dest) or (dest.is_dir() and not any(dest.iterdir()))


def _extract(content: ArchiveContent, zip_path: Path, dest: Path, file_paths: dict[int, str]) -> None:
    """Write the documents to a fresh folder beside `dest`, checking each hash again, then rename it to `dest`."""
    if not documents_folder_free(dest):
        raise UsageError.coded("documents_dir_not_empty", dest=dest)
    members = content.manifest["members"]
    _check_space(dest.parent, sum(members[m]["size"] for m in content.documents.values()),
                 Phrase("phrase.the_documents"))
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.importing-", dir=dest.parent))
    except OSError as exc:  # a read-only place (the archive on a USB stick, a disc), another user's folder
        raise UsageError.coded("documents_dir_not_writable", folder=dest.parent, detail=os_reason(exc)) \
            from exc
    try:
        files = {f["id"]: f for f in content.files}
        with zipfile.ZipFile(zip_path) as zf:
            for file_id, member in content.documents.items():
                target = staging / Path(file_paths[file_id]).relative_to(dest)
                _extract_one(zf, member, members[member], target)
                mtime = files[file_id]["mtime_ns"]
                if mtime > 0:
                    os.utime(target, ns=(mtime, mtime))  # unchanged to the reconciler: nothing is read again
        if dest.exists():
            dest.rmdir()
        os.rename(staging, dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _extract_one(zf: zipfile.ZipFile, member: str, entry: dict, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    digest, size = hashlib.sha256(), 0
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
    with os.fdopen(fd, "wb") as out, zf.open(member) as src:
        while block := src.read(1 << 20):
            size += len(block)
            if size > entry["size"]:
                break
            digest.update(block)
            out.write(block)
    if size != entry["size"] or digest.hexdigest() != entry["sha256"]:
        raise ArchiveError.coded("changed_during_extract", name=repr(member))
