"""Settings' "Test connection" for a library on a server: can this computer reach it, as this role, and use it?
Says what is missing: pgvector, the library itself (or its upgrade), the role's collections; to its administrator,
sources of different collections that overlap."""

from __future__ import annotations

import bisect
import dataclasses
from dataclasses import dataclass

from desktop_rag.engine.messages import CLI, message
from desktop_rag.engine.paths import display_text, subtree_range
from desktop_rag.engine.store.postgres import schema
from desktop_rag.engine.store.postgres.connection import Connection
from desktop_rag.engine.store.postgres.url import parse_server_url

SHOWN_OVERLAPS = 20  # pairs named a line each; the rest counted


@dataclass(frozen=True)
class Overlap:
    """A source (`inner`) inside a folder source of another collection: left by a version before schema 13, when a
    member's own check could not see the other collection's sources."""

    folder: str
    folder_collection: str
    inner: str
    inner_collection: str


@dataclass(frozen=True)
class ServerCheck:
    """What a connection test found (`ok`: the library can be opened as this role now)."""

    server: str  # the URL without its password
    role: str
    server_version: str
    pgvector: str  # its version, "available" (the administrator's first open installs it) or "" (missing)
    library_version: int | None  # None: no library on the server yet (or, with `hidden`, one this role cannot read)
    administrator: bool
    collections: tuple[str, ...]  # the ones this role may see
    hidden: bool = False  # there is a library, but this role was granted nothing in it (so may not even read it)
    overlaps: tuple[Overlap, ...] = ()  # the administrator's: the first SHOWN_OVERLAPS pairs
    overlap_count: int = 0  # all of them

    @property
    def ok(self) -> bool:
        usable_library = self.library_version == schema.SCHEMA_VERSION or (
            self.administrator and (self.library_version or 0) < schema.SCHEMA_VERSION)
        return bool(self.pgvector) and usable_library and (self.administrator or bool(self.collections))

    def lines(self, language: str = "en", front: str = CLI) -> list[str]:
        """What was found, a line each, in `language` ("en" or "zh") as the front end `front` words it."""
        say = lambda key, **values: message(f"server_check.{key}", language, front, **values)  # noqa: E731
        out = [say("server", server=self.server, version=self.server_version)]
        out.append(say("pgvector", version=self.pgvector) if self.pgvector not in ("", "available")
                   else say("pgvector_available") if self.pgvector else say("pgvector_missing"))
        version = self.library_version
        if self.hidden:
            out.append(say("library_hidden"))
        elif version is None:
            out.append(say("library_none_admin" if self.administrator else "library_none"))
        elif version == schema.SCHEMA_VERSION:
            out.append(say("library_current", version=version))
        elif version > schema.SCHEMA_VERSION:
            out.append(say("library_newer", version=version))
        else:
            out.append(say("library_older_admin" if self.administrator else "library_older", version=version))
        if self.administrator:
            out.append(say("role_administrator", role=self.role))
        elif self.collections:
            out.append(say("role_collections", role=self.role, n=len(self.collections),
                           names=", ".join(f"“{name}”" for name in self.collections)))
        else:
            out.append(say("role_nothing", role=self.role))
        out.extend(say("overlap", **dataclasses.asdict(pair)) for pair in self.overlaps)
        if self.overlap_count > len(self.overlaps):
            out.append(say("overlap_more", n=self.overlap_count - len(self.overlaps)))
        return out


def check_server(location: str, password: str = "") -> ServerCheck:
    """Connect to the library at `location` (with `password`, else the one the URL, the environment or the keyring
    gives) and look, changing nothing (ServerError when it cannot connect, saying why)."""
    url = parse_server_url(location)
    if password:
        url = dataclasses.replace(url, password=password)
    db = Connection(url, "desktop-rag check")
    try:
        version = db.execute("SHOW server_version").fetchone()[0].split()[0]
        installed = db.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
        available = db.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
        found, readable = db.execute(  # the catalog, which every role reads (the schema itself needs a grant)
            "SELECT count(*) > 0, bool_and(has_schema_privilege(n.oid, 'USAGE')) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = 'meta'",
            (schema.SCHEMA_NAME,)).fetchone()
        library = None
        if found and readable:
            row = db.execute(f"SELECT value FROM {schema.SCHEMA_NAME}.meta WHERE key = 'schema_version'").fetchone()
            library = int(row[0]) if row else 0
        owner = db.execute("SELECT pg_has_role(current_user, nspowner, 'USAGE') FROM pg_namespace "
                           "WHERE nspname = ?", (schema.SCHEMA_NAME,)).fetchone()
        administrator = bool(owner[0]) if owner else bool(
            db.execute("SELECT has_database_privilege(current_database(), 'CREATE')").fetchone()[0])
        names: tuple[str, ...] = ()
        overlaps: list[Overlap] = []
        if found and not administrator:
            names = _visible_collections(db)
        elif administrator and library == schema.SCHEMA_VERSION:
            overlaps = _overlapping_sources(db)
    finally:
        db.close()
    pgvector = installed[0] if installed else ("available" if available else "")
    return ServerCheck(url.display, url.user, version, pgvector, library, administrator, names,
                       hidden=bool(found and not readable), overlaps=tuple(overlaps[:SHOWN_OVERLAPS]),
                       overlap_count=len(overlaps))


def _visible_collections(db) -> tuple[str, ...]:
    """The collections row-level security shows this role (none when it was never granted one)."""
    from desktop_rag.engine.store.postgres.connection import ServerError

    try:
        return tuple(r[0] for r in db.execute(f"SELECT name FROM {schema.SCHEMA_NAME}.collections ORDER BY id"))
    except ServerError:  # no privilege on the table at all
        return ()


def _overlapping_sources(db) -> list[Overlap]:
    """Every source lying inside a folder source of another collection (the administrator sees all of them), in
    path order: the paths sorted in code point order, each folder's subtree a range of them (paths.subtree_range)."""
    rows = sorted(db.execute(f"SELECT s.path, s.kind, s.collection_id, c.name FROM {schema.SCHEMA_NAME}.sources s "
                             f"JOIN {schema.SCHEMA_NAME}.collections c ON c.id = s.collection_id").fetchall())
    paths = [row[0] for row in rows]
    found = []
    for folder, kind, collection, name in rows:
        if kind != "folder":
            continue
        _exact, low, high = subtree_range(folder)
        found.extend(Overlap(display_text(folder), display_text(name), display_text(inner), display_text(other))
                     for inner, _kind, other_id, other in rows[bisect.bisect_left(paths, low):
                                                                bisect.bisect_left(paths, high)]
                     if other_id != collection)
    return found
