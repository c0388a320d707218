"""The library's tables on SQLite, created and migrated in one transaction when a writable library opens
(`migrate`), checked when one opens read-only (`check_version`).

Schema 1 -> 2 added collections (every source joins "Default"), 2 -> 3 `files.parent_id` (e-mail attachments),
3 -> 4 `files.reason` (a failure or a note as its codes: reasons.Reason; older rows read once, legacy_reasons) and
the staging and translation tables made with the library (they were made on first use), 4 -> 5 `ocr_lines` (a
scanned page's recognised boxes, store/ocr_lines.py: an older library has none, its scanned pages are highlighted once
read again), 5 -> 6 `messages.ended` (how an answer ended short: values.Ending; older answers read as whole), 6 -> 7
`kept_chunks` (which turn or review-log row keeps a passage of which chunk, read from the rows there once). Nothing
is re-embedded by a migration. The triggers keep what depends on the index in step with it: the library version (any
change that can change a search result moves `meta.library_version`, whichever code or process writes), the keyword
rows, and the stored answers and summaries that quote a chunk or file that went.
"""

from __future__ import annotations

import sqlite3
import time

from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.store import legacy_reasons
from desktop_rag.engine.store.carried_references import KEPT_PASSAGES
from desktop_rag.engine.store.values import DEFAULT_COLLECTION

SCHEMA_VERSION = 7

_TABLES = """
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
-- a scanned PDF page's recognised boxes: characters as a chunk's offsets, the rectangle in display points
CREATE TABLE IF NOT EXISTS ocr_lines (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    page INTEGER NOT NULL,
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL,
    x0 REAL NOT NULL,
    y0 REAL NOT NULL,
    x1 REAL NOT NULL,
    y1 REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS ocr_lines_file ON ocr_lines(file_id, page, char_start);
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

# Added (schema 2 and later) to tables that older libraries already have (ALTER TABLE: no REFERENCES with a default).
_ADDED_COLUMNS = (
    ("chunks", "ocr", "INTEGER NOT NULL DEFAULT 0"),  # libraries made before OCR: recognised text is flagged
    ("sources", "collection_id", "INTEGER NOT NULL DEFAULT 1"),
    ("sources", "detached", "INTEGER NOT NULL DEFAULT 0"),
    ("conversations", "collection_id", "INTEGER"),
    ("messages", "sent_json", "TEXT"),  # what an answer sent, kept with it (issue 40); older messages have none
    # (a question's row: the translations it was also searched as, store/conversations.py)
    # schema 3: an e-mail's attachments are files of their own, rows that go with their message's row
    ("files", "parent_id", "INTEGER REFERENCES files(id) ON DELETE CASCADE"),
    # schema 4: `error` as codes and values (reasons.Reason.to_json; '' when the English text is all there is)
    ("files", "reason", "TEXT NOT NULL DEFAULT ''"),
    # schema 6: an answer stopped, cut or failed, kept with how it ended (values.Ending.to_json; NULL: a whole one)
    ("messages", "ended", "TEXT"),
)
_ADDED_INDEXES = ("CREATE INDEX IF NOT EXISTS sources_collection ON sources(collection_id)",
                  "CREATE INDEX IF NOT EXISTS files_parent ON files(parent_id)")

_CACHES = (
    # the answer cache (answer/replay.py): an answer goes with any chunk it was given and with its conversation
    "CREATE TABLE IF NOT EXISTS answer_cache (key TEXT PRIMARY KEY, answer TEXT NOT NULL, mode TEXT NOT NULL, "
    "passages_json TEXT NOT NULL, cited_json TEXT NOT NULL, created_at REAL NOT NULL, conversation_id INTEGER, "
    "sent_json TEXT)",
    "CREATE TABLE IF NOT EXISTS answer_cache_chunks (key TEXT NOT NULL REFERENCES answer_cache(key) "
    "ON DELETE CASCADE, chunk_id INTEGER NOT NULL)",
    "CREATE INDEX IF NOT EXISTS answer_cache_chunk ON answer_cache_chunks(chunk_id)",
    "CREATE INDEX IF NOT EXISTS answer_cache_key ON answer_cache_chunks(key)",
    "CREATE TRIGGER IF NOT EXISTS answer_cache_chunk_deleted AFTER DELETE ON chunks BEGIN "
    "DELETE FROM answer_cache WHERE key IN (SELECT key FROM answer_cache_chunks WHERE chunk_id = old.id); END",
    "CREATE TRIGGER IF NOT EXISTS answer_cache_chunk_changed AFTER UPDATE OF text ON chunks BEGIN "
    "DELETE FROM answer_cache WHERE key IN (SELECT key FROM answer_cache_chunks WHERE chunk_id = old.id); END",
    "CREATE INDEX IF NOT EXISTS answer_cache_conversation ON answer_cache(conversation_id)",
    "CREATE TRIGGER IF NOT EXISTS answer_cache_conversation_deleted AFTER DELETE ON conversations BEGIN "
    "DELETE FROM answer_cache WHERE conversation_id = old.id; END",
    # stored summaries (answer/summarising.py): a row goes with its file
    "CREATE TABLE IF NOT EXISTS summary_cache (key TEXT PRIMARY KEY, file_id INTEGER NOT NULL, text TEXT NOT NULL, "
    "created_at REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS summary_cache_file ON summary_cache(file_id)",
    "CREATE TRIGGER IF NOT EXISTS summary_cache_file_deleted AFTER DELETE ON files BEGIN "
    "DELETE FROM summary_cache WHERE file_id = old.id; END",
    # the review log (issue 39): an answer goes with its conversation (unless its graded rows were kept)
    "CREATE TABLE IF NOT EXISTS answer_log (id INTEGER PRIMARY KEY, created_at REAL NOT NULL, "
    "conversation_id INTEGER, question TEXT NOT NULL, normalised TEXT NOT NULL, query TEXT NOT NULL, "
    "query_normalised TEXT NOT NULL, scope TEXT NOT NULL, passages_json TEXT NOT NULL, model TEXT NOT NULL, "
    "settings_json TEXT NOT NULL, answer TEXT NOT NULL, mode TEXT NOT NULL, cached INTEGER NOT NULL DEFAULT 0, "
    "grade TEXT CHECK (grade IN ('right', 'partly', 'wrong', 'refused')), graded_at REAL, "
    "none_right INTEGER NOT NULL DEFAULT 0)",
    "CREATE INDEX IF NOT EXISTS answer_log_question ON answer_log(normalised)",
    "CREATE INDEX IF NOT EXISTS answer_log_query ON answer_log(query_normalised)",
    "CREATE INDEX IF NOT EXISTS answer_log_conversation ON answer_log(conversation_id, id)",
    "CREATE TABLE IF NOT EXISTS answer_marks (answer_id INTEGER NOT NULL REFERENCES answer_log(id) "
    "ON DELETE CASCADE, chunk_id INTEGER NOT NULL, content_hash TEXT NOT NULL, is_right INTEGER NOT NULL, "
    "marked_at REAL NOT NULL, path TEXT NOT NULL DEFAULT '', char_start INTEGER NOT NULL DEFAULT 0, "
    "char_end INTEGER NOT NULL DEFAULT 0, squeezed_hash TEXT NOT NULL DEFAULT '', PRIMARY KEY (answer_id, chunk_id))",
    "CREATE TABLE IF NOT EXISTS answer_signals (answer_id INTEGER NOT NULL REFERENCES answer_log(id) "
    "ON DELETE CASCADE, kind TEXT NOT NULL CHECK (kind IN ('opened', 'reasked')), chunk_id INTEGER, "
    "at REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS answer_signals_answer ON answer_signals(answer_id)",
    "CREATE TRIGGER IF NOT EXISTS answer_log_conversation_deleted AFTER DELETE ON conversations BEGIN "
    "DELETE FROM answer_log WHERE conversation_id = old.id; END",
    # a model switch's vectors, staged beside the ones in use (ingest/reembed.py)
    "CREATE TABLE IF NOT EXISTS staged_vectors (chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) "
    "ON DELETE CASCADE, vector BLOB NOT NULL)",
    # questions translated by the language model (search/translation.py)
    "CREATE TABLE IF NOT EXISTS query_translations (question TEXT NOT NULL, language TEXT NOT NULL, "
    "text TEXT NOT NULL, PRIMARY KEY (question, language))",
)

VERSION_KEY = "library_version"
_VERSIONED = (  # (table, event): each gets one AFTER trigger moving the library version
    ("chunks", "INSERT"), ("chunks", "DELETE"), ("chunks", "UPDATE"),
    ("vectors", "INSERT"), ("vectors", "DELETE"), ("vectors", "UPDATE"),
    ("files", "UPDATE OF path, source_id"), ("files", "DELETE"),
    ("sources", "UPDATE OF path, collection_id"), ("sources", "DELETE"),
    ("collections", "DELETE"),
)


def migrate(db: sqlite3.Connection) -> None:
    """Create or upgrade the schema (inside the caller's transaction); UsageError for a newer library."""
    has_meta = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone()
    row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() if has_meta else None
    version = int(row[0]) if row else 0
    if version > SCHEMA_VERSION:
        raise UsageError.coded("library_newer_schema", version=version)
    for statement in _split_sql(_TABLES):
        db.execute(statement)
    db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
    db.execute("INSERT OR IGNORE INTO meta VALUES ('vectors_generation', '0')")
    for table, column, declaration in _ADDED_COLUMNS:
        if column not in {r[1] for r in db.execute(f"PRAGMA table_info({table})")}:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
    for statement in _ADDED_INDEXES:
        db.execute(statement)
    _first_collection(db)
    if 0 < version < 4:
        legacy_reasons.migrate(db)  # the stored English reasons read once into codes
    _drop_old_answer_cache(db)
    for statement in _CACHES + _kept_chunks():
        db.execute(statement)
    if version < 7:  # the kept passages' chunks, noted by the triggers from now on, read once from the rows there
        for table, column in KEPT_PASSAGES:
            db.execute(f"INSERT INTO kept_chunks SELECT {_chunk_ids(table, column, table + '.id')}")
    db.execute("INSERT OR IGNORE INTO meta VALUES (?, '0')", (VERSION_KEY,))
    for table, event in _VERSIONED:
        name = f"library_version_{table}_{event.split()[0].lower()}"
        db.execute(f"CREATE TRIGGER IF NOT EXISTS {name} AFTER {event} ON {table} BEGIN "
                   f"UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = '{VERSION_KEY}'; END")
    db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))


def _kept_chunks() -> tuple[str, ...]:
    """Schema 7: which turn or review-log row keeps a passage of which chunk (`kept_chunks`: kind is the table's
    name), so a re-read file's carry reads only the rows naming its old chunks (carried_references.carry). Written
    by triggers, whichever code writes the rows; a damaged list names no chunk."""
    statements = ["CREATE TABLE IF NOT EXISTS kept_chunks (chunk_id INTEGER NOT NULL, kind TEXT NOT NULL, "
                  "row_id INTEGER NOT NULL)",
                  "CREATE INDEX IF NOT EXISTS kept_chunks_chunk ON kept_chunks(chunk_id)",
                  "CREATE INDEX IF NOT EXISTS kept_chunks_row ON kept_chunks(row_id, kind)"]
    for table, column in KEPT_PASSAGES:
        forget = f"DELETE FROM kept_chunks WHERE row_id = old.id AND kind = '{table}';"
        note = f"INSERT INTO kept_chunks SELECT {_chunk_ids(table, column, 'new.id', 'new.')};"
        statements += [
            f"CREATE TRIGGER IF NOT EXISTS {table}_kept_added AFTER INSERT ON {table} BEGIN {note} END",
            f"CREATE TRIGGER IF NOT EXISTS {table}_kept_changed AFTER UPDATE OF {column} ON {table} "
            f"BEGIN {forget} {note} END",
            f"CREATE TRIGGER IF NOT EXISTS {table}_kept_deleted AFTER DELETE ON {table} BEGIN {forget} END"]
    return tuple(statements)


def _chunk_ids(table: str, column: str, row_id: str, row: str = "") -> str:
    """The SELECT list and FROM of (chunk id, `table`, `row_id`) for each passage of the JSON list `row``column`."""
    stored = f"{row}{column}"
    return (f"DISTINCT json_extract(j.value, '$.chunk_id'), '{table}', {row_id} FROM "
            f"{'' if row else table + ', '}json_each(CASE WHEN json_valid({stored}) THEN {stored} ELSE '[]' END) j "
            "WHERE j.type = 'object' AND json_type(j.value, '$.chunk_id') = 'integer'")


def check_version(db: sqlite3.Connection) -> None:
    """A read-only connection cannot migrate: the library must already have this schema (UsageError)."""
    version = int((db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() or ("0",))[0])
    if version != SCHEMA_VERSION:
        raise UsageError.coded("library_newer" if version > SCHEMA_VERSION else "library_older")


def _first_collection(db: sqlite3.Connection) -> None:
    """At least one collection ("Default", which every source of an upgraded library belongs to)."""
    if not db.execute("SELECT EXISTS (SELECT 1 FROM collections)").fetchone()[0]:
        first = db.execute("SELECT coalesce(min(collection_id), 1) FROM sources").fetchone()[0]
        db.execute("INSERT INTO collections (id, name, created_at) VALUES (?, ?, ?)",
                   (first, DEFAULT_COLLECTION, time.time()))
        db.execute("UPDATE sources SET collection_id = ?", (first,))


def _drop_old_answer_cache(db: sqlite3.Connection) -> None:
    """A cache written before answers knew their conversation is dropped whole (it may hold answers made with a
    conversation's history); one from before "What was sent" (issue 40) gets the column (those answers show none)."""
    columns = {r[1] for r in db.execute("PRAGMA table_info(answer_cache)")}
    if columns and "conversation_id" not in columns:
        db.execute("DROP TABLE IF EXISTS answer_cache_chunks")
        db.execute("DROP TABLE answer_cache")
    elif columns and "sent_json" not in columns:
        db.execute("ALTER TABLE answer_cache ADD COLUMN sent_json TEXT")


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
