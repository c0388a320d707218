"""An index run's two phases over its sources: reconcile them with the store and commit text per file, then embed
the pending queue. The run around it (sources, chunking check, model switch, saving the cache) is indexing.py."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from desktop_rag.config import Settings
from desktop_rag.engine.errors import (
    PASS_THROUGH, DiskFullError, LibraryBusyError, LibraryUnavailableError, LoadError, is_disk_full,
)
from desktop_rag.engine.ingest.chunking import chunk_document, document_lines
from desktop_rag.engine.ingest.parsing import ParseCancelled, SafeParser
from desktop_rag.engine.ingest.scanning import LINK_OUTSIDE, DiskFile, file_sha256, scan, skipped_types, unread_folders
from desktop_rag.engine.ingest.failures import step_failure
from desktop_rag.engine.ingest.vector_phase import VectorPhase
from desktop_rag.engine.models.embedding import Embedder
from desktop_rag.engine.store.languages import note_chunk_texts
from desktop_rag.engine.store.skipped import set_skipped
from desktop_rag.engine.paths import attachment_path, is_inside
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.values import AttachmentRows, FileRecord, SourceRecord
from desktop_rag.engine.ingest.documents import ParsedDocument
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.ingest.reports import FileEvent, IndexReport, Progress
from desktop_rag.engine.store.values import ChunkDraft, FailedFile

CHECKED_AGAIN = ("permission_denied",)  # no fault of the content: tried again (opened) on every run, written once
ProgressCallback = Callable[[Progress], None]
FileCallback = Callable[[FileEvent], None]


class Vectors(Protocol):
    """How an index run changes the loaded vectors: through the runtime, never the vector index itself."""

    def vectors_for_writing(self) -> int: ...  # ready to add to (the model recorded); the vectors' dimension
    def add_loaded_vectors(self, chunk_ids: Sequence[int], matrix) -> None: ...
    def add_stored_vectors(self, chunk_ids: list[int]) -> None: ...  # given by the store (an unchanged passage's)
    def remove_vectors(self, chunk_ids: Sequence[int]) -> None: ...


def _ignore(_event) -> None:
    return None


@dataclass
class _Tally:
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    chunks: int = 0
    embedded: int = 0
    failed: list[FailedFile] = field(default_factory=list)
    notes: list[FailedFile] = field(default_factory=list)  # indexed files the reader said something about
    skipped: dict[str, int] = field(default_factory=dict)  # not supported, by suffix
    attachments: int = 0  # read as documents of their own
    links: list[FailedFile] = field(default_factory=list)  # links leading outside their source: skipped
    kept: int = 0  # new chunks that kept an old chunk's vector


@dataclass(frozen=True)
class _Work:
    """A file whose content must be (re)read: new, or changed on disk."""

    source_id: int
    disk: DiskFile
    sha256: str
    existing: FileRecord | None


class Ingestor(VectorPhase):
    """Runs both phases for a set of sources (the second: VectorPhase). Owned by one thread (the writer)."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        embedder: Callable[[], Embedder],
        vectors: Vectors,
        parser: SafeParser,
        cancel: threading.Event | None = None,
        on_progress: ProgressCallback | None = None,
        on_file: FileCallback | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self._embedder = embedder
        self._vectors = vectors
        self.parser = parser
        self.cancel = cancel or threading.Event()
        self.on_progress = on_progress or _ignore
        self.on_file = on_file or _ignore
        self.tally = _Tally()

    def run(self, sources: Sequence[SourceRecord], embed: bool = True, force: Sequence[str] = ()) -> IndexReport:
        """Reconcile `sources`, then (if `embed`) embed every chunk still without a vector."""
        started = time.monotonic()
        # an attachment is read again with its message
        work = self._reconcile(sources, {c.path if (c := self.store.carrier(p)) else p for p in force})
        self._text_phase(work)
        if embed and not self.cancel.is_set():
            self.embed_pending()
        self.on_progress(Progress("done", files_done=len(work), files_total=len(work)))
        t = self.tally
        return IndexReport(
            t.added, t.updated, t.removed, t.unchanged, tuple(t.failed), t.chunks, t.embedded,
            time.monotonic() - started, self.cancel.is_set(), notes=tuple(t.notes),
            skipped=tuple(sorted(t.skipped.items(), key=lambda kv: (-kv[1], kv[0]))), attachments=t.attachments,
            links=tuple(t.links), kept=t.kept,
        )

    # ---- reconcile ---------------------------------------------------------

    def _reconcile(self, sources: Sequence[SourceRecord], force: set[str]) -> list[_Work]:
        """Compare disk and store: returns the files to read; handles unchanged, moved and removed ones."""
        self.on_progress(Progress("scan"))
        candidates: list[tuple[int, DiskFile, FileRecord | None]] = []
        vanished: dict[str, FileRecord] = {}
        for source in sources:
            found, skipped = scan(source.path, source.kind)
            for item in skipped:
                self.on_file(FileEvent(item.path, "skipped", item.reason))
            self.tally.links += [FailedFile(i.path, i.reason) for i in skipped if i.reason == LINK_OUTSIDE]
            by_type = skipped_types(skipped)
            for suffix, n in by_type.items():
                self.tally.skipped[suffix] = self.tally.skipped.get(suffix, 0) + n
            with self.store.transaction():  # what `status` reports: the last scan of each source
                set_skipped(self.store, source.id, by_type)
            # an attachment is never on disk: its row comes and goes with its message's
            stored = {f.path: f for f in self.store.files(source.id) if f.parent_id is None}
            on_disk = {d.path for d in found}
            unread = unread_folders(skipped)  # not listed (a drive not connected): its files are kept, not gone
            self.tally.failed.extend(FailedFile(item.path, item.reason) for item in skipped if item.path in unread)
            vanished.update({p: f for p, f in stored.items()
                             if p not in on_disk and not any(is_inside(p, folder) for folder in unread)})
            for disk in found:
                candidates.append((source.id, disk, stored.get(disk.path) or self.store.file_by_path(disk.path)))
        by_hash: dict[str, list[FileRecord]] = {}  # content -> the vanished files holding it (copies: several)
        for f in vanished.values():
            if f.status == "indexed" and f.sha256:
                by_hash.setdefault(f.sha256, []).append(f)
        work: list[_Work] = []
        for source_id, disk, existing in candidates:
            if self.cancel.is_set():
                break
            if existing and disk.path not in force and _same_stat(existing, disk) and existing.status != "pending":
                self.tally.unchanged += 1
                self.on_file(FileEvent(disk.path, "unchanged", existing.error, existing.chunk_count))
                continue
            try:
                sha = "" if disk.problem else file_sha256(disk.path)  # a bad name: not read, fails alone
            except PermissionError:
                sha = None  # there, but this user may not read it: it fails alone, said why
            except OSError:
                continue  # vanished between listing and reading: the next scan settles it
            try:
                if sha is None:
                    if _refused_before(existing, source_id, disk):  # recorded so already: said, not written, again
                        self._report_failure(disk.path, Reason.of(LoadError.coded("permission_denied")))
                    else:
                        self._fail(source_id, disk.path, disk.size, disk.mtime_ns, "",
                                   LoadError.coded("permission_denied"))
                    continue
                if self._settle_without_reading(source_id, disk, sha, existing, by_hash, vanished, force):
                    continue
            except PASS_THROUGH:
                raise
            except BaseException as exc:  # noqa: BLE001 - this file alone
                if _ends_run(exc):
                    raise
                self._fail(source_id, disk.path, disk.size, disk.mtime_ns, sha, step_failure(exc, "store_failed"))
                continue
            work.append(_Work(source_id, disk, sha, existing))
            self.on_file(FileEvent(disk.path, "queued"))
        if not self.cancel.is_set():
            self._remove(list(vanished.values()))
        return work

    def _settle_without_reading(self, source_id, disk, sha, existing, by_hash, vanished, force) -> bool:
        """Same content under a new stat or a new path: update the record, embed nothing."""
        if disk.path in force:
            return False
        if existing and existing.sha256 == sha and existing.status == "indexed":
            with self.store.transaction():
                self.store.touch_file(existing.id, disk.size, disk.mtime_ns)
            self.tally.unchanged += 1
            self.on_file(FileEvent(disk.path, "unchanged", chunks=existing.chunk_count))
            return True
        moved = by_hash[sha].pop() if existing is None and by_hash.get(sha) else None
        if moved is not None:
            with self.store.transaction():
                if not self.store.move_file(moved.id, disk.path, source_id, disk.size, disk.mtime_ns):
                    return False  # its collection deleted meanwhile (another client): read as a new file
            vanished.pop(moved.path, None)
            self.tally.unchanged += 1
            self.on_file(FileEvent(moved.path, "removed"))
            self.on_file(FileEvent(disk.path, "indexed", chunks=moved.chunk_count))
            return True
        return False

    def _remove(self, records: list[FileRecord]) -> None:
        if not records:
            return
        self._drop_vectors(self.store.delete_files([r.id for r in records]))
        for r in records:
            self.tally.removed += 1
            self.on_file(FileEvent(r.path, "removed"))

    # ---- text phase ----------------------------------------------------------

    def _text_phase(self, work: list[_Work]) -> None:
        if not work:
            return
        started = time.monotonic()
        for done, item in enumerate(work):
            if self.cancel.is_set():
                return
            rate = done / max(time.monotonic() - started, 1e-6)
            eta = (len(work) - done) / rate if rate > 0 else None
            self._reading = Progress("text", done, len(work), current_file=item.disk.path, rate=rate, eta_seconds=eta)
            self.on_progress(self._reading)
            self.on_file(FileEvent(item.disk.path, "indexing"))
            self._index_one(item)
        self.on_progress(Progress("text", len(work), len(work), rate=len(work) / max(time.monotonic() - started, 1e-6)))

    def _index_one(self, item: _Work) -> None:
        """Read, chunk and store one file. Whatever goes wrong fails this file alone, with a reason, and the run
        goes on; only a cancel (nothing recorded), a full disk, or a library that cannot even record the
        failure ends the run."""
        try:
            doc, chunks, attached = self._read(item)
        except ParseCancelled:
            return  # nothing recorded: the file is read again on the next run
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # noqa: BLE001 - a native library's panic too
            self._fail(*_where(item), step_failure(exc, "reader_failed"))
            return
        try:
            self._store(item, doc, chunks, attached)
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # noqa: BLE001
            if _ends_run(exc):
                raise
            self._fail(*_where(item), step_failure(exc, "store_failed"))

    def _read(self, item: _Work) -> tuple[ParsedDocument, list[ChunkDraft], list[AttachmentRows]]:
        """The file's document, its chunks and its attachments' rows (LoadError when there is nothing to keep)."""
        disk = item.disk
        if disk.problem:
            raise LoadError.coded(disk.problem)
        doc = self.parser.parse(disk.path, on_page=self._ocr_progress, cancel=self.cancel)
        _check_unchanged(disk)
        try:
            chunks = chunk_document(doc, self.settings.chunk_size, self.settings.chunk_overlap)
            attached = self._attachment_rows(disk.path, doc)
        except (LoadError, MemoryError):
            raise
        except Exception as exc:
            raise step_failure(exc, "chunking_failed") from exc
        if not chunks:
            raise LoadError.coded("no_text_extracted")
        return doc, chunks, attached

    def _store(self, item: _Work, doc: ParsedDocument, chunks: list[ChunkDraft],
               attached: list[AttachmentRows]) -> None:
        disk = item.disk
        note = Reason.of(*doc.notes)
        replaced = self.store.replace_file_chunks(
            item.source_id, disk.path, disk.size, disk.mtime_ns, item.sha256, chunks, note, attached,
            document_lines(doc))
        self._drop_vectors(replaced.dropped)
        if replaced.reused:  # the passages that did not change kept their vectors: never embedded again
            self._vectors.add_stored_vectors(replaced.reused)
        self.tally.kept += len(replaced.reused)
        note_chunk_texts(self.store, [c.text for c in chunks] + [c.text for a in attached for c in a.chunks])
        if item.existing is None:
            self.tally.added += 1
        else:
            self.tally.updated += 1
        self.tally.chunks += len(chunks)
        if note:
            self.tally.notes.append(FailedFile(disk.path, note))
        self.on_file(FileEvent(disk.path, "indexed", note, chunks=len(chunks)))
        self.tally.attachments += len(attached)
        for a in attached:
            self.tally.chunks += len(a.chunks)
            self.on_file(FileEvent(a.path, "indexed", a.note, chunks=len(a.chunks), carrier=disk.path))

    def _fail(self, source_id: int, path: str, size: int, mtime_ns: int, sha256: str, error: LoadError, *,
              attachment: int | None = None) -> None:
        """Record the file as failed with `error` (an e-mail's `attachment` row below its message); when even that
        cannot be written the library is at fault, and the run ends with that error."""
        reason = Reason.of(error)  # its code and values: shown in the user's language, never read back from English
        if reason.code in CHECKED_AGAIN:
            mtime_ns = 0  # a permission given back changes no size or time: the next run looks again
        if attachment is not None:
            dropped = self.store.fail_attachment(attachment, reason)
        else:
            dropped = self.store.record_failure(source_id, path, size, mtime_ns, sha256, reason)
        self._drop_vectors(dropped)
        self._report_failure(path, reason)

    def _report_failure(self, path: str, reason: Reason) -> None:
        self.tally.failed.append(FailedFile(path, reason))
        self.on_file(FileEvent(path, "failed", reason))

    def _attachment_rows(self, path: str, doc: ParsedDocument) -> list[AttachmentRows]:
        """The documents a file carries (an e-mail's attachments), chunked, with their paths below `path`."""
        rows = []
        for a in doc.attachments:
            chunks = chunk_document(a.document, self.settings.chunk_size, self.settings.chunk_overlap)
            if chunks:
                rows.append(AttachmentRows(attachment_path(path, a.part), a.size, a.sha256, chunks,
                                           Reason.of(*a.document.notes)))
        return rows

    def _ocr_progress(self, page: int, pages: int) -> None:
        """Text recognition inside the current file: "recognising text, page 3 of 40"."""
        reading = getattr(self, "_reading", None) or Progress("text")
        self.on_progress(dataclasses.replace(reading, ocr_page=page, ocr_pages=pages))

    def _drop_vectors(self, chunk_ids: list[int]) -> None:
        if chunk_ids:
            self._vectors.remove_vectors(chunk_ids)


def _where(item: _Work) -> tuple[int, str, int, int, str]:
    """What a failure record of `item` needs: source, path, size, mtime, sha256."""
    return item.source_id, item.disk.path, item.disk.size, item.disk.mtime_ns, item.sha256


def _ends_run(exc: BaseException) -> bool:
    """A full disk, a library that cannot be reached, or another client holding what this write needs (a deadlock or
    a lock wait that timed out on a server): no file's fault, so the run stops and says so, and the file is read again
    on the next run instead of staying failed."""
    return isinstance(exc, (DiskFullError, LibraryUnavailableError, LibraryBusyError)) or is_disk_full(exc)


def _same_stat(record: FileRecord, disk: DiskFile) -> bool:
    return record.size == disk.size and record.mtime_ns == disk.mtime_ns


def _refused_before(record: FileRecord | None, source_id: int, disk: DiskFile) -> bool:
    """Whether the store already holds this refusal (a CHECKED_AGAIN failure of this source, at this size): then
    the run's one attempt to open the file is the whole re-check, and nothing is written. (A permission given back
    changes only st_ctime, which the store does not keep: the attempt, one refused open, costs less than a column.)"""
    return (record is not None and record.status == "failed" and record.error.code in CHECKED_AGAIN
            and record.source_id == source_id and record.size == disk.size)


def _check_unchanged(disk: DiskFile) -> None:
    """The file must still be the one that was listed, or its text may be half old, half new."""
    import os

    try:
        st = os.stat(disk.path)
    except OSError as exc:
        raise LoadError.coded("file_vanished") from exc
    if st.st_size != disk.size or st.st_mtime_ns != disk.mtime_ns:
        raise LoadError.coded("file_changed")
