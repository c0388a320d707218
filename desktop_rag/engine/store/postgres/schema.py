"""The library's tables on PostgreSQL (schema `desktop_rag`), created and migrated by the app, versioned like the
SQLite ones (`meta.schema_version`, this backend's own numbering).

The same tables and columns as on SQLite, so the store's shared statements run on both; what differs:
- every row of the content tables (sources, files, chunks, vectors, staged vectors) carries its collection
  (`collection_id`, set by triggers from its source), and row-level security lets a role see and change only
  the rows of the collections granted to it (`collection_grants`; the owner of the tables, the administrator,
  sees everything): the permission tag of each chunk;
- a chunk's keyword index is a column of its own (`terms`, a tsvector of the app's own tokens, with
  `term_count`), searched with BM25 computed in SQL (keyword.py);
- vectors are pgvector columns (`embedding`), searched with an HNSW index once the dimension is known;
- the personal tables (conversations and their messages, the answer and summary caches, the review log, the
  translation cache) are views of each role's own rows over `*_all` tables (an `owner` column): every person
  has their own, whatever the role's powers;
- chunk ids come from a sequence (never reused, across clients); the library version and the keyword totals are
  sums over one row per server process that wrote (`library_counters`, moved by triggers in the writer's own
  transaction: concurrent writers never wait on a shared counter); each source belongs to the client (a
  computer's app) that added it (`sources.client`);
- the library-wide settings (`meta`) are the administrator's: a member may add a missing one (a new library's first
  vectors), turn a language flag on or forget it, and write the skipped counts of the sources it sees, nothing else
  (`meta_guarded`), and reads only those skipped counts (a policy on `meta`); the client rows (`clients`) are
  read-only to members;
- a file read again carries every person's marks and kept passages of its unchanged chunks to their new ids
  (`carry_chunk_references`, the administrator's function: only from the file's old chunks to new ones of the same
  heading and text added in the caller's own transaction, store/carried_references.py; the rows to read are found
  by chunk in `kept_chunks`, which triggers keep);
- a member learns whether a path it adds is, holds or lies inside a source it may not see, yes or no only
  (`overlaps_hidden_source`, the administrator's function: store/sources.py);
- a commit that changes collections, their grants, sources, files, conversations or vectors (staged or in use: a
  model switch's batches and its swap) notifies the library's channel (`CHANNEL`), payload-free (every role
  listening hears "look again", never what or whose: it reads what it may see; store/postgres/changes.py).
"""

from __future__ import annotations

from desktop_rag.engine.store.carried_references import KEPT_PASSAGES
from desktop_rag.engine.store.postgres.functions import CARRY, CARRY_ARGUMENTS, CHANNEL, FUNCTIONS  # noqa: F401
from desktop_rag.engine.store.postgres.functions import HIDDEN_OVERLAP, HIDDEN_OVERLAP_ARGUMENTS
from desktop_rag.engine.store.postgres.pgvector import install_pgvector

# 2: the settings in meta and the client rows are the administrator's; 3: a member's language flags only say a language
# is there, and its skipped counts are those of the sources it sees; 4: and it reads only those skipped counts;
# 5: an edited file's unchanged passages take every person's marks and kept passages along (carry_chunk_references);
# 6: commits that change collections, sources, files or conversations notify CHANNEL; 7: and vectors, staged or in use
# (a model switch's progress and its swap); 8: a scanned page's recognised lines (`ocr_lines`, a content table);
# 9: an answer that ended short keeps how (`messages.ended`); 10: the rows keeping a chunk's passages are noted
# (`kept_chunks`), and the carry moves kept passages of any length by the rule itself (it took spans of up to 3 chunks
# from the store); 11: a file moved into another collection's folder takes its rows there (the `*_moved` triggers fire
# on any update), and rows a move left behind are repaired (REPAIRS); 12: `visible_collections()` answers only for the
# role calling it (it took any role's name); 13: a member learns whether a path it adds overlaps a source it may not see
# (`overlaps_hidden_source`: yes or no)
SCHEMA_VERSION = 13
_KEPT_CHUNKS_SINCE = 10  # the version that added `kept_chunks` (an older library's rows are noted at its upgrade)
SCHEMA_NAME = "desktop_rag"

CONTENT_TABLES = ("sources", "files", "chunks", "vectors", "staged_vectors", "ocr_lines")
PERSONAL_TABLES = ("conversations", "messages", "answer_cache", "answer_cache_chunks", "summary_cache",
                   "answer_log", "answer_marks", "answer_signals", "query_translations")
SHARED_TABLES = ("meta", "clients", "library_counters")


# One statement per item (dollar-quoted bodies hold semicolons).
TABLES = (
    "CREATE TABLE IF NOT EXISTS meta (key text PRIMARY KEY, value text NOT NULL)",
    # the library version and the keyword index's totals, as sums over one row per server process that wrote: each
    # writer moves its own row in its own transaction, so writers never wait for each other on a counter
    "CREATE TABLE IF NOT EXISTS library_counters (backend integer PRIMARY KEY, version bigint NOT NULL DEFAULT 0, "
    "chunks bigint NOT NULL DEFAULT 0, tokens bigint NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS clients (id text PRIMARY KEY, name text NOT NULL, role name NOT NULL "
    "DEFAULT current_user, seen_at double precision NOT NULL)",
    "CREATE TABLE IF NOT EXISTS collections (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
    "name text NOT NULL, created_at double precision NOT NULL)",
    "CREATE UNIQUE INDEX IF NOT EXISTS collections_name ON collections (lower(name))",
    "CREATE TABLE IF NOT EXISTS collection_grants (collection_id bigint NOT NULL REFERENCES collections(id) "
    "ON DELETE CASCADE, role name NOT NULL, PRIMARY KEY (collection_id, role))",
    "CREATE TABLE IF NOT EXISTS sources (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
    "path text COLLATE \"C\" NOT NULL UNIQUE, kind text NOT NULL CHECK (kind IN ('folder', 'file')), "
    "added_at double precision NOT NULL, collection_id bigint NOT NULL REFERENCES collections(id) ON DELETE CASCADE, "
    "detached integer NOT NULL DEFAULT 0, "
    "client text NOT NULL DEFAULT coalesce(current_setting('desktop_rag.client', true), ''))",
    "CREATE INDEX IF NOT EXISTS sources_collection ON sources (collection_id)",
    "CREATE TABLE IF NOT EXISTS files (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
    "source_id bigint NOT NULL REFERENCES sources(id) ON DELETE CASCADE, path text COLLATE \"C\" NOT NULL UNIQUE, "
    "size bigint NOT NULL DEFAULT 0, mtime_ns bigint NOT NULL DEFAULT 0, sha256 text NOT NULL DEFAULT '', "
    "status text NOT NULL CHECK (status IN ('pending', 'indexed', 'failed')), error text NOT NULL DEFAULT '', "
    "chunk_count integer NOT NULL DEFAULT 0, indexed_at double precision NOT NULL DEFAULT 0, "
    "parent_id bigint REFERENCES files(id) ON DELETE CASCADE, collection_id bigint NOT NULL DEFAULT 0, "
    "reason text NOT NULL DEFAULT '')",
    "CREATE INDEX IF NOT EXISTS files_source ON files (source_id)",
    "CREATE INDEX IF NOT EXISTS files_hash ON files (sha256)",
    "CREATE INDEX IF NOT EXISTS files_status ON files (status)",
    "CREATE INDEX IF NOT EXISTS files_parent ON files (parent_id)",
    "CREATE INDEX IF NOT EXISTS files_collection ON files (collection_id)",
    "CREATE SEQUENCE IF NOT EXISTS chunk_ids",
    "CREATE TABLE IF NOT EXISTS chunks (id bigint PRIMARY KEY, "
    "file_id bigint NOT NULL REFERENCES files(id) ON DELETE CASCADE, ordinal integer NOT NULL, text text NOT NULL, "
    "page integer, heading text NOT NULL DEFAULT '', char_start integer NOT NULL, char_end integer NOT NULL, "
    "ocr integer NOT NULL DEFAULT 0, collection_id bigint NOT NULL DEFAULT 0, "
    "terms tsvector NOT NULL DEFAULT ''::tsvector, term_count integer NOT NULL DEFAULT 0)",
    "CREATE INDEX IF NOT EXISTS chunks_file ON chunks (file_id, ordinal)",
    "CREATE INDEX IF NOT EXISTS chunks_terms ON chunks USING gin (terms)",
    "CREATE INDEX IF NOT EXISTS chunks_collection ON chunks (collection_id)",
    "CREATE TABLE IF NOT EXISTS vectors (chunk_id bigint PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE, "
    "collection_id bigint NOT NULL DEFAULT 0, embedding vector NOT NULL)",
    "CREATE TABLE IF NOT EXISTS staged_vectors (chunk_id bigint PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE, "
    "collection_id bigint NOT NULL DEFAULT 0, embedding vector NOT NULL)",
    # a scanned PDF page's recognised boxes (store/ocr_lines.py): characters as a chunk's offsets, display points
    "CREATE TABLE IF NOT EXISTS ocr_lines (file_id bigint NOT NULL REFERENCES files(id) ON DELETE CASCADE, "
    "page integer NOT NULL, char_start integer NOT NULL, char_end integer NOT NULL, x0 double precision NOT NULL, "
    "y0 double precision NOT NULL, x1 double precision NOT NULL, y1 double precision NOT NULL, "
    "collection_id bigint NOT NULL DEFAULT 0)",
    "CREATE INDEX IF NOT EXISTS ocr_lines_file ON ocr_lines (file_id, page, char_start)",
    # the personal tables: each role's rows (views below)
    "CREATE TABLE IF NOT EXISTS conversations_all (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
    "owner name NOT NULL DEFAULT current_user, title text NOT NULL, created_at double precision NOT NULL, "
    "updated_at double precision NOT NULL, collection_id bigint)",
    "CREATE TABLE IF NOT EXISTS messages_all (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
    "owner name NOT NULL DEFAULT current_user, "
    "conversation_id bigint NOT NULL REFERENCES conversations_all(id) ON DELETE CASCADE, "
    "role text NOT NULL CHECK (role IN ('user', 'assistant')), content text NOT NULL, "
    "sources_json text NOT NULL DEFAULT '[]', created_at double precision NOT NULL, sent_json text)",
    "CREATE INDEX IF NOT EXISTS messages_conversation ON messages_all (conversation_id, id)",
    # 9: how an answer ended short (values.Ending.to_json; NULL: a whole one), the messages view's last column
    "ALTER TABLE messages_all ADD COLUMN IF NOT EXISTS ended text",
    "CREATE TABLE IF NOT EXISTS answer_cache_all (owner name NOT NULL DEFAULT current_user, key text NOT NULL, "
    "answer text NOT NULL, mode text NOT NULL, passages_json text NOT NULL, cited_json text NOT NULL, "
    "created_at double precision NOT NULL, conversation_id bigint, sent_json text, PRIMARY KEY (owner, key))",
    "CREATE TABLE IF NOT EXISTS answer_cache_chunks_all (owner name NOT NULL DEFAULT current_user, key text NOT NULL, "
    "chunk_id bigint NOT NULL, FOREIGN KEY (owner, key) REFERENCES answer_cache_all(owner, key) ON DELETE CASCADE)",
    "CREATE INDEX IF NOT EXISTS answer_cache_chunk ON answer_cache_chunks_all (chunk_id)",
    "CREATE INDEX IF NOT EXISTS answer_cache_key ON answer_cache_chunks_all (owner, key)",
    "CREATE INDEX IF NOT EXISTS answer_cache_conversation ON answer_cache_all (conversation_id)",
    "CREATE TABLE IF NOT EXISTS summary_cache_all (owner name NOT NULL DEFAULT current_user, key text NOT NULL, "
    "file_id bigint NOT NULL, text text NOT NULL, created_at double precision NOT NULL, PRIMARY KEY (owner, key))",
    "CREATE INDEX IF NOT EXISTS summary_cache_file ON summary_cache_all (file_id)",
    "CREATE TABLE IF NOT EXISTS answer_log_all (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
    "owner name NOT NULL DEFAULT current_user, created_at double precision NOT NULL, conversation_id bigint, "
    "question text NOT NULL, normalised text NOT NULL, query text NOT NULL, query_normalised text NOT NULL, "
    "scope text NOT NULL, passages_json text NOT NULL, model text NOT NULL, settings_json text NOT NULL, "
    "answer text NOT NULL, mode text NOT NULL, cached integer NOT NULL DEFAULT 0, "
    "grade text CHECK (grade IN ('right', 'partly', 'wrong', 'refused')), graded_at double precision, "
    "none_right integer NOT NULL DEFAULT 0)",
    "CREATE INDEX IF NOT EXISTS answer_log_question ON answer_log_all (normalised)",
    "CREATE INDEX IF NOT EXISTS answer_log_query ON answer_log_all (query_normalised)",
    "CREATE INDEX IF NOT EXISTS answer_log_conversation ON answer_log_all (conversation_id, id)",
    # 10: which turn or review-log row (kind: its table as on SQLite) keeps a passage of which chunk, for the carry;
    # the administrator's, written by triggers (kept_chunks_noted), read by no member
    "CREATE TABLE IF NOT EXISTS kept_chunks (chunk_id bigint NOT NULL, kind text NOT NULL, row_id bigint NOT NULL)",
    "CREATE INDEX IF NOT EXISTS kept_chunks_chunk ON kept_chunks (chunk_id)",
    "CREATE INDEX IF NOT EXISTS kept_chunks_row ON kept_chunks (row_id, kind)",
    "CREATE TABLE IF NOT EXISTS answer_marks_all (owner name NOT NULL DEFAULT current_user, "
    "answer_id bigint NOT NULL REFERENCES answer_log_all(id) ON DELETE CASCADE, chunk_id bigint NOT NULL, "
    "content_hash text NOT NULL, is_right integer NOT NULL, marked_at double precision NOT NULL, "
    "path text NOT NULL DEFAULT '', char_start integer NOT NULL DEFAULT 0, char_end integer NOT NULL DEFAULT 0, "
    "squeezed_hash text NOT NULL DEFAULT '', PRIMARY KEY (answer_id, chunk_id))",
    "CREATE TABLE IF NOT EXISTS answer_signals_all (owner name NOT NULL DEFAULT current_user, "
    "answer_id bigint NOT NULL REFERENCES answer_log_all(id) ON DELETE CASCADE, "
    "kind text NOT NULL CHECK (kind IN ('opened', 'reasked')), chunk_id bigint, at double precision NOT NULL)",
    "CREATE INDEX IF NOT EXISTS answer_signals_answer ON answer_signals_all (answer_id)",
    "CREATE TABLE IF NOT EXISTS query_translations_all (owner name NOT NULL DEFAULT current_user, "
    "question text NOT NULL, language text NOT NULL, text text NOT NULL, PRIMARY KEY (owner, question, language))",
)


def personal_views() -> tuple[str, ...]:
    """Each personal table as the view of the current role's rows, named as on SQLite (inserts through it get
    the role as owner; WITH CHECK OPTION keeps a row from being moved to another owner)."""
    columns = {
        "conversations": "id, title, created_at, updated_at, collection_id",
        "messages": "id, conversation_id, role, content, sources_json, created_at, sent_json, ended",
        "answer_cache": "key, answer, mode, passages_json, cited_json, created_at, conversation_id, sent_json",
        "answer_cache_chunks": "key, chunk_id",
        "summary_cache": "key, file_id, text, created_at",
        "answer_log": "id, created_at, conversation_id, question, normalised, query, query_normalised, scope, "
                      "passages_json, model, settings_json, answer, mode, cached, grade, graded_at, none_right",
        "answer_marks": "answer_id, chunk_id, content_hash, is_right, marked_at, path, char_start, char_end, "
                        "squeezed_hash",
        "answer_signals": "answer_id, kind, chunk_id, at",
        "query_translations": "question, language, text",
    }
    return tuple(f"CREATE OR REPLACE VIEW {name} AS SELECT {cols} FROM {name}_all WHERE owner = current_user "
                 "WITH CASCADED CHECK OPTION" for name, cols in columns.items())



TRIGGERS = (
    ("files_collection", "BEFORE INSERT OR UPDATE OF source_id ON files FOR EACH ROW", "file_collection"),
    ("chunks_collection", "BEFORE INSERT OR UPDATE OF file_id ON chunks FOR EACH ROW", "chunk_collection"),
    ("ocr_lines_collection", "BEFORE INSERT OR UPDATE OF file_id ON ocr_lines FOR EACH ROW", "chunk_collection"),
    ("vectors_collection", "BEFORE INSERT ON vectors FOR EACH ROW", "vector_collection"),
    ("staged_vectors_collection", "BEFORE INSERT ON staged_vectors FOR EACH ROW", "vector_collection"),
    ("sources_linked", "BEFORE UPDATE OF path ON sources FOR EACH ROW", "source_linked"),
    # a row's new collection goes down to its rows, however it changed: no column list (`UPDATE OF collection_id`
    # fires only when an UPDATE names the column, and a move names `source_id`: files_collection sets it)
    *((f"{table}_moved", f"AFTER UPDATE ON {table} FOR EACH ROW "
                         "WHEN (OLD.collection_id IS DISTINCT FROM NEW.collection_id)", function)
      for table, function in (("sources", "source_moved"), ("files", "file_moved"), ("chunks", "chunk_moved"))),
    ("chunks_gone", "AFTER DELETE OR UPDATE OF text ON chunks FOR EACH ROW", "chunk_gone"),
    ("files_gone", "AFTER DELETE ON files FOR EACH ROW", "file_gone"),
    ("conversations_gone", "AFTER DELETE ON conversations_all FOR EACH ROW", "conversation_gone"),
    ("chunks_version", "AFTER INSERT OR UPDATE OR DELETE ON chunks FOR EACH STATEMENT", "library_moved"),
    ("vectors_version", "AFTER INSERT OR UPDATE OR DELETE ON vectors FOR EACH STATEMENT", "library_moved"),
    ("files_version", "AFTER UPDATE OF path, source_id OR DELETE ON files FOR EACH STATEMENT", "library_moved"),
    ("sources_version", "AFTER UPDATE OF path, collection_id OR DELETE ON sources FOR EACH STATEMENT",
     "library_moved"),
    ("collections_version", "AFTER DELETE ON collections FOR EACH STATEMENT", "library_moved"),
    ("chunks_added", "AFTER INSERT ON chunks REFERENCING NEW TABLE AS changed FOR EACH STATEMENT", "chunks_added"),
    ("chunks_removed", "AFTER DELETE ON chunks REFERENCING OLD TABLE AS changed FOR EACH STATEMENT", "chunks_removed"),
    ("meta_guarded", "BEFORE INSERT OR UPDATE OR DELETE ON meta FOR EACH ROW", "meta_guarded"),
    ("grants_version", "AFTER INSERT OR UPDATE OR DELETE ON collection_grants FOR EACH STATEMENT", "library_moved"),
    *((f"{table}_kept", f"AFTER INSERT OR UPDATE OF {column} OR DELETE ON {table}_all FOR EACH ROW",
       f"kept_chunks_noted('{table}', '{column}')") for table, column in KEPT_PASSAGES),
    *((f"{table}_notified", f"AFTER INSERT OR UPDATE OR DELETE ON {table} FOR EACH STATEMENT", "library_notified")
      for table in ("collections", "collection_grants", "sources", "files", "conversations_all", "vectors",
                    "staged_vectors")),
)


# Each content row's collection set to its file's (a file's to its source's): version 10 and before left a moved
# file's rows in the collection it left. One statement a table, each a no-op on a library without such rows; the
# vectors before their chunks, so the chunks' own trigger (chunk_moved) finds nothing left to move row by row.
_FILE_OF_CHUNK = "chunks c JOIN files o ON o.id = c.file_id", "c.id = t.chunk_id"
REPAIRS = tuple(f"UPDATE {table} t SET collection_id = o.collection_id FROM {owner} WHERE {match} "
                "AND t.collection_id IS DISTINCT FROM o.collection_id"
                for table, (owner, match) in (("files", ("sources o", "o.id = t.source_id")),
                                              ("vectors", _FILE_OF_CHUNK), ("staged_vectors", _FILE_OF_CHUNK),
                                              ("ocr_lines", ("files o", "o.id = t.file_id")),
                                              ("chunks", ("files o", "o.id = t.file_id"))))


def trigger_statements() -> tuple[str, ...]:
    return tuple(f"CREATE OR REPLACE TRIGGER {name} {when} EXECUTE FUNCTION {function}"
                 f"{'' if function.endswith(')') else '()'}" for name, when, function in TRIGGERS)


def security_statements() -> tuple[str, ...]:
    """Row-level security on the content tables: a role sees and changes the rows of its granted collections (and
    of `meta`, the skipped counts of their sources)."""
    statements = ["ALTER TABLE collections ENABLE ROW LEVEL SECURITY",
                  "DROP POLICY IF EXISTS granted ON collections",
                  "CREATE POLICY granted ON collections USING (id = ANY ((SELECT visible_collections())::bigint[]))"]
    # the skipped counts of a source are seen (and written: meta_guarded says why not) only where the source is
    statements += ["ALTER TABLE meta ENABLE ROW LEVEL SECURITY",
                   "DROP POLICY IF EXISTS seen ON meta",
                   "CREATE POLICY seen ON meta USING (key NOT LIKE 'skipped.%' "
                   "OR EXISTS (SELECT 1 FROM sources WHERE id::text = substr(key, length('skipped.') + 1)))"]
    for table in CONTENT_TABLES:
        statements += [f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
                       f"DROP POLICY IF EXISTS granted ON {table}",
                       f"CREATE POLICY granted ON {table} USING (collection_id = ANY ((SELECT visible_collections())::bigint[])) "
                       "WITH CHECK (collection_id = ANY ((SELECT visible_collections())::bigint[]))"]
    return tuple(statements)


def all_statements() -> tuple[str, ...]:
    """Everything, idempotent, in order (run in one transaction by the administrator)."""
    return (*TABLES, *FUNCTIONS, *trigger_statements(), *personal_views(), *security_statements())


_MEMBER_PRIVILEGES = (  # (privileges, on what): what a role granted a collection needs besides its rows
    ("USAGE", f"SCHEMA {SCHEMA_NAME}"),
    ("SELECT", "collections, visible_grants"),
    ("SELECT, INSERT, UPDATE, DELETE", ", ".join((*CONTENT_TABLES, *PERSONAL_TABLES, "meta"))),
    ("SELECT", "library_counters, clients"),
    ("USAGE, SELECT", f"ALL SEQUENCES IN SCHEMA {SCHEMA_NAME}"),
    ("EXECUTE", f"FUNCTION visible_collections(), set_vector_dimension(integer), {CARRY}({CARRY_ARGUMENTS}), "
                f"{HIDDEN_OVERLAP}({HIDDEN_OVERLAP_ARGUMENTS})"),
)


def member_privileges(role_sql: str, revoke: bool = False) -> tuple[str, ...]:
    """Granting (or, when a role has no collection left, revoking) what a member needs (`role_sql`: the quoted
    role name)."""
    verb, direction = ("REVOKE", "FROM") if revoke else ("GRANT", "TO")
    return tuple(f"{verb} {what} ON {on} {direction} {role_sql}" for what, on in _MEMBER_PRIVILEGES)


def open_schema(db, client: str, read_only: bool) -> None:
    """Make the session use the library's schema as this client; create or migrate it when this role may (the
    administrator: the schema's owner), else refuse a schema that is missing, older or newer with what to do."""
    db.execute("SELECT set_config('desktop_rag.client', ?, false)", (client,))
    db.execute(f"SET search_path = {SCHEMA_NAME}, public")
    stored = _stored_version(db)
    version = stored or 0
    if version == SCHEMA_VERSION:
        return
    from desktop_rag.engine.store.postgres.connection import ServerUnavailableError

    if version > SCHEMA_VERSION:
        raise ServerUnavailableError.coded("server_schema_newer", version=version)
    if read_only or not _may_create(db):
        raise ServerUnavailableError.coded("server_schema_older" if stored is not None else "server_no_library")
    migrate(db)


def _stored_version(db) -> int | None:
    """The library's schema version (None: no library yet; 0: its tables without one)."""
    if not db.execute(f"SELECT to_regclass('{SCHEMA_NAME}.meta') IS NOT NULL").fetchone()[0]:
        return None
    row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else 0


def migrate(db) -> None:
    """Create or upgrade the schema in one transaction (concurrent first opens wait for each other)."""
    from desktop_rag.engine.store.postgres.connection import ServerUnavailableError

    db.execute("BEGIN")
    try:
        db.execute("SELECT pg_advisory_xact_lock(hashtext('desktop_rag schema'))")
        if not db.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone():
            if not db.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone():
                raise ServerUnavailableError.coded("server_no_pgvector")
            install_pgvector(db)
        db.execute(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA_NAME}")
        upgraded_from = _stored_version(db) or 0
        for statement in (*all_statements(), *REPAIRS):
            db.raw.run(statement)
        _members_read_clients(db)
        _members_privileges(db)
        if upgraded_from < _KEPT_CHUNKS_SINCE:
            _note_kept_chunks(db)
        db.execute("INSERT INTO meta VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = "
                   "excluded.value", (str(SCHEMA_VERSION),))
        db.execute("INSERT INTO collections (name, created_at) SELECT 'Default', extract(epoch FROM now()) "
                   "WHERE NOT EXISTS (SELECT 1 FROM collections)")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _granted_roles(db) -> list[str]:
    """The roles granted a collection (that exist)."""
    return [role for (role,) in db.execute(
        "SELECT DISTINCT g.role FROM collection_grants g JOIN pg_roles r ON r.rolname = g.role").fetchall()]


def _members_read_clients(db) -> None:
    """Version 2: the roles granted a collection under version 1 could write `clients`; now they only read it."""
    for role in _granted_roles(db):
        if not is_administrator(db, role):
            db.execute(f"REVOKE INSERT, UPDATE, DELETE ON clients FROM {quoted(role)}")


def _note_kept_chunks(db) -> None:
    """Version 10: the rows kept before note their chunks, once (the triggers keep them since: a later migration
    leaves the table as it is)."""
    db.execute("DELETE FROM kept_chunks")
    for table, column in KEPT_PASSAGES:
        db.execute(f"INSERT INTO kept_chunks SELECT k, '{table}', t.id FROM {table}_all t, "
                   f"kept_chunk_ids(t.{column}) k")


def _members_privileges(db) -> None:
    """The roles granted a collection before get what a member needs now (`member_privileges`): version 5 added
    `carry_chunk_references`, 8 `ocr_lines` (its rows of their collections only: row-level security), 12 the
    `visible_grants` view (the function reading it is new), 13 `overlaps_hidden_source`."""
    for role in _granted_roles(db):
        for statement in member_privileges(quoted(role)):
            db.execute(statement)


def quoted(role: str) -> str:
    """A role name as an SQL identifier."""
    return '"' + role.replace('"', '""') + '"'


def is_administrator(db, role: str | None = None) -> bool:
    """Whether `role` (None: this connection's) administers the library: owns its schema, is a member of the role
    that does, or is a superuser (`role` must exist)."""
    who = "current_user" if role is None else "?"
    return bool(db.execute(f"SELECT pg_has_role({who}, n.nspowner, 'USAGE') FROM pg_namespace n WHERE n.nspname = ?",
                           (SCHEMA_NAME,) if role is None else (role, SCHEMA_NAME)).fetchone()[0])


def _may_create(db) -> bool:
    row = db.execute("SELECT pg_has_role(current_user, nspowner, 'USAGE') FROM pg_namespace WHERE nspname = ?",
                     (SCHEMA_NAME,)).fetchone()
    if row is not None:
        return bool(row[0])
    return bool(db.execute("SELECT has_database_privilege(current_database(), 'CREATE')").fetchone()[0])
