"""Collection archives: one zip with a manifest (format, model, counts, sha256 of every member), the
collection's sources and files, its chunks, its vectors (float32) and optionally the documents. This module holds
the format and reads it; archive_export.py writes it.

Reading validates everything before anything is written: member names from a fixed pattern (no path
ever comes from the archive), each member's size against its bound and the manifest, its sha256, the
JSON shapes and the counts. importer.py writes a validated archive into a library.
"""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from desktop_rag.config import chunking_fits
from desktop_rag.engine.endpoint import model_id_shown
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.system_errors import foreign_reason

FORMAT = "desktop-rag-collection"
FORMAT_VERSION = 1
MANIFEST, COLLECTION, CHUNKS, VECTORS, VECTOR_IDS = (
    "manifest.json", "collection.json", "chunks.jsonl", "vectors.f32", "vector_ids.i64")
DOCUMENT_NAME = re.compile(r"documents/([0-9]{1,12})/([^/\\\x00-\x1f]{1,255})")
_GIB = 1 << 30
LIMITS = {MANIFEST: 1 << 20, COLLECTION: _GIB // 4, CHUNKS: 2 * _GIB, VECTORS: 8 * _GIB, VECTOR_IDS: _GIB}
MAX_DOCUMENT_BYTES = 2 * _GIB
MAX_DOCUMENTS_TOTAL = 64 * _GIB
MAX_LOADED_BYTES = 10 * _GIB  # the members read into memory (all but the documents), together
MAX_RATIO = 100  # a member over 1 MiB may inflate at most this much (real ones: vectors ~1x, ids 5x, text 2-10x)
MAX_DIMENSION = 1 << 16
COPY_BLOCK = 1 << 20  # what a member or a document is read and hashed in


class ArchiveError(UsageError):
    """The file is not a (complete, intact) collection archive; nothing was changed."""


@dataclass
class ArchiveContent:
    """A validated archive, read into memory (documents stay in the zip until they are extracted)."""

    manifest: dict
    sources: list[dict]
    files: list[dict]
    chunks: list[dict]
    vector_ids: np.ndarray
    vectors: np.ndarray
    documents: dict[int, str] = field(default_factory=dict)  # archive file id -> member name

    @property
    def model(self) -> str | None:
        """The vectors' model (an earlier version's export may name an endpoint with a user:password@: dropped)."""
        model = self.manifest.get("embedding_model")
        return model_id_shown(model) if isinstance(model, str) else model

    @property
    def name(self) -> str:
        return self.manifest["collection"]


def read_archive(path: Path) -> ArchiveContent:
    """The archive's content, fully checked (names, sizes, hashes, shapes, counts), or an ArchiveError."""
    try:
        with zipfile.ZipFile(path) as zf:
            return _read(zf, path)
    except FileNotFoundError as exc:
        raise UsageError.coded("no_such_file", path=path) from exc
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, KeyError, OSError) as exc:
        if isinstance(exc, ArchiveError):
            raise
        raise ArchiveError.coded("archive_unreadable", name=path.name, detail=foreign_reason(exc)) from exc


def _read(zf: zipfile.ZipFile, path: Path) -> ArchiveContent:
    infos = {i.filename: i for i in zf.infolist()}
    if len(infos) != len(zf.infolist()):
        raise _not_archive(path, Phrase("phrase.archive.member_twice"))
    if MANIFEST not in infos:
        raise _not_archive(path, Phrase("phrase.archive.no_manifest"))
    manifest = _json(_member(zf, infos[MANIFEST], LIMITS[MANIFEST]), MANIFEST, path)
    _check_manifest(manifest, path)
    listed = manifest["members"]
    extra = set(infos) - set(listed) - {MANIFEST}
    if extra:
        raise _not_archive(path, Phrase("phrase.archive.unlisted_member", name=repr(sorted(extra)[0])))
    documents: dict[int, str] = {}
    total_documents = 0
    for name, entry in listed.items():
        match = DOCUMENT_NAME.fullmatch(name)
        if name not in LIMITS and not match:
            raise _not_archive(path, Phrase("phrase.archive.unexpected_member", name=repr(name)))
        if name not in infos:
            raise _damaged(path, Phrase("phrase.archive.member_missing", name=repr(name)))
        bound = MAX_DOCUMENT_BYTES if match else LIMITS[name]
        if not (isinstance(entry, dict) and isinstance(entry.get("size"), int) and 0 <= entry["size"] <= bound
                and isinstance(entry.get("sha256"), str) and infos[name].file_size == entry["size"]):
            raise _damaged(path, Phrase("phrase.archive.member_size", name=repr(name)))
        if match:
            total_documents += entry["size"]
            documents[int(match.group(1))] = name
    if total_documents > MAX_DOCUMENTS_TOTAL:
        raise _damaged(path, Phrase("phrase.archive.documents_large"))
    _check_declared(manifest, infos, path)
    loaded = {name: _load(zf, infos[name], listed[name], path) for name in LIMITS if name != MANIFEST}
    for name in documents.values():  # every hash before anything is parsed or written
        _verify(zf, infos[name], listed[name], path)
    return _content(loaded, manifest, documents, path)


def _check_declared(manifest: dict, infos: dict[str, zipfile.ZipInfo], path: Path) -> None:
    """Before inflating anything: the vectors' sizes follow from the counts, what is read into memory stays under
    a total, and no member inflates past a ratio a real archive never reaches (a zip bomb is refused from its
    headers; documents are streamed, and their total is bounded and checked against free disk space)."""
    vectors, dimension = manifest["counts"]["vectors"], manifest.get("dimension") or 0
    if vectors and not 0 < dimension <= MAX_DIMENSION:
        raise _damaged(path, Phrase("phrase.archive.vector_dimension"))
    if infos[VECTOR_IDS].file_size != vectors * 8 or infos[VECTORS].file_size != vectors * dimension * 4:
        raise _damaged(path, Phrase("phrase.archive.vector_shape"))
    if sum(infos[name].file_size for name in LIMITS) > MAX_LOADED_BYTES:
        raise _damaged(path, Phrase("phrase.archive.too_large"))
    for info in infos.values():
        if info.file_size > COPY_BLOCK and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise _damaged(path, Phrase("phrase.archive.inflates", name=repr(info.filename), ratio=MAX_RATIO))


def _check_manifest(manifest: object, path: Path) -> None:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _not_archive(path, Phrase("phrase.archive.bad_manifest"))
    version = manifest.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise ArchiveError.coded("archive_newer", path=path, version=version)
    shapes = {"collection": str, "members": dict, "counts": dict}
    for key, kind in shapes.items():
        if not isinstance(manifest.get(key), kind):
            raise _damaged(path, Phrase("phrase.archive.manifest_key", key=repr(key)))
    if not all(isinstance(manifest["counts"].get(k), int) for k in ("sources", "files", "chunks", "vectors")):
        raise _damaged(path, Phrase("phrase.archive.no_counts"))
    chunking = manifest.get("chunking")  # absent in older archives; an empty library takes it as its own
    if chunking is not None and not (isinstance(chunking, dict) and chunking_fits(chunking)):
        raise _damaged(path, Phrase("phrase.archive.chunking"))
    model, dimension = manifest.get("embedding_model"), manifest.get("dimension")
    if manifest["counts"]["vectors"] and not (isinstance(model, str) and isinstance(dimension, int) and dimension > 0):
        raise _damaged(path, Phrase("phrase.archive.no_model"))
    for name in (COLLECTION, CHUNKS, VECTORS, VECTOR_IDS):
        if name not in manifest["members"]:
            raise _damaged(path, Phrase("phrase.archive.unlisted", name=name))


def _verify(zf: zipfile.ZipFile, info: zipfile.ZipInfo, entry: dict, path: Path) -> None:
    digest = hashlib.sha256()
    for block in _blocks(zf, info, entry["size"]):
        digest.update(block)
    if digest.hexdigest() != entry["sha256"]:
        raise _damaged(path, Phrase("phrase.archive.checksum", name=repr(info.filename)))


def _blocks(zf: zipfile.ZipFile, info: zipfile.ZipInfo, size: int) -> Iterator[bytes]:
    """The member's bytes, never more than `size` of them (a lying header cannot inflate past it)."""
    read = 0
    with zf.open(info) as fh:
        while block := fh.read(min(COPY_BLOCK, size - read + 1)):
            read += len(block)
            if read > size:
                raise ArchiveError.coded("member_larger", name=repr(info.filename))
            yield block
    if read != size:
        raise ArchiveError.coded("member_shorter", name=repr(info.filename))


def _member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    if info.file_size > limit:
        raise ArchiveError.coded("member_too_large", name=repr(info.filename))
    return b"".join(_blocks(zf, info, info.file_size))


def _load(zf: zipfile.ZipFile, info: zipfile.ZipInfo, entry: dict, path: Path) -> bytearray:
    """A member read once into a buffer of its declared size while its hash is checked (nothing parsed yet)."""
    buffer, digest, at = bytearray(entry["size"]), hashlib.sha256(), 0
    for block in _blocks(zf, info, entry["size"]):
        buffer[at:at + len(block)] = block
        digest.update(block)
        at += len(block)
    if digest.hexdigest() != entry["sha256"]:
        raise _damaged(path, Phrase("phrase.archive.checksum", name=repr(info.filename)))
    return buffer


def _content(loaded: dict[str, bytearray], manifest: dict, documents: dict[int, str], path: Path) -> ArchiveContent:
    from desktop_rag.engine.archive.shapes import check_rows, oversized_passage

    collection = _json(loaded.pop(COLLECTION), COLLECTION, path)
    chunks = [_json(line, CHUNKS, path) for line in loaded.pop(CHUNKS).split(b"\n") if line.strip()]
    ids = np.frombuffer(loaded.pop(VECTOR_IDS), dtype="<i8").astype(np.int64, copy=False)
    dimension = manifest.get("dimension") or 0
    raw = loaded.pop(VECTORS)
    vectors = np.frombuffer(raw, dtype="<f4").reshape(len(ids), dimension) if len(ids) else np.zeros((0, 0), "<f4")
    if not np.isfinite(vectors).all():
        raise _damaged(path, Phrase("phrase.archive.vector_numbers"))
    if not isinstance(collection, dict):
        raise _damaged(path, Phrase("phrase.archive.collection_json"))
    sources, files = collection.get("sources"), collection.get("files")
    problem = check_rows(sources, files, chunks, ids, manifest["counts"], documents)
    if problem:
        raise _damaged(path, problem)
    problem = oversized_passage(chunks)
    if problem:
        raise ArchiveError.coded("cannot_import", name=path.name, problem=problem)
    return ArchiveContent(manifest, sources, files, chunks, ids, vectors.astype(np.float32, copy=False), documents)


def _json(data: bytes, name: str, path: Path):
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise _damaged(path, Phrase("phrase.archive.json", name=name)) from exc


def _not_archive(path: Path, why: Phrase) -> ArchiveError:
    return ArchiveError.coded("not_archive", name=path.name, why=why)


def _damaged(path: Path, why: Phrase | str) -> ArchiveError:
    return ArchiveError.coded("archive_damaged", name=path.name, why=why)


def path_parts(path: str) -> list[str]:
    """The non-empty parts of a stored path, whichever system wrote it: a POSIX path (from "/") is split at "/"
    only, since "\\" is an ordinary character of a name there; any other (C:\\..., \\\\server\\...) at both."""
    return [p for p in re.split("/" if path.startswith("/") else r"[/\\]", path) if p]


def path_leaf(path: str) -> str:
    """The last part of a stored path, whichever system wrote it."""
    return (path_parts(path) or ["document"])[-1]
