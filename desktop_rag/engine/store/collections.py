"""Collections (separate knowledge bases in one library): list, create, rename, delete, and search filters."""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass

from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.paths import is_valid_text
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import DEFAULT_COLLECTION

MAX_NAME_CHARS = 80


@dataclass(frozen=True)
class Collection:
    """One collection with its size, as the CLI, the GUI and the MCP server list it."""

    id: int
    name: str
    sources: int
    files: int
    chunks: int

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "sources": self.sources, "files": self.files, "chunks": self.chunks}


def listing(store: Store) -> list[Collection]:
    """Every collection, oldest first, with its counts (sources, files, chunks)."""
    rows = store.db.execute(
        "SELECT k.id, k.name, "
        " (SELECT count(*) FROM sources s WHERE s.collection_id = k.id), "
        " (SELECT count(*) FROM files f JOIN sources s ON s.id = f.source_id WHERE s.collection_id = k.id), "
        " (SELECT coalesce(sum(f.chunk_count), 0) FROM files f JOIN sources s ON s.id = f.source_id "
        "  WHERE s.collection_id = k.id) "
        "FROM collections k ORDER BY k.id").fetchall()
    return [Collection(*r) for r in rows]


def names(store: Store) -> list[tuple[int, str]]:
    """Every collection's (id, name), oldest first (no counts: cheap enough to read after every write)."""
    return [(cid, name) for cid, name in store.db.execute("SELECT id, name FROM collections ORDER BY id")]


def find(store: Store, name: str) -> int | None:
    """The id of the collection called `name`, its runs of white space as one space, in any letter case of any
    script ("CAFÉ" is "Café": compared in Python, as SQLite's lower() folds ASCII only), the exact name first (an
    older library may hold both); None when there is none (also for a name no collection can have: undecodable
    bytes)."""
    if not is_valid_text(name):
        return None
    wanted = " ".join(name.split())
    rows = store.db.execute("SELECT id, name FROM collections ORDER BY id").fetchall()
    exact = next((cid for cid, stored in rows if stored == wanted), None)
    return exact if exact is not None else next(
        (cid for cid, stored in rows if stored.casefold() == wanted.casefold()), None)


def resolve(store: Store, name: str) -> int:
    """The id of the collection called `name`; a UsageError naming the collections there are otherwise."""
    found = find(store, name)
    if found is None:
        names = ", ".join(f"“{c.name}”" for c in listing(store))
        raise UsageError.coded("unknown_collection", name=_shown(name), names=names)
    return found


def name_of(store: Store, collection_id: int) -> str | None:
    row = store.db.execute("SELECT name FROM collections WHERE id = ?", (collection_id,)).fetchone()
    return row[0] if row else None


def checked_name(name: str) -> str:
    """A collection name as stored: trimmed, printable, 1..MAX_NAME_CHARS characters (or a UsageError)."""
    name = " ".join(name.split())
    if not name:
        raise UsageError.coded("collection_no_name")
    if len(name) > MAX_NAME_CHARS:
        raise UsageError.coded("collection_name_long", n=MAX_NAME_CHARS)
    if any(_invisible(name, i) for i in range(len(name))):
        raise UsageError.coded("collection_name_controls")
    return name


def _invisible(name: str, i: int) -> bool:
    """A control, format, surrogate, private or unassigned character at `name[i]`; a joiner is none where it joins:
    U+200D between emoji ("👩‍💻") or letters of a script that uses it, U+200C between such letters (Persian)."""
    ch = name[i]
    if ch in "\u200c\u200d" and 0 < i < len(name) - 1:
        before, after = name[i - 1], name[i + 1]
        if _joining_script(before) and _joining_script(after) or ch == "\u200d" and _emoji(before) and _emoji(after):
            return False
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn")


def _emoji(ch: str) -> bool:
    return unicodedata.category(ch) in ("So", "Sk") or ch == "\ufe0f"  # (a skin tone is Sk; U+FE0F: shown as emoji)


def _joining_script(ch: str) -> bool:
    """Arabic (Persian, Urdu) and the Indic scripts, where the zero-width joiners shape words."""
    return "\u0600" <= ch <= "\u077f" or "\u0900" <= ch <= "\u0dff" or "\ufb50" <= ch <= "\ufdff" \
        or "\ufe70" <= ch <= "\ufefe"


def administer(store: Store) -> None:
    """UsageError unless this role may make, rename or delete collections: on a server, its administrator only
    (a member's statement failed on the table's privileges, and was told to ask for a grant it had)."""
    if not store.sees_everything():
        raise UsageError.coded("server_not_administrator")


def create(store: Store, name: str) -> int:
    """A new empty collection; UsageError if the name is taken."""
    administer(store)
    name = checked_name(name)
    with store.transaction() as db:
        if find(store, name) is not None:
            raise UsageError.coded("collection_exists", name=name)
        return db.execute("INSERT INTO collections (name, created_at) VALUES (?, ?) RETURNING id",
                          (name, time.time())).fetchone()[0]


def rename(store: Store, collection_id: int, name: str) -> None:
    administer(store)
    name = checked_name(name)
    with store.transaction() as db:
        taken = find(store, name)
        if taken is not None and taken != collection_id:
            raise UsageError.coded("collection_exists", name=name)
        if db.execute("UPDATE collections SET name = ? WHERE id = ?", (name, collection_id)).rowcount == 0:
            raise UsageError.coded("collection_gone")


def delete(store: Store, collection_id: int) -> list[int]:
    """Forget a collection with its sources, files, chunks and vectors, in one transaction (the documents on
    disk are never touched). Returns the chunk ids whose vectors went, for the FAISS cache. Deleting the
    last collection leaves an empty "Default" in its place."""
    administer(store)
    with store.transaction() as db:
        store.hold_vectors()  # before the files' rows: a move waits for this delete, never holds a row it needs
        gone = store.collection_vector_ids(collection_id).tolist()
        db.execute("DELETE FROM sources WHERE collection_id = ?", (collection_id,))  # files, chunks, vectors cascade
        db.execute("UPDATE conversations SET collection_id = NULL WHERE collection_id = ?", (collection_id,))
        db.execute("DELETE FROM collections WHERE id = ?", (collection_id,))
        if not db.execute("SELECT EXISTS (SELECT 1 FROM collections)").fetchone()[0]:
            db.execute("INSERT INTO collections (name, created_at) VALUES (?, ?)", (DEFAULT_COLLECTION, time.time()))
        if gone:
            store.vectors_changed()
        store.bump_membership()
    return gone


def drop_empty(store: Store, collection_id: int) -> None:
    """Remove a collection without sources that is about to be replaced (inside the caller's transaction, which
    adds a collection before it commits)."""
    store.db.execute("DELETE FROM collections WHERE id = ? AND NOT EXISTS (SELECT 1 FROM sources "
                     "WHERE collection_id = ?)", (collection_id, collection_id))


def conversation_collection(store: Store, conversation_id: int) -> int | None:
    """The collection a conversation asks in (None: all collections, also when its collection is no longer there for
    this role: on a server another person's delete clears only that person's conversations, and a grant can go)."""
    row = store.db.execute("SELECT v.collection_id FROM conversations v JOIN collections k ON k.id = v.collection_id "
                           "WHERE v.id = ?", (conversation_id,)).fetchone()
    return row[0] if row else None


def set_conversation_collection(store: Store, conversation_id: int, collection_id: int | None) -> None:
    with store.transaction() as db:
        db.execute("UPDATE conversations SET collection_id = ? WHERE id = ?", (collection_id, conversation_id))


def _shown(name: str) -> str:
    return "".join(ch for ch in name if ch.isprintable())[:MAX_NAME_CHARS]
