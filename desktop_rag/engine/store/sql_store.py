"""What the two backends' connections share (store/library.py: the seam): the statements on sources, files, chunks
and counts that run unchanged on SQLite and PostgreSQL (the reads of counts and passages: sql_reads.py). A backend's
store (sqlite/store.py, postgres/store.py) adds its connection, transactions, ids, keyword rows and search, and its
vectors."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from desktop_rag.engine.endpoint import model_id_shown
from desktop_rag.engine.errors import LoadError, UsageError
from desktop_rag.engine.paths import display_text, is_valid_text
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.carried_references import Moved, carry
from desktop_rag.engine.store import ocr_lines
from desktop_rag.engine.store.kept_vectors import renew_chunks
from desktop_rag.engine.store.library import Connection
from desktop_rag.engine.store.sql_reads import IN_COLLECTION, SqlReads
from desktop_rag.engine.store.values import AttachmentRows, FileRecord, ReplacedChunks, SourceRecord
from desktop_rag.engine.store.values import ChunkDraft, OcrLine

FILE_COLUMNS = "id, source_id, path, size, mtime_ns, sha256, status, error, chunk_count, parent_id, reason"
_CARRIER_COLUMNS = ", ".join(f"p.{column}" for column in FILE_COLUMNS.split(", "))  # a file's parent row
MODEL_KEYS = frozenset(("embedding_model", "staged_model"))  # meta holding a model id: `endpoint.model_id_shown`'s


class SqlStore(SqlReads):
    """One connection's statements that both SQL engines run (its counts and passages read: SqlReads); the backend's
    subclass supplies the rest."""

    db: Connection
    read_only: bool
    location: str
    folder: Path | None
    SOURCE_COLUMNS = "id, path, kind, collection_id, detached"  # the last: not linked to this computer
    NOT_LINKED = "s.detached"  # of the source row `s`

    # ---- what each backend supplies besides the rest of the Store protocol (store/library.py) ----------

    def _new_chunk_ids(self, count: int) -> list[int]:
        """`count` chunk ids never used before in this library (an id names one text for good: caches and logs check
        chunks by their ids)."""
        raise NotImplementedError

    def _insert_chunk_rows(self, rows: list[tuple]) -> None:
        """Insert chunk rows (id, file, ordinal, text, page, heading, start, end, ocr) with their keyword rows."""
        raise NotImplementedError

    def stored_text(self, text: str) -> str:
        """A chunk's text or heading as this backend stores it (written so by `insert_chunks`, matched so by
        kept_vectors.py); unchanged here."""
        return text

    def _clear_keyword_rows(self) -> None:
        raise NotImplementedError

    def copy_vectors(self, table: str, pairs: Sequence[tuple[int, int]]) -> None:
        """Give each (new, old) chunk of `pairs` the old one's row of `table` ("vectors" or "staged_vectors"), inside
        the caller's transaction (kept_vectors.py)."""
        raise NotImplementedError

    def hold_staged_vectors(self, switching: bool = False) -> None:
        """Inside the caller's transaction, hold a model switch's staged vectors until it ends: for writing rows
        (many writers at once), or `switching` to another model (alone: it waits for every writer and holds them
        back, so no row of the old switch's model is left under the new one's mark: staged_vectors.py). Here the
        writers' lock keeps every other writer out already."""

    def hold_vectors(self, moving: bool = False, file: str | None = None) -> None:
        """Inside the caller's transaction, before it touches a file's row, take the vectors' tables (vectors, then
        staged): for deleting or writing rows (for the file at `file` only when its row is there: a new file's
        chunks have no vectors yet, so its write never waits for a model switch's swap), or `moving` chunks to
        another collection (alone: the `chunk_moved` trigger's lock, taken here first so a move never holds a
        file's row while it waits for a writer, which waits for that row). Here the writers' lock keeps every
        other writer out already."""

    @contextlib.contextmanager
    def _writing_files(self, path: str | None = None) -> Iterator[None]:
        """A transaction that changes files' rows, their chunks or vectors, holding the vectors' tables first
        (`hold_vectors`): a move of one of them (another process of this client, or another client) waits for it
        at the tables, never holding a table it needs while it waits for a row it holds (a file written by `path`:
        only once it has a row)."""
        with self.transaction():
            self.hold_vectors(file=path)
            yield

    # ---- the FAISS cache's stamps: nothing to stamp where the server searches its own vectors ----------

    def carry_references(self, file_id: int, moves: Sequence[Moved]) -> None:
        """What is attached to `file_id`'s unchanged old chunks follows them to the new ones (carried_references.py;
        the PostgreSQL store moves every person's rows)."""
        carry(self.db, file_id, moves)

    def vectors_changed(self) -> None:
        """The set of vectors changed (inside the caller's transaction): a cache of them must be rebuilt."""

    def bump_membership(self) -> None:
        """Chunks changed collection or path without their vectors changing: filters of them must be rebuilt."""

    def membership_key(self) -> tuple[int, int]:
        """Changes whenever the set of vectors, or which collection or path a vector belongs to, changes."""
        return 0, 0

    def vectors_generation(self) -> int:
        return 0

    def sees_everything(self) -> bool:
        """Whether every collection's rows are visible here (on a server, to its administrator only)."""
        return True

    def library_has_chunks(self) -> bool:
        """Whether any collection holds chunks, those of collections not visible here too."""
        return self.db.execute("SELECT EXISTS (SELECT 1 FROM chunks)").fetchone()[0] == 1

    # ---- meta, sources, files, chunks and counts ------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row and key in MODEL_KEYS:  # one stored by an earlier version with a user:password@ in its address
            return model_id_shown(row[0])
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        value = model_id_shown(value) if key in MODEL_KEYS else value
        self.db.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                        (key, value))

    def delete_meta(self, *keys: str) -> None:
        self.db.executemany("DELETE FROM meta WHERE key = ?", ((key,) for key in keys))

    # ---- sources ---------------------------------------------------------

    def add_source(self, path: str, kind: str, collection_id: int | None = None, detached: bool = False) -> int:
        """Register a source in a collection (None: the first collection); an existing path keeps its own."""
        if not is_valid_text(path):
            raise UsageError.coded("bad_source_name", path=display_text(path))
        with self.transaction():
            if collection_id is None:
                collection_id = self.first_collection_id()
            self.db.execute(
                "INSERT INTO sources (path, kind, added_at, collection_id, detached) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (path) DO NOTHING",
                (path, kind, time.time(), collection_id, int(detached)),
            )
            row = self.db.execute("SELECT id FROM sources WHERE path = ?", (path,)).fetchone()
            if row is None:  # a source of a collection this role may not see (a library on a server)
                raise UsageError.coded("source_not_granted", path=display_text(path))
            return row[0]

    def first_collection_id(self) -> int:
        """The collection sources go to when none is named (the oldest one)."""
        return self.db.execute("SELECT coalesce(min(id), 1) FROM collections").fetchone()[0]

    def sources(self, collection_id: int | None = None) -> list[SourceRecord]:
        sql = f"SELECT {self.SOURCE_COLUMNS} FROM sources"
        if collection_id is None:
            rows = self.db.execute(sql + " ORDER BY path").fetchall()
        else:
            rows = self.db.execute(sql + " WHERE collection_id = ? ORDER BY path", (collection_id,)).fetchall()
        return [_source(r) for r in rows]

    def source_by_path(self, path: str) -> SourceRecord | None:
        """The source at `path` (a name that is not valid text looked up as stored: `paths.display_text`)."""
        row = self.db.execute(f"SELECT {self.SOURCE_COLUMNS} FROM sources WHERE path = ?",
                              (display_text(path),)).fetchone()
        return _source(row) if row else None

    def overlaps_hidden_source(self, path: str) -> bool:
        """Whether `path` is, holds or lies inside a source of a collection not visible here (on a server, to a
        member); here every source is seen."""
        return False

    def remove_source(self, source_id: int) -> list[int]:
        """Delete a source with its files and chunks; returns the ids of chunks that had vectors."""
        with self._writing_files():
            gone = [r[0] for r in self.db.execute(
                "SELECT v.chunk_id FROM vectors v JOIN chunks c ON c.id = v.chunk_id "
                "JOIN files f ON f.id = c.file_id WHERE f.source_id = ?", (source_id,))]
            self.db.execute("DELETE FROM sources WHERE id = ?", (source_id,))
            if gone:
                self.vectors_changed()
        return gone

    # ---- files -----------------------------------------------------------

    def files(self, source_id: int | None = None, collection_id: int | None = None) -> list[FileRecord]:
        """Files by path (an e-mail's attachments follow their message, `parent_id` set)."""
        sql = f"SELECT {FILE_COLUMNS} FROM files"
        if source_id is not None:
            rows = self.db.execute(sql + " WHERE source_id = ? ORDER BY path", (source_id,)).fetchall()
        elif collection_id is not None:
            rows = self.db.execute(sql + f" f WHERE {IN_COLLECTION} ORDER BY path", (collection_id,)).fetchall()
        else:
            rows = self.db.execute(sql + " ORDER BY path").fetchall()
        return [file_record(r) for r in rows]

    def file_by_path(self, path: str) -> FileRecord | None:
        """The file at `path` (a name that is not valid text looked up as stored: `paths.display_text`)."""
        row = self.db.execute(f"SELECT {FILE_COLUMNS} FROM files WHERE path = ?", (display_text(path),)).fetchone()
        return file_record(row) if row else None

    def carrier(self, path: str) -> FileRecord | None:
        """The file that carries the attachment at `path` (an e-mail), or None when `path` is no attachment."""
        row = self.db.execute(f"SELECT {_CARRIER_COLUMNS} FROM files f JOIN files p ON p.id = f.parent_id "
                              "WHERE f.path = ?", (path,)).fetchone()
        return file_record(row) if row else None

    def file_linked(self, path: str) -> bool:
        """False for a file of a source imported without its documents (not linked): never read from disk."""
        row = self.db.execute(f"SELECT {self.NOT_LINKED} FROM files f JOIN sources s ON s.id = f.source_id "
                              "WHERE f.path = ?", (path,)).fetchone()
        return row is None or not row[0]

    def touch_file(self, file_id: int, size: int, mtime_ns: int) -> None:
        """Record a new size/mtime for a file whose content hash did not change."""
        self.db.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE id = ?", (size, mtime_ns, file_id))

    def move_file(self, file_id: int, new_path: str, source_id: int, size: int, mtime_ns: int) -> bool:
        """A renamed or moved file keeps its chunks and vectors (and may change collection with its source); its
        attachments move with it, below its new path. False when the file is no longer stored (another client
        deleted its collection meanwhile): nothing moved."""
        self.hold_vectors(moving=True)
        row = self.db.execute("SELECT path FROM files WHERE id = ?", (file_id,)).fetchone()
        if row is None:
            return False
        old_path = row[0]
        self.bump_membership()  # its chunks may now be in another collection, folder or file type (search filters)
        self.db.execute(
            "UPDATE files SET path = ?, source_id = ?, size = ?, mtime_ns = ? WHERE id = ?",
            (new_path, source_id, size, mtime_ns, file_id),
        )
        self.db.execute("UPDATE files SET path = ? || substr(path, ?), source_id = ?, mtime_ns = ? WHERE parent_id = ?",
                        (new_path, len(old_path) + 1, source_id, mtime_ns, file_id))
        return True

    def record_failure(self, source_id: int, path: str, size: int, mtime_ns: int, sha256: str,
                       error: Reason) -> list[int]:
        """Mark a file failed (its old chunks go) with its reason; returns chunk ids whose vectors were dropped."""
        with self._writing_files(path):
            file_id = self._upsert_file(source_id, path)
            if file_id is None:  # another collection's file, hidden from this role: nothing here to record
                return []
            dropped = self._drop_chunks(file_id) + self._drop_attachments(file_id)
            self.db.execute(
                "UPDATE files SET size=?, mtime_ns=?, sha256=?, status='failed', error=?, reason=?, chunk_count=0, "
                "indexed_at=? WHERE id=?",
                (size, mtime_ns, sha256, str(error), error.to_json(), time.time(), file_id),
            )
        return dropped

    def fail_attachment(self, file_id: int, error: Reason) -> list[int]:
        """Mark an attachment row failed with its reason (its chunks go, it stays below its message); returns chunk
        ids whose vectors were dropped."""
        with self._writing_files():
            dropped = self._drop_chunks(file_id)
            self.db.execute("UPDATE files SET status='failed', error=?, reason=?, chunk_count=0, indexed_at=? "
                            "WHERE id=?", (str(error), error.to_json(), time.time(), file_id))
        return dropped

    def replace_file_chunks(
        self, source_id: int, path: str, size: int, mtime_ns: int, sha256: str, chunks: Sequence[ChunkDraft],
        note: Reason = Reason(), attachments: Sequence[AttachmentRows] = (), lines: Sequence[OcrLine] = (),
    ) -> ReplacedChunks:
        """Text phase: swap a file's chunks (and keyword rows, its scanned pages' `lines`), and its attachments' rows,
        in one transaction.
        `note` (what the reader says about an indexed file, e.g. PDF pages read by OCR) is kept in its `error`
        column. An attachment whose bytes are the ones already stored keeps its chunks and vectors; a chunk whose
        embedded text an old one of its file had takes that one's vectors (kept_vectors.py).

        Returns the ids of old chunks whose vectors were dropped and of new ones given a vector, for the FAISS cache.
        """
        with self._writing_files(path):
            file_id = self._upsert_file(source_id, path)
            if file_id is None:
                raise LoadError.coded("file_not_granted")
            replaced = renew_chunks(self, file_id, chunks)
            dropped, reused = replaced.dropped, replaced.reused
            ocr_lines.write(self, file_id, lines)
            self._set_indexed(file_id, size, mtime_ns, sha256, note, len(chunks))
            stored = {r[0]: (r[1], r[2]) for r in self.db.execute(
                "SELECT path, id, sha256 FROM files WHERE parent_id = ? AND status = 'indexed'", (file_id,))}
            same = {a.path: stored[a.path][0] for a in attachments
                    if a.sha256 and stored.get(a.path, (0, ""))[1] == a.sha256}
            carried = {stored[a.path][0] for a in attachments if a.path in stored}  # a changed one's row stays too:
            dropped += self._drop_attachments(file_id, keep=carried)  # its unchanged passages keep their vectors
            for a in attachments:
                if a.path in same:
                    self.db.execute("UPDATE files SET mtime_ns = ? WHERE id = ?", (mtime_ns, same[a.path]))
                    continue
                child = self._upsert_file(source_id, a.path, parent_id=file_id)
                if child is None:
                    raise LoadError.coded("file_not_granted")
                replaced = renew_chunks(self, child, a.chunks)
                dropped, reused = dropped + replaced.dropped, reused + replaced.reused
                self._set_indexed(child, a.size, mtime_ns, a.sha256, a.note, len(a.chunks))
        return ReplacedChunks(dropped, reused)

    def insert_chunks(self, file_id: int, chunks: Sequence[ChunkDraft]) -> list[int]:
        """A file's new chunks with their keyword rows (inside the caller's transaction); their ids, in order."""
        if not chunks:
            return []
        ids = self._new_chunk_ids(len(chunks))
        self._insert_chunk_rows([(chunk_id, file_id, c.ordinal, self.stored_text(c.text), c.page,
                                  self.stored_text(c.heading), c.char_start, c.char_end, int(c.ocr))
                                 for chunk_id, c in zip(ids, chunks)])
        return ids

    def _set_indexed(self, file_id: int, size: int, mtime_ns: int, sha256: str, note: Reason,
                     chunk_count: int) -> None:
        self.db.execute(
            "UPDATE files SET size=?, mtime_ns=?, sha256=?, status='indexed', error=?, reason=?, chunk_count=?, "
            "indexed_at=? WHERE id=?",
            (size, mtime_ns, sha256, str(note), note.to_json(), chunk_count, time.time(), file_id),
        )

    def _drop_attachments(self, file_id: int, keep: set[int] | frozenset[int] = frozenset()) -> list[int]:
        """Forget a file's attachment rows (but `keep`); returns chunk ids whose vectors were dropped."""
        dropped: list[int] = []
        for (child,) in self.db.execute("SELECT id FROM files WHERE parent_id = ?", (file_id,)).fetchall():
            if child not in keep:
                dropped += self._drop_chunks(child)
                self.db.execute("DELETE FROM files WHERE id = ?", (child,))
        return dropped

    def delete_files(self, file_ids: Iterable[int]) -> list[int]:
        """Forget files that left the disk; returns chunk ids whose vectors were dropped."""
        dropped: list[int] = []
        with self._writing_files():
            for file_id in file_ids:
                dropped += self._drop_chunks(file_id) + self._drop_attachments(file_id)
                self.db.execute("DELETE FROM files WHERE id = ?", (file_id,))
        return dropped

    def _upsert_file(self, source_id: int, path: str, parent_id: int | None = None) -> int | None:
        """The file's row, made if new; None when the path is a file of a collection this role may not see (on a
        server: row-level security hides it, and paths are unique across the library)."""
        self.db.execute("INSERT INTO files (source_id, path, status) VALUES (?, ?, 'pending') ON CONFLICT (path) "
                        "DO NOTHING", (source_id, path))
        self.db.execute("UPDATE files SET source_id = ?, parent_id = ? WHERE path = ?", (source_id, parent_id, path))
        row = self.db.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
        return row[0] if row else None

    def _drop_chunks(self, file_id: int) -> list[int]:
        dropped = [r[0] for r in self.db.execute(
            "SELECT v.chunk_id FROM vectors v JOIN chunks c ON c.id = v.chunk_id WHERE c.file_id = ?", (file_id,))]
        self.db.execute("DELETE FROM chunks WHERE file_id = ?", (file_id,))
        ocr_lines.drop(self, file_id)
        if dropped:
            self.vectors_changed()
        return dropped

    # ---- vectors ---------------------------------------------------------

    @contextlib.contextmanager
    def claim_pending(self, limit: int, after_id: int = 0,
                      staged: bool = False) -> Iterator[list[tuple[int, str, str]]]:
        """Up to `limit` chunks still without a vector (a staged one if `staged`: a model switch's), with an id
        above `after_id`: (id, heading, text), by id, claimed while the block runs, so that no other client embeds
        them meanwhile (a library on a server: postgres/store.py). Here the writers' lock keeps every other writer
        out: there is nothing to claim."""
        table = "staged_vectors" if staged else "vectors"
        yield self.db.execute(
            f"SELECT c.id, c.heading, c.text FROM chunks c LEFT JOIN {table} v ON v.chunk_id = c.id "
            "WHERE v.chunk_id IS NULL AND c.id > ? ORDER BY c.id LIMIT ?",
            (after_id, limit),
        ).fetchall()

    def clear_index(self) -> None:
        """Drop every chunk and vector and mark files pending (re-index with new settings)."""
        with self.transaction():
            self.db.execute("DELETE FROM vectors")
            self.db.execute("DELETE FROM chunks")
            self.db.execute("DELETE FROM ocr_lines")
            self._clear_keyword_rows()
            self.db.execute(
                "UPDATE files SET status='pending', error='', reason='', chunk_count=0, size=-1, mtime_ns=-1, sha256=''"
            )
            self.vectors_changed()


def _source(row: Sequence) -> SourceRecord:
    return SourceRecord(row[0], row[1], row[2], row[3], bool(row[4]))


def file_record(row: Sequence) -> FileRecord:
    """A files row (FILE_COLUMNS) as a record, its reason read from its codes (`reasons.Reason.stored`)."""
    return FileRecord(*row[:7], Reason.stored(row[7], row[10]), row[8], row[9])
