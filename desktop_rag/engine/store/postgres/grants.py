"""Who may see which collection of a library on a server: the administrator (the owner of the library's schema)
grants a collection to PostgreSQL roles; row-level security on the server then shows each role the rows of its
collections only (postgres/schema.py). Roles themselves are the server's: made and given passwords by its
administrator with PostgreSQL's own tools."""

from __future__ import annotations

from desktop_rag.engine.store.postgres import schema
from desktop_rag.engine.store.postgres.connection import ServerError


def grant(db, collection_id: int, role: str) -> None:
    """Let `role` (and its members) see and index `collection_id` (inside a transaction); not the administrator,
    who sees every collection."""
    _check(db, role)
    if schema.is_administrator(db, role):
        raise ServerError.coded("server_role_administers", role=role)
    db.execute("INSERT INTO collection_grants VALUES (?, ?) ON CONFLICT DO NOTHING", (collection_id, role))
    for statement in schema.member_privileges(schema.quoted(role)):
        db.execute(statement)


def revoke(db, collection_id: int, role: str) -> bool:
    """Take `collection_id` back from `role`; its table privileges go with its last collection (never the
    administrator's: they are the owner's own). False when it had no such grant."""
    _check(db, role)
    gone = db.execute("DELETE FROM collection_grants WHERE collection_id = ? AND role = ?",
                      (collection_id, role)).rowcount > 0
    if schema.is_administrator(db, role):
        return gone
    if not db.execute("SELECT 1 FROM collection_grants WHERE role = ?", (role,)).fetchone():
        for statement in schema.member_privileges(schema.quoted(role), revoke=True):
            db.execute(statement)
    return gone


def listing(db) -> list[tuple[str, str]]:
    """(collection name, role) of every grant, by collection then role (only the administrator sees them: nothing
    for another role)."""
    if not schema.is_administrator(db):
        return []
    return [(r[0], r[1]) for r in db.execute(
        "SELECT c.name, g.role FROM collection_grants g JOIN collections c ON c.id = g.collection_id "
        "ORDER BY c.id, g.role")]


def _check(db, role: str) -> None:
    if not schema.is_administrator(db):
        raise ServerError.coded("server_not_administrator")
    if not db.execute("SELECT 1 FROM pg_roles WHERE rolname = ?", (role,)).fetchone():
        raise ServerError.coded("server_no_role", role=role)
