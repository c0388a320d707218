"""SQLite store, the single source of truth: sources, files, chunks, vectors, keyword index, meta."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from desktop_rag.config import private_dir, private_file
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.paths import display_text, is_valid_text
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store import answer_cache, grades, keyword_index, legacy_reasons, summary_cache, versioning
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.text import keyword
from desktop_rag.engine.store.values import ChunkDraft, FailedFile, Hit

SCHEMA_VERSION = 4  # 2: collections (sources.collection_id, conversations.collection_id); 3: files.parent_id;
# 4: files.reason (a failure or a note as its codes: reasons.Reason; older rows read once, legacy_reasons)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS collections (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sources (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('folder', 'file')),
    added_at REAL NOT NULL,
    collection_id INTEGER NOT NULL DEFAULT 1,
    detached INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    path TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL DEFAULT 0,
    mtime_ns INTEGER NOT NULL DEFAULT 0,
    sha256 TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK (status IN ('pending', 'indexed', 'failed')),
    error TEXT NOT NULL DEFAULT '',
    chunk_count INTEGER NOT NULL DEFAULT 0,
    indexed_at REAL NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS files_source ON files(source_id);
CREATE INDEX IF NOT EXISTS files_hash ON files(sha256);
-- `status` at 100k files: counts by status and the failed files read these small indexes, not the table
CREATE INDEX IF NOT EXISTS files_status ON files(status);
CREATE INDEX IF NOT EXISTS files_source_totals ON files(source_id, status, chunk_count);
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    text TEXT NOT NULL,
    page INTEGER,
    heading TEXT NOT NULL DEFAULT '',
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL,
    ocr INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS chunks_file ON chunks(file_id, ordinal);
CREATE TABLE IF NOT EXISTS vectors (
    chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
    vector BLOB NOT NULL
);
-- count(*) on vectors would read every 1.5 KB blob page (30 ms at 20k vectors); this index makes it ~0.02 ms
CREATE INDEX IF NOT EXISTS vectors_count ON vectors(chunk_id);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(body, tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER IF NOT EXISTS chunks_fts_delete AFTER DELETE ON chunks BEGIN
    DELETE FROM chunks_fts WHERE rowid = old.id;
END;
CREATE TABLE IF NOT EXISTS conversations (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    collection_id INTEGER
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    content TEXT NOT NULL,
    sources_json TEXT NOT NULL DEFAULT '[]',
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_conversation ON messages(conversation_id, id);
"""


@dataclass(frozen=True)
class FileRecord:
    """A file row as the reconciler and the library panel see it."""

    id: int
    source_id: int
    path: str
    size: int
    mtime_ns: int
    sha256: str
    status: str
    error: Reason  # why it failed, or its reader's note on an indexed file
    chunk_count: int
    parent_id: int | None = None  # an e-mail's attachment: the file row of the message that carries it


@dataclass(frozen=True)
class AttachmentRows:
    """One attachment of a file, as replace_file_chunks stores it: a file row below its carrier's path."""

    path: str
    size: int
    sha256: str
    chunks: Sequence[ChunkDraft]
    note: Reason = Reason()


@dataclass(frozen=True)
class SourceRecord:
    id: int
    path: str
    kind: str
    collection_id: int = 1
    detached: bool = False  # imported without its documents: not reconciled while its path is missing


_SOURCE_COLUMNS = "id, path, kind, collection_id, detached"
_FILE_COLUMNS = "id, source_id, path, size, mtime_ns, sha256, status, error, chunk_count, parent_id, reason"
_CARRIER_COLUMNS = ", ".join(f"p.{column}" for column in _FILE_COLUMNS.split(", "))  # a file's parent row
# Added (schema 2 and later) to tables that older libraries already have (ALTER TABLE: no REFERENCES with a default).
_ADDED_COLUMNS = (
    ("sources", "collection_id", "INTEGER NOT NULL DEFAULT 1"),
    ("sources", "detached", "INTEGER NOT NULL DEFAULT 0"),
    ("conversations", "collection_id", "INTEGER"),
    ("messages", "sent_json", "TEXT"),  # what an answer sent, kept with it (issue 40); older messages have none
    # schema 3: an e-mail's attachments are files of their own, rows that go with their message's row
    ("files", "parent_id", "INTEGER REFERENCES files(id) ON DELETE CASCADE"),
    # schema 4: `error` as codes and values (reasons.Reason.to_json; '' when the English text is all there is)
    ("files", "reason", "TEXT NOT NULL DEFAULT ''"),
)
_ADDED_INDEXES = ("CREATE INDEX IF NOT EXISTS sources_collection ON sources(collection_id)",
                  "CREATE INDEX IF NOT EXISTS files_parent ON files(parent_id)")
DEFAULT_COLLECTION = "Default"


class Store:
    """One SQLite connection (use one Store per thread). WAL mode; short transactions."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        if read_only:
            self.db = _connect_read_only(path)
        else:
            private_dir(path.parent)
            private_file(path)  # SQLite gives its -wal and -shm files the database's mode
            self.db = sqlite3.connect(str(path), timeout=30.0, isolation_level=None, check_same_thread=False)
            if self.db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":  # persistent: set once per library
                self.db.execute("PRAGMA journal_mode=WAL")  # (setting it again can fail "locked" while another opens)
            self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA busy_timeout=30000")
        if read_only:
            self._check_read_only_schema()
        else:
            self._migrate()
        # Per-connection view of the keyword index's term statistics (no storage): document frequencies.
        self.db.execute(keyword_index.VOCABULARY_VIEW)
        if read_only:  # mode=ro already refuses writes to the file; this refuses them before SQLite tries
            self.db.execute("PRAGMA query_only=ON")

    def close(self) -> None:
        self.db.close()

    # ---- schema and meta -------------------------------------------------

    def _migrate(self) -> None:
        """Create or upgrade the schema in one transaction (schema 1 -> 2: every source joins "Default"; 3 -> 4:
        the stored reasons read once into codes, `legacy_reasons`)."""
        with self.transaction():
            has_meta = self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone()
            version = int(self.get_meta("schema_version") or 0) if has_meta else 0
            if version > SCHEMA_VERSION:
                raise UsageError.coded("library_newer_schema", version=version)
            for statement in _split_sql(_SCHEMA):
                self.db.execute(statement)
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('vectors_generation', '0')")
            columns = {r[1] for r in self.db.execute("PRAGMA table_info(chunks)")}
            if "ocr" not in columns:  # libraries made before OCR: text recognised from images is flagged
                self.db.execute("ALTER TABLE chunks ADD COLUMN ocr INTEGER NOT NULL DEFAULT 0")
            self._add_collections()
            if 0 < version < 4:
                legacy_reasons.migrate(self.db)
            versioning.install(self.db)
            answer_cache.install(self.db)
            summary_cache.install(self.db)
            grades.install(self.db)  # the review log (issue 39)
            self.db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))

    def _add_collections(self) -> None:
        """Schema 2: collection columns on older tables, and at least one collection ("Default", id 1, which
        every source of an upgraded library belongs to: nothing is re-embedded)."""
        for table, column, declaration in _ADDED_COLUMNS:
            if column not in {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}:
                self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
        for statement in _ADDED_INDEXES:
            self.db.execute(statement)
        if not self.db.execute("SELECT EXISTS (SELECT 1 FROM collections)").fetchone()[0]:
            first = self.db.execute("SELECT coalesce(min(collection_id), 1) FROM sources").fetchone()[0]
            self.db.execute("INSERT INTO collections (id, name, created_at) VALUES (?, ?, ?)",
                            (first, DEFAULT_COLLECTION, time.time()))
            self.db.execute("UPDATE sources SET collection_id = ?", (first,))

    def _check_read_only_schema(self) -> None:
        """A read-only connection cannot migrate: the library must already have this schema."""
        try:
            version = int(self.get_meta("schema_version") or 0)
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise UsageError.coded("not_a_library", path=self.path, detail=str(exc)) from exc
        if version != SCHEMA_VERSION:
            self.db.close()
            raise UsageError.coded("library_newer" if version > SCHEMA_VERSION else "library_older")

    def transaction(self) -> "_Transaction":
        return _Transaction(self.db)

    @contextlib.contextmanager
    def read_snapshot(self) -> Iterator[None]:
        """Reads inside see one consistent state of the library, whatever other processes commit meanwhile."""
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN")
        try:
            yield
        finally:
            if self.db.in_transaction:
                self.db.execute("COMMIT")

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def delete_meta(self, *keys: str) -> None:
        self.db.executemany("DELETE FROM meta WHERE key = ?", ((key,) for key in keys))

    def library_version(self) -> int | None:
        """Moves with every committed write that can change search results (`versioning`)."""
        return versioning.library_version(self.db)

    def vectors_generation(self) -> int:
        return int(self.get_meta("vectors_generation") or 0)

    def _bump_generation(self) -> None:
        self.db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vectors_generation'")

    def bump_membership(self) -> None:
        """Chunks changed collection without their vectors changing: collection filters must be rebuilt."""
        self.db.execute("INSERT INTO meta VALUES ('membership_generation', '1') ON CONFLICT(key) "
                        "DO UPDATE SET value = CAST(value AS INTEGER) + 1")

    def membership_key(self) -> tuple[int, int]:
        """Changes whenever the set of vectors, or which collection a vector belongs to, changes."""
        with self.read_snapshot():
            return self.vectors_generation(), int(self.get_meta("membership_generation") or 0)

    # ---- sources ---------------------------------------------------------

    def add_source(self, path: str, kind: str, collection_id: int | None = None, detached: bool = False) -> int:
        """Register a source in a collection (None: the first collection); an existing path keeps its own."""
        if not is_valid_text(path):
            raise UsageError.coded("bad_source_name", path=display_text(path))
        with self.transaction():
            if collection_id is None:
                collection_id = self.first_collection_id()
            self.db.execute(
                "INSERT OR IGNORE INTO sources (path, kind, added_at, collection_id, detached) VALUES (?, ?, ?, ?, ?)",
                (path, kind, time.time(), collection_id, int(detached)),
            )
            return self.db.execute("SELECT id FROM sources WHERE path = ?", (path,)).fetchone()[0]

    def first_collection_id(self) -> int:
        """The collection sources go to when none is named (the oldest one)."""
        return self.db.execute("SELECT coalesce(min(id), 1) FROM collections").fetchone()[0]

    def sources(self, collection_id: int | None = None) -> list[SourceRecord]:
        sql = f"SELECT {_SOURCE_COLUMNS} FROM sources"
        if collection_id is None:
            rows = self.db.execute(sql + " ORDER BY path").fetchall()
        else:
            rows = self.db.execute(sql + " WHERE collection_id = ? ORDER BY path", (collection_id,)).fetchall()
        return [_source(r) for r in rows]

    def source_by_path(self, path: str) -> SourceRecord | None:
        row = self.db.execute(f"SELECT {_SOURCE_COLUMNS} FROM sources WHERE path = ?", (path,)).fetchone()
        return _source(row) if row else None

    def remove_source(self, source_id: int) -> list[int]:
        """Delete a source with its files and chunks; returns the ids of chunks that had vectors."""
        with self.transaction():
            gone = [r[0] for r in self.db.execute(
                "SELECT v.chunk_id FROM vectors v JOIN chunks c ON c.id = v.chunk_id "
                "JOIN files f ON f.id = c.file_id WHERE f.source_id = ?", (source_id,))]
            self.db.execute("DELETE FROM sources WHERE id = ?", (source_id,))
            if gone:
                self._bump_generation()
        return gone

    # ---- files -----------------------------------------------------------

    def files(self, source_id: int | None = None, collection_id: int | None = None) -> list[FileRecord]:
        """Files by path (an e-mail's attachments follow their message, `parent_id` set)."""
        sql = f"SELECT {_FILE_COLUMNS} FROM files"
        if source_id is not None:
            rows = self.db.execute(sql + " WHERE source_id = ? ORDER BY path", (source_id,)).fetchall()
        elif collection_id is not None:
            rows = self.db.execute(sql + f" f WHERE {_IN_COLLECTION} ORDER BY path", (collection_id,)).fetchall()
        else:
            rows = self.db.execute(sql + " ORDER BY path").fetchall()
        return [_file(r) for r in rows]

    def file_by_path(self, path: str) -> FileRecord | None:
        row = self.db.execute(f"SELECT {_FILE_COLUMNS} FROM files WHERE path = ?", (path,)).fetchone()
        return _file(row) if row else None

    def carrier(self, path: str) -> FileRecord | None:
        """The file that carries the attachment at `path` (an e-mail), or None when `path` is no attachment."""
        row = self.db.execute(f"SELECT {_CARRIER_COLUMNS} FROM files f JOIN files p ON p.id = f.parent_id "
                              "WHERE f.path = ?", (path,)).fetchone()
        return _file(row) if row else None

    def file_linked(self, path: str) -> bool:
        """False for a file of a source imported without its documents (not linked): never read from disk."""
        row = self.db.execute("SELECT s.detached FROM files f JOIN sources s ON s.id = f.source_id WHERE f.path = ?",
                              (path,)).fetchone()
        return row is None or not row[0]

    def touch_file(self, file_id: int, size: int, mtime_ns: int) -> None:
        """Record a new size/mtime for a file whose content hash did not change."""
        self.db.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE id = ?", (size, mtime_ns, file_id))

    def move_file(self, file_id: int, new_path: str, source_id: int, size: int, mtime_ns: int) -> None:
        """A renamed or moved file keeps its chunks and vectors (and may change collection with its source); its
        attachments move with it, below its new path."""
        self.bump_membership()  # its chunks may now be in another collection, folder or file type (search filters)
        old_path = self.db.execute("SELECT path FROM files WHERE id = ?", (file_id,)).fetchone()[0]
        self.db.execute(
            "UPDATE files SET path = ?, source_id = ?, size = ?, mtime_ns = ? WHERE id = ?",
            (new_path, source_id, size, mtime_ns, file_id),
        )
        self.db.execute("UPDATE files SET path = ? || substr(path, ?), source_id = ?, mtime_ns = ? WHERE parent_id = ?",
                        (new_path, len(old_path) + 1, source_id, mtime_ns, file_id))

    def record_failure(self, source_id: int, path: str, size: int, mtime_ns: int, sha256: str,
                       error: Reason) -> list[int]:
        """Mark a file failed (its old chunks go) with its reason; returns chunk ids whose vectors were dropped."""
        with self.transaction():
            file_id = self._upsert_file(source_id, path)
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
        with self.transaction():
            dropped = self._drop_chunks(file_id)
            self.db.execute("UPDATE files SET status='failed', error=?, reason=?, chunk_count=0, indexed_at=? "
                            "WHERE id=?", (str(error), error.to_json(), time.time(), file_id))
        return dropped

    def replace_file_chunks(
        self, source_id: int, path: str, size: int, mtime_ns: int, sha256: str, chunks: Sequence[ChunkDraft],
        note: Reason = Reason(), attachments: Sequence[AttachmentRows] = (),
    ) -> list[int]:
        """Text phase: swap a file's chunks (and keyword rows), and its attachments' rows, in one transaction.
        `note` (what the reader says about an indexed file, e.g. PDF pages read by OCR) is kept in its `error`
        column. An attachment whose bytes are the ones already stored keeps its chunks and vectors.

        Returns the ids of old chunks whose vectors were dropped, for the FAISS cache.
        """
        with self.transaction():
            file_id = self._upsert_file(source_id, path)
            dropped = self._drop_chunks(file_id)
            self._insert_chunks(file_id, chunks)
            self._set_indexed(file_id, size, mtime_ns, sha256, note, len(chunks))
            stored = {r[0]: (r[1], r[2]) for r in self.db.execute(
                "SELECT path, id, sha256 FROM files WHERE parent_id = ? AND status = 'indexed'", (file_id,))}
            same = {a.path: stored[a.path][0] for a in attachments
                    if a.sha256 and stored.get(a.path, (0, ""))[1] == a.sha256}
            dropped += self._drop_attachments(file_id, keep=set(same.values()))
            for a in attachments:
                if a.path in same:
                    self.db.execute("UPDATE files SET mtime_ns = ? WHERE id = ?", (mtime_ns, same[a.path]))
                    continue
                child = self._upsert_file(source_id, a.path, parent_id=file_id)
                dropped += self._drop_chunks(child)
                self._insert_chunks(child, a.chunks)
                self._set_indexed(child, a.size, mtime_ns, a.sha256, a.note, len(a.chunks))
        return dropped

    def _insert_chunks(self, file_id: int, chunks: Sequence[ChunkDraft]) -> None:
        insert_chunk = ("INSERT INTO chunks (id, file_id, ordinal, text, page, heading, char_start, char_end, ocr) "
                        "VALUES (?,?,?,?,?,?,?,?,?)")
        next_id = self._next_chunk_id()  # explicit ids: never one used before (see _next_chunk_id)
        for chunk_id, c in enumerate(chunks, next_id):
            self.db.execute(
                insert_chunk,
                (chunk_id, file_id, c.ordinal, c.text, c.page, c.heading, c.char_start, c.char_end, int(c.ocr)),
            )
            body = keyword.index_text(f"{c.heading}\n{c.text}" if c.heading else c.text)
            self.db.execute("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)", (chunk_id, body))
        self.set_meta("next_chunk_id", str(next_id + len(chunks)))

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
        with self.transaction():
            for file_id in file_ids:
                dropped += self._drop_chunks(file_id) + self._drop_attachments(file_id)
                self.db.execute("DELETE FROM files WHERE id = ?", (file_id,))
        return dropped

    def _next_chunk_id(self) -> int:
        """The next chunk id, never one used before in this library (even after deletes): an id names one text
        for good, so the vector cache can be checked by its ids."""
        high = self.db.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0]
        return max(int(self.get_meta("next_chunk_id") or 0), high + 1)

    def _upsert_file(self, source_id: int, path: str, parent_id: int | None = None) -> int:
        self.db.execute(
            "INSERT OR IGNORE INTO files (source_id, path, status) VALUES (?, ?, 'pending')", (source_id, path)
        )
        self.db.execute("UPDATE files SET source_id = ?, parent_id = ? WHERE path = ?", (source_id, parent_id, path))
        return self.db.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()[0]

    def _drop_chunks(self, file_id: int) -> list[int]:
        dropped = [r[0] for r in self.db.execute(
            "SELECT v.chunk_id FROM vectors v JOIN chunks c ON c.id = v.chunk_id WHERE c.file_id = ?", (file_id,))]
        self.db.execute("DELETE FROM chunks WHERE file_id = ?", (file_id,))
        if dropped:
            self._bump_generation()
        return dropped

    # ---- vectors ---------------------------------------------------------

    def pending_chunks(self, limit: int, after_id: int = 0) -> list[tuple[int, str, str]]:
        """Chunks still without a vector and with an id above `after_id`: (id, heading, text), by id."""
        return self.db.execute(
            "SELECT c.id, c.heading, c.text FROM chunks c LEFT JOIN vectors v ON v.chunk_id = c.id "
            "WHERE v.chunk_id IS NULL AND c.id > ? ORDER BY c.id LIMIT ?",
            (after_id, limit),
        ).fetchall()

    def add_vectors(self, ids: Sequence[int], vectors: np.ndarray) -> list[int]:
        """Vector phase: store a batch; returns the ids actually stored (chunks may have gone meanwhile)."""
        stored: list[int] = []
        with self.transaction():
            for chunk_id, vec in zip(ids, vectors):
                cur = self.db.execute(
                    "INSERT OR REPLACE INTO vectors (chunk_id, vector) SELECT id, ? FROM chunks WHERE id = ?",
                    (np.asarray(vec, dtype=np.float32).tobytes(), chunk_id),
                )
                if cur.rowcount:
                    stored.append(chunk_id)
            self._bump_generation()
        return stored

    def iter_vectors(self, batch: int = 20000) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """All stored vectors as (ids int64, float32 matrix) batches, for rebuilding the FAISS cache."""
        last = -1
        while True:
            rows = self.db.execute(
                "SELECT chunk_id, vector FROM vectors WHERE chunk_id > ? ORDER BY chunk_id LIMIT ?", (last, batch)
            ).fetchall()
            if not rows:
                return
            ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            mat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
            last = int(ids[-1])
            yield ids, mat

    def clear_index(self) -> None:
        """Drop every chunk and vector and mark files pending (re-index with new settings)."""
        with self.transaction():
            self.db.execute("DELETE FROM vectors")
            self.db.execute("DELETE FROM chunks")
            self.db.execute("DELETE FROM chunks_fts")
            self.db.execute(
                "UPDATE files SET status='pending', error='', reason='', chunk_count=0, size=-1, mtime_ns=-1, sha256=''"
            )
            self._bump_generation()

    # ---- reading chunks and counts ----------------------------------------

    def count_chunks(self, collection_id: int | None = None) -> int:
        if collection_id is None:
            return self.db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        return self.db.execute(f"SELECT count(*) FROM chunks c JOIN files f ON f.id = c.file_id WHERE {_IN_COLLECTION}",
                               (collection_id,)).fetchone()[0]

    def count_vectors(self, collection_id: int | None = None) -> int:
        if collection_id is None:
            return self.db.execute("SELECT count(*) FROM vectors").fetchone()[0]
        return len(self.collection_vector_ids(collection_id))

    def collection_vector_ids(self, collection_id: int) -> np.ndarray:
        """The sorted ids of a collection's chunks that have a vector (for filtering the FAISS search)."""
        cursor = self.db.execute(
            "SELECT v.chunk_id FROM sources s JOIN files f ON f.source_id = s.id JOIN chunks c ON c.file_id = f.id "
            "JOIN vectors v ON v.chunk_id = c.id WHERE s.collection_id = ?", (collection_id,))
        return np.sort(np.fromiter((r[0] for r in cursor), dtype=np.int64))

    def has_vectors(self) -> bool:
        """Whether any vector is stored (constant time, unlike a count)."""
        return self.db.execute("SELECT EXISTS (SELECT 1 FROM vectors)").fetchone()[0] == 1

    def file_counts(self, collection_id: int | None = None) -> dict[str, int]:
        if collection_id is None:
            return dict(self.db.execute("SELECT status, count(*) FROM files GROUP BY status").fetchall())
        return dict(self.db.execute(f"SELECT status, count(*) FROM files f WHERE {_IN_COLLECTION} GROUP BY status",
                                    (collection_id,)).fetchall())

    def count_attachments(self, collection_id: int | None = None) -> int:
        """How many files are attachments of another (e-mail attachments, documents of their own)."""
        where, args = (f" AND {_IN_COLLECTION}", (collection_id,)) if collection_id is not None else ("", ())
        return self.db.execute(f"SELECT count(*) FROM files f WHERE parent_id IS NOT NULL{where}", args).fetchone()[0]

    def failed_files(self, collection_id: int | None = None) -> list[FailedFile]:
        where, args = (f" AND {_IN_COLLECTION}", (collection_id,)) if collection_id is not None else ("", ())
        rows = self.db.execute(f"SELECT path, error, reason FROM files f WHERE status = 'failed'{where} ORDER BY path",
                               args).fetchall()
        return [FailedFile(p, Reason.stored(e, r)) for p, e, r in rows]

    def hits_for(self, scored: Sequence[tuple[int, float]]) -> list[Hit]:
        """Turn (chunk_id, score) pairs into Hits with provenance, keeping the order; unknown ids are skipped."""
        if not scored:
            return []
        ids = [cid for cid, _ in scored]
        marks = ",".join("?" * len(ids))
        rows = self.db.execute(
            "SELECT c.id, f.path, c.page, c.heading, c.text, c.file_id, c.ordinal, c.char_start, c.char_end, c.ocr "
            f"FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id IN ({marks})",
            ids,
        ).fetchall()
        by_id = {r[0]: r for r in rows}
        hits = []
        for cid, score in scored:
            r = by_id.get(cid)
            if r:
                hits.append(Hit(cid, float(score), r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], bool(r[9])))
        return hits

    def vector_ids(self) -> np.ndarray:
        """The ids of the chunks that have a vector, sorted (read from the small index, not the blobs)."""
        cursor = self.db.execute("SELECT chunk_id FROM vectors INDEXED BY vectors_count ORDER BY chunk_id")
        return np.fromiter((r[0] for r in cursor), dtype=np.int64)

    def keyword_search(self, query: str, limit: int,
                       within: Restriction | int | None = None) -> list[tuple[int, float]]:
        """BM25 over the FTS5 index (within a restriction, one collection's id, or all); returns (chunk_id, score),
        higher = better."""
        return keyword_index.search(self.db, query, limit, within)


_IN_COLLECTION = "f.source_id IN (SELECT id FROM sources WHERE collection_id = ?)"


def _source(row: Sequence) -> SourceRecord:
    return SourceRecord(row[0], row[1], row[2], row[3], bool(row[4]))


def _file(row: Sequence) -> FileRecord:
    """A files row (_FILE_COLUMNS) as a record, its reason read from its codes (`reasons.Reason.stored`)."""
    return FileRecord(*row[:7], Reason.stored(row[7], row[10]), row[8], row[9])


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write (URI mode=ro); a missing library is a clear error, not a new file."""
    from urllib.parse import quote

    if not path.is_file():
        raise UsageError.coded("no_library", folder=path.parent)
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    return sqlite3.connect(uri, uri=True, timeout=30.0, isolation_level=None, check_same_thread=False)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception. Re-entrant."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.outer = False

    def __enter__(self) -> sqlite3.Connection:
        self.outer = not self.db.in_transaction
        if self.outer:
            self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb) -> None:
        if not self.outer:
            return
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
            except BaseException:  # a full disk can fail the COMMIT itself: leave no transaction open
                self._rollback()
                raise
        else:
            self._rollback()

    def _rollback(self) -> None:
        # SQLite rolls back by itself after some errors (a full disk): a second ROLLBACK would raise and hide it
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")


def _split_sql(script: str) -> list[str]:
    """Split the schema into statements (triggers contain inner semicolons)."""
    statements, current = [], []
    for line in script.strip().splitlines():
        current.append(line)
        joined = "\n".join(current).strip()
        if joined.endswith(";") and (not joined.upper().startswith("CREATE TRIGGER") or joined.endswith("END;")):
            statements.append(joined)
            current = []
    return statements
