"""pgvector on the library's server: the extension installed (by the administrator, at the schema's creation) and
the vectors' column given its dimension and HNSW index once the first vectors come (`set_vector_dimension`)."""

from __future__ import annotations


def install_pgvector(db) -> None:
    """CREATE EXTENSION vector (pgvector is not a trusted extension: a role that owns the database but is no
    superuser may not install it, and is told who can)."""
    from desktop_rag.engine.store.postgres.connection import ServerUnavailableError

    try:
        db.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except ServerUnavailableError as exc:
        if exc.code != "server_no_grant":
            raise
        raise ServerUnavailableError.coded("server_pgvector_not_allowed", database=db.url.database,
                                           user=db.url.user) from exc


def ensure_dimension(db, dimension: int) -> None:
    """Give the vectors their dimension (and the HNSW index) if they have none yet (inside a transaction). The first
    writers of a new library queue on the table's lock and look again once they hold it: two that read the dimension
    and then altered the table both held it and deadlocked."""
    if _dimension(db) == dimension:
        return
    db.execute("LOCK TABLE vectors IN SHARE ROW EXCLUSIVE MODE")  # (conflicts with itself, not with readers)
    if _dimension(db) != dimension:
        db.execute("SELECT set_vector_dimension(?)", (dimension,))


def _dimension(db) -> int:
    return db.execute("SELECT atttypmod FROM pg_attribute WHERE attrelid = 'vectors'::regclass "
                      "AND attname = 'embedding'").fetchone()[0]
