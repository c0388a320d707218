"""One connection to a library on a PostgreSQL server (schema `desktop_rag`, postgres/schema.py): the shared
statements of sql_store.py plus this backend's transactions, ids (a sequence), keyword rows (a tsvector of the
app's own tokens, keyword.py) and vectors (pgvector, searched on the server with an HNSW index).

Row-level security decides which collections' rows this role sees; every statement here runs under it, so a
search, an answer, a summary, an export or `context` never sees a passage of a collection not granted. A source
belongs to the client (a computer's app) that added it: another client's sources read as not linked here.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import PurePath

import numpy as np

from desktop_rag.engine.paths import is_valid_text, subtree_range
from desktop_rag.engine.store.carried_references import Moved
from desktop_rag.engine.store.postgres import claims, keyword, pgvector, schema
from desktop_rag.engine.store.postgres.connection import Connection
from desktop_rag.engine.store.postgres.functions import LOCK_VECTORS
from desktop_rag.engine.store.postgres.url import ServerUrl
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.sql_store import SqlStore
from desktop_rag.engine.store.values import nul_replaced

KEYWORD_POSTINGS_BUDGET = 20_000  # matching chunks a keyword query may score (as on SQLite: bench/query.py)
EXACT_BELOW = 20_000  # a dense search over fewer chunks than this is exact (no index); above, HNSW
EF_SEARCH = 200  # HNSW candidates per query (>= the 100 the fusion reads), iterative past filtered rows
_SCRIPTS = {"han": "[一-鿿]", "latin": "[A-Za-z]{3}"}  # regular expressions of `has_script`
_NOT_HERE = "(detached <> 0 OR client <> current_setting('desktop_rag.client'))"


class PostgresStore(SqlStore):
    """One connection (use one per thread), in autocommit mode with explicit transactions."""

    SOURCE_COLUMNS = f"id, path, kind, collection_id, {_NOT_HERE}"
    NOT_LINKED = "(s.detached <> 0 OR s.client <> current_setting('desktop_rag.client'))"

    def __init__(self, url: ServerUrl, read_only: bool = False, client: str = "") -> None:
        self.url = url
        self.location = url.display
        self.folder = None
        self.read_only = read_only
        def setup(db: Connection) -> None:  # (again after a reconnection)
            schema.open_schema(db, client, read_only)
            db.execute(f"SET hnsw.ef_search = {EF_SEARCH}")
            db.execute("SET hnsw.iterative_scan = relaxed_order")
            if read_only:
                db.execute("SET default_transaction_read_only = on")

        self.db = Connection(url, setup=setup, schema=schema.SCHEMA_NAME)

    def close(self) -> None:
        self.db.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        if self.db.in_transaction:  # re-entrant: the outermost one commits
            yield self.db
            return
        self.db.execute("BEGIN")
        try:
            yield self.db
        except BaseException:
            self._rollback()
            raise
        try:
            self.db.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    @contextlib.contextmanager
    def read_snapshot(self) -> Iterator[None]:
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try:
            yield
        finally:
            self._rollback() if self.db.in_transaction else None

    def _rollback(self) -> None:
        with contextlib.suppress(Exception):  # a lost connection rolled back on the server already
            self.db.execute("ROLLBACK")

    def sees_everything(self) -> bool:
        return schema.is_administrator(self.db)

    def overlaps_hidden_source(self, path: str) -> bool:
        """Asked of the administrator's function (row-level security hides such sources here): yes or no only."""
        if not is_valid_text(path):  # never stored (add_source refuses it by name)
            return False
        folders = [str(folder) for folder in PurePath(path).parents]
        return bool(self.db.execute(f"SELECT {schema.HIDDEN_OVERLAP}(?, ?, ?, ?::text[])",
                                    (*subtree_range(path), folders)).fetchone()[0])

    def library_has_chunks(self) -> bool:
        return int(self.db.execute("SELECT coalesce(sum(chunks), 0) FROM library_counters").fetchone()[0]) > 0

    def library_version(self) -> int | None:
        return int(self.db.execute("SELECT coalesce(sum(version), 0) FROM library_counters").fetchone()[0])

    # ---- chunks and their keyword rows ------------------------------------------------

    def _new_chunk_ids(self, count: int) -> list[int]:
        return [r[0] for r in self.db.execute("SELECT nextval('chunk_ids') FROM generate_series(1, ?)", (count,))]

    def stored_text(self, text: str) -> str:
        """PostgreSQL's text holds no NUL character: U+FFFD in its place."""
        return nul_replaced(text)

    def _insert_chunk_rows(self, rows: list[tuple]) -> None:
        terms = [keyword.index_terms(r[5], r[3]) for r in rows]
        columns = list(zip(*rows))
        self.db.execute(
            "INSERT INTO chunks (id, file_id, ordinal, text, page, heading, char_start, char_end, ocr, terms, "
            "term_count) SELECT u.id, u.file, u.ordinal, u.text, u.page, u.heading, u.start_at, u.end_at, u.ocr, "
            "u.terms::tsvector, u.n FROM unnest(?::bigint[], ?::bigint[], ?::int[], ?::text[], ?::int[], ?::text[], "
            "?::int[], ?::int[], ?::int[], ?::text[], ?::int[]) "
            "AS u(id, file, ordinal, text, page, heading, start_at, end_at, ocr, terms, n)",
            (list(columns[0]), list(columns[1]), list(columns[2]), list(columns[3]), list(columns[4]),
             list(columns[5]), list(columns[6]), list(columns[7]), list(columns[8]),
             [t for t, _ in terms], [n for _, n in terms]))

    def _clear_keyword_rows(self) -> None:
        """The keyword rows are columns of the chunks: they went with them."""

    def copy_vectors(self, table: str, pairs: Sequence[tuple[int, int]]) -> None:
        self.db.execute(f"INSERT INTO {table} (chunk_id, embedding) SELECT p.new, t.embedding FROM "
                        f"unnest(?::bigint[], ?::bigint[]) AS p(new, old) JOIN {table} t ON t.chunk_id = p.old",
                        ([new for new, _ in pairs], [old for _, old in pairs]))

    def carry_references(self, file_id: int, moves: Sequence[Moved]) -> None:
        """Every person's marks and kept passages follow, not only this role's (its views show its own): the schema
        owner's function, given the pairs, checks them against this re-read and moves the passages by the rule."""
        if moves:
            self.db.execute(f"SELECT {schema.CARRY}(?, ?::bigint[], ?::bigint[])",
                            (file_id, [m.old for m in moves], [m.new for m in moves]))

    def hold_staged_vectors(self, switching: bool = False) -> None:
        self.db.execute(f"LOCK TABLE staged_vectors IN {'EXCLUSIVE' if switching else 'ROW EXCLUSIVE'} MODE")

    def hold_vectors(self, moving: bool = False, file: str | None = None) -> None:
        if file is None or self.db.execute("SELECT EXISTS (SELECT 1 FROM files WHERE path = ?)", (file,)).fetchone()[0]:
            self.db.execute(LOCK_VECTORS.format(mode="SHARE ROW EXCLUSIVE" if moving else "ROW EXCLUSIVE"))

    def keyword_search(self, query: str, limit: int,
                       within: Restriction | int | None = None) -> list[tuple[int, float]]:
        if isinstance(within, int):
            within = Restriction(collection=within)
        return keyword.search(self.db, query, limit, within, KEYWORD_POSTINGS_BUDGET)

    def document_frequency(self, word: str) -> int:
        return keyword.document_frequency(self.db, word)

    def has_script(self, script: str) -> bool:
        return bool(self.db.execute("SELECT EXISTS (SELECT 1 FROM chunks WHERE text ~ ?)",
                                    (_SCRIPTS[script],)).fetchone()[0])

    # ---- the embedding queue, shared by the clients ----------------------------------------

    @contextlib.contextmanager
    def claim_pending(self, limit: int, after_id: int = 0,
                      staged: bool = False) -> Iterator[list[tuple[int, str, str]]]:
        """Up to `limit` chunks without a vector (a staged one if `staged`) above `after_id` that no other client
        holds, held by this connection until the block ends (claims.py): never embedded twice, never lost."""
        queue: claims.Queue = "staged_vectors" if staged else "vectors"
        rows = claims.claim(self.db, limit, after_id, queue)
        held = [r[0] for r in rows]  # (the caller may take rows out of the list)
        try:
            yield rows
        finally:
            claims.give_back(self.db, held, queue)

    # ---- vectors: pgvector ---------------------------------------------------------------

    def add_vectors(self, ids: Sequence[int], vectors: np.ndarray, staged: bool = False) -> list[int]:
        if not len(ids):
            return []
        table = "staged_vectors" if staged else "vectors"
        matrix = np.asarray(vectors, dtype=np.float32)
        if not staged:
            with self.transaction():  # its own when none is open: the table is locked only while its dimension is set
                pgvector.ensure_dimension(self.db, matrix.shape[1])
        with self.transaction():
            rows = self.db.execute(
                f"INSERT INTO {table} (chunk_id, embedding) SELECT c.id, v.e::vector FROM unnest(?::bigint[], "
                "?::text[]) AS v(id, e) JOIN chunks c ON c.id = v.id ON CONFLICT (chunk_id) DO UPDATE "
                "SET embedding = excluded.embedding RETURNING chunk_id",
                ([int(i) for i in ids], [_vector_text(v) for v in matrix])).fetchall()
        return [int(r[0]) for r in rows]

    def iter_vectors(self, batch: int = 20000, chunk_ids: Sequence[int] | None = None,
                     collection_id: int | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        where, args = "", ()
        if chunk_ids is not None:
            where, args = " AND chunk_id = ANY (?::bigint[])", ([int(i) for i in chunk_ids],)
        elif collection_id is not None:
            where, args = " AND collection_id = ?", (collection_id,)
        last = -1
        while True:
            rows = self.db.execute(f"SELECT chunk_id, embedding::text FROM vectors WHERE chunk_id > ?{where} "
                                   "ORDER BY chunk_id LIMIT ?", (last, *args, batch)).fetchall()
            if not rows:
                return
            ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            yield ids, np.stack([_vector_value(r[1]) for r in rows])
            last = int(ids[-1])

    def vector_ids(self) -> np.ndarray:
        return np.fromiter((r[0] for r in self.db.execute("SELECT chunk_id FROM vectors ORDER BY chunk_id")),
                           dtype=np.int64)

    def collection_vector_ids(self, collection_id: int) -> np.ndarray:
        rows = self.db.execute("SELECT chunk_id FROM vectors WHERE collection_id = ? ORDER BY chunk_id",
                               (collection_id,))
        return np.fromiter((r[0] for r in rows), dtype=np.int64)

    def swap_staged_vectors(self) -> None:
        self.db.execute("LOCK TABLE vectors IN EXCLUSIVE MODE")  # no other client adds old-model vectors meanwhile
        self.hold_staged_vectors(switching=True)  # nor staged ones: after the vectors, the order a re-read copies
        # them in (kept_vectors.py; the other order deadlocked with it)
        dimension = self.db.execute("SELECT vector_dims(embedding) FROM staged_vectors LIMIT 1").fetchone()
        self.db.execute("DELETE FROM vectors")
        if dimension:
            pgvector.ensure_dimension(self.db, int(dimension[0]))
        self.db.execute("INSERT INTO vectors (chunk_id, embedding) SELECT chunk_id, embedding FROM staged_vectors")
        self.db.execute("DELETE FROM staged_vectors")

    def nearest(self, query: np.ndarray, k: int, within: Restriction | None) -> list[tuple[int, float]]:
        """The `k` chunks closest to `query` (inner product of normalised vectors: cosine), best first, within the
        restriction and the collections this role may see: exact over a small scope, else the HNSW index (its
        iterative scan goes on past rows a filter drops)."""
        vector = _vector_text(np.asarray(query, dtype=np.float32))
        scoped = within is not None and not within.everything
        where, args = within.files_sql("f") if scoped else ("1 = 1", [])
        scope_chunks = self.db.execute(f"SELECT coalesce(sum(f.chunk_count), 0) FROM files f WHERE {where}",
                                       args).fetchone()[0] if scoped else None
        join = "JOIN chunks c ON c.id = v.chunk_id JOIN files f ON f.id = c.file_id " if scoped else ""
        order = "(v.embedding <#> ?::vector) + 0" if scoped and scope_chunks < EXACT_BELOW else "v.embedding <#> ?::vector"
        rows = self.db.execute(
            f"SELECT v.chunk_id, -(v.embedding <#> ?::vector) FROM vectors v {join}WHERE {where} ORDER BY {order} "
            "LIMIT ?", (vector, *args, vector, k)).fetchall()
        return sorted(((int(r[0]), float(r[1])) for r in rows), key=lambda pair: -pair[1])


def _vector_text(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.8g}" for x in vector.tolist()) + "]"


def _vector_value(text: str) -> np.ndarray:
    return np.array(text.strip("[]").split(","), dtype=np.float32)
