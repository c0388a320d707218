"""The library in one SQLite file of this computer (WAL mode), one connection per thread: the truth of the default
backend (sqlite/backend.py), with its FTS5 keyword index; its vectors are float32 blobs, cached for search in a
FAISS file (sqlite/dense.py)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from desktop_rag.private_files import private_dir, private_file
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.system_errors import foreign_reason
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.sql_store import SqlStore
from desktop_rag.engine.store.sqlite import keyword_index, schema
from desktop_rag.engine.text import keyword

_SCRIPTS = {"han": "*[一-鿿]*", "latin": "*[A-Za-z][A-Za-z][A-Za-z]*"}  # GLOB patterns of `has_script`


class SqliteStore(SqlStore):
    """One SQLite connection (use one per thread). WAL mode; short transactions."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = path
        self.location = str(path)
        self.folder = path.parent
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

    def _migrate(self) -> None:
        """Create or upgrade the schema in one transaction (schema.migrate): the one write opening a connection may
        make, on any thread."""
        with self.transaction():
            schema.migrate(self.db)

    def _check_read_only_schema(self) -> None:
        try:
            schema.check_version(self.db)
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise UsageError.coded("not_a_library", path=self.path, detail=foreign_reason(exc)) from exc
        except UsageError:
            self.db.close()
            raise

    def transaction(self) -> "_Transaction":
        return _Transaction(self.db)

    @contextlib.contextmanager
    def read_snapshot(self) -> Iterator[None]:
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN")
        try:
            yield
        finally:
            if self.db.in_transaction:
                self.db.execute("COMMIT")

    def library_version(self) -> int | None:
        """`meta.library_version`, moved by the schema's triggers (None: a read-only library from before it)."""
        value = self.get_meta(schema.VERSION_KEY)
        return int(value) if value is not None else None

    # ---- the FAISS cache's stamps -----------------------------------------------------

    def vectors_generation(self) -> int:
        return int(self.get_meta("vectors_generation") or 0)

    def vectors_changed(self) -> None:
        self.db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vectors_generation'")

    def bump_membership(self) -> None:
        self.db.execute("INSERT INTO meta VALUES ('membership_generation', '1') ON CONFLICT(key) "
                        "DO UPDATE SET value = CAST(value AS INTEGER) + 1")

    def membership_key(self) -> tuple[int, int]:
        with self.read_snapshot():
            return self.vectors_generation(), int(self.get_meta("membership_generation") or 0)

    # ---- chunks and their keyword rows ------------------------------------------------

    def _new_chunk_ids(self, count: int) -> list[int]:
        """Ids above every one used before (`meta.next_chunk_id`, even after deletes)."""
        high = self.db.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0]
        first = max(int(self.get_meta("next_chunk_id") or 0), high + 1)
        self.set_meta("next_chunk_id", str(first + count))
        return list(range(first, first + count))

    def _insert_chunk_rows(self, rows: list[tuple]) -> None:
        self.db.executemany("INSERT INTO chunks (id, file_id, ordinal, text, page, heading, char_start, char_end, ocr) "
                            "VALUES (?,?,?,?,?,?,?,?,?)", rows)
        self.db.executemany("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)",
                            ((r[0], keyword.index_text(f"{r[5]}\n{r[3]}" if r[5] else r[3])) for r in rows))

    def _clear_keyword_rows(self) -> None:
        self.db.execute("DELETE FROM chunks_fts")

    def copy_vectors(self, table: str, pairs: Sequence[tuple[int, int]]) -> None:
        self.db.executemany(f"INSERT INTO {table} (chunk_id, vector) SELECT ?, vector FROM {table} WHERE chunk_id = ?",
                            pairs)

    def keyword_search(self, query: str, limit: int,
                       within: Restriction | int | None = None) -> list[tuple[int, float]]:
        return keyword_index.search(self.db, query, limit, within)

    def document_frequency(self, word: str) -> int:
        return keyword_index.document_frequency(self.db, word)

    def has_script(self, script: str) -> bool:
        pattern = _SCRIPTS[script]
        return bool(self.db.execute(f"SELECT EXISTS (SELECT 1 FROM chunks WHERE text GLOB '{pattern}')").fetchone()[0])

    # ---- vectors: float32 blobs -----------------------------------------------------------

    def add_vectors(self, ids: Sequence[int], vectors: np.ndarray, staged: bool = False) -> list[int]:
        table = "staged_vectors" if staged else "vectors"
        stored: list[int] = []
        with self.transaction():
            for chunk_id, vec in zip(ids, vectors):
                cur = self.db.execute(
                    f"INSERT OR REPLACE INTO {table} (chunk_id, vector) SELECT id, ? FROM chunks WHERE id = ?",
                    (np.asarray(vec, dtype=np.float32).tobytes(), int(chunk_id)))
                if cur.rowcount:
                    stored.append(int(chunk_id))
            if not staged:
                self.vectors_changed()
        return stored

    def iter_vectors(self, batch: int = 20000, chunk_ids: Sequence[int] | None = None,
                     collection_id: int | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        if chunk_ids is not None:
            wanted = sorted({int(i) for i in chunk_ids})
            for start in range(0, len(wanted), 500):
                part = wanted[start:start + 500]
                rows = self.db.execute(f"SELECT chunk_id, vector FROM vectors WHERE chunk_id IN "
                                       f"({','.join('?' * len(part))}) ORDER BY chunk_id", part).fetchall()
                if rows:
                    yield _matrix(rows)
            return
        join, args = ("", ())
        if collection_id is not None:
            join, args = (" JOIN chunks c ON c.id = v.chunk_id JOIN files f ON f.id = c.file_id "
                          "JOIN sources s ON s.id = f.source_id AND s.collection_id = ?", (collection_id,))
        last = -1
        while True:
            rows = self.db.execute(f"SELECT v.chunk_id, v.vector FROM vectors v{join} WHERE v.chunk_id > ? "
                                   "ORDER BY v.chunk_id LIMIT ?", (*args, last, batch)).fetchall()
            if not rows:
                return
            ids, matrix = _matrix(rows)
            last = int(ids[-1])
            yield ids, matrix

    def vector_ids(self) -> np.ndarray:
        """Read from the small index, not the blobs."""
        cursor = self.db.execute("SELECT chunk_id FROM vectors INDEXED BY vectors_count ORDER BY chunk_id")
        return np.fromiter((r[0] for r in cursor), dtype=np.int64)

    def swap_staged_vectors(self) -> None:
        self.db.execute("DELETE FROM vectors")
        self.db.execute("INSERT INTO vectors (chunk_id, vector) SELECT chunk_id, vector FROM staged_vectors")
        self.db.execute("DELETE FROM staged_vectors")
        self.vectors_changed()


def _matrix(rows: list) -> tuple[np.ndarray, np.ndarray]:
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    return ids, np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)


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
