"""A file that moves on disk into a folder of another collection takes its passages with it on a server: its chunks,
vectors, staged vectors and recognised lines (and its e-mail attachments' rows) carry the new collection, so the
members of the old collection no longer see a word of it, whatever they ask or whatever SQL they run, and the
members of the new one do. A library whose moved files kept their old collection (schema 10 and before: the trigger
that carries a file's collection to its rows fired only when `collection_id` itself was named in the UPDATE, and a
move names `source_id`) is repaired by its administrator's next open. A move and a delete of the collection it
leaves, at once, lose nothing and abort neither.

Real PostgreSQL (the app's local server), real roles, real OCR of an image-only PDF; the hashing embedder (hash:64).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.postgres.schema import SCHEMA_VERSION
from tests.support import scans

FAST = Settings(embedding_model="hash:64")
MOVED = "Lantern audit: the harbour fund paid zephyrine invoices."
STAYED = "Lantern audit: the harbour fund paid ordinary invoices."
QUESTION = "lantern audit harbour fund zephyrine invoices"
TABLES = ("files", "chunks", "vectors", "staged_vectors", "ocr_lines")
PASSWORDS = {"alice": "alice-password-1", "bob": "bob-password-22", "carol": "carol-password-3"}


def _folders(root: Path) -> tuple[Path, Path]:
    """Alpha's folder (a text file that stays; in `moving/` a text file, a message with an attachment, a scan) and
    Beta's (one text file)."""
    alpha, beta = root / "alpha", root / "beta"
    (alpha / "moving").mkdir(parents=True)
    beta.mkdir()
    (alpha / "stays.txt").write_text(STAYED, "utf-8")
    (beta / "beta.txt").write_text("Beta's own notes on the ferry timetable.", "utf-8")
    (alpha / "moving" / "audit.txt").write_text(MOVED + " 灯塔基金的审计报告。", "utf-8")
    message = EmailMessage()
    message["Subject"] = "Audit"
    message.set_content("The zephyrine invoices are attached.")
    message.add_attachment(MOVED.encode(), maintype="text", subtype="plain", filename="invoices.txt")
    (alpha / "moving" / "audit.eml").write_bytes(bytes(message))
    scans.image_pdf([scans.strip(scans.ENGLISH[1:2], False)], alpha / "moving" / "scan.pdf")
    return alpha, beta


def _engine(pg_server, database: str, root: Path, user: str) -> Engine:
    return Engine(resolve_paths(root / user), FAST, library=pg_server.url(database, user, PASSWORDS[user]))


def _raw(pg_server, database: str, user: str):
    import pg8000.native

    raw = pg8000.native.Connection(user, database=database, password=PASSWORDS[user],
                                   unix_sock=str(pg_server.socket_dir / f".s.PGSQL.{pg_server.server._port()}"))
    raw.run("SET search_path = desktop_rag, public")
    return raw


def _counts(raw, files: list[int], chunks: list[int]) -> dict[str, int]:
    """How many rows of each content table of the moved files (`files`, their `chunks`) this connection sees."""
    keyed = {"files": ("id", files), "chunks": ("file_id", files), "ocr_lines": ("file_id", files),
             "vectors": ("chunk_id", chunks), "staged_vectors": ("chunk_id", chunks)}
    return {table: raw.run(f"SELECT count(*) FROM {table} WHERE {column} = ANY (:ids)", ids=ids)[0][0]
            for table, (column, ids) in keyed.items()}


def _astray(raw) -> dict[str, int]:
    """The rows (as the administrator sees them all) whose collection is not their file's."""
    return {
        "chunks": raw.run("SELECT count(*) FROM chunks c JOIN files f ON f.id = c.file_id "
                          "WHERE c.collection_id <> f.collection_id")[0][0],
        "ocr_lines": raw.run("SELECT count(*) FROM ocr_lines l JOIN files f ON f.id = l.file_id "
                             "WHERE l.collection_id <> f.collection_id")[0][0],
        **{table: raw.run(f"SELECT count(*) FROM {table} v JOIN chunks c ON c.id = v.chunk_id JOIN files f "
                          "ON f.id = c.file_id WHERE v.collection_id <> f.collection_id")[0][0]
           for table in ("vectors", "staged_vectors")},
    }


def _indexed_library(pg_server, root: Path):
    """A library with Alpha (alice's and carol's) and Beta (bob's and carol's), both indexed by carol from her
    computer, a model switch staged. Returns (database, the
    owner's raw connection, carol's engine, Alpha's folder, Beta's, the ids of the files in `moving/`, their chunk
    ids, the rows of each table they have)."""
    database = pg_server.new_database("moved")
    for user, password in PASSWORDS.items():
        pg_server.role(user, password)
    alpha, beta = _folders(root)
    admin = Engine(resolve_paths(root / "admin"), FAST, library=pg_server.url(database))
    try:
        alpha_id, beta_id = admin.create_collection("Alpha"), admin.create_collection("Beta")
        for collection, users in ((alpha_id, ("alice", "carol")), (beta_id, ("bob", "carol"))):
            for user in users:
                admin.library.grant(collection, user)
    finally:
        admin.close()
    carol = _engine(pg_server, database, root, "carol")
    owner = pg_server.admin(database)
    owner.run("SET search_path = desktop_rag, public")
    try:
        carol.index([alpha], collection=alpha_id)
        carol.index([beta], collection=beta_id)
        # a model switch in progress (its administrator's run stopped after staging every chunk's new vector)
        owner.run("INSERT INTO meta VALUES ('staged_model', 'hash:32')")
        owner.run("INSERT INTO staged_vectors (chunk_id, embedding) SELECT chunk_id, embedding FROM vectors")
        files = [r[0] for r in owner.run("SELECT id FROM files WHERE path LIKE :p ORDER BY id",
                                         p=str(alpha / "moving") + "/%")]
        chunks = [r[0] for r in owner.run("SELECT id FROM chunks WHERE file_id = ANY (:f)", f=files)]
        before = _counts(owner, files, chunks)
        assert len(files) == 4 and all(before.values())  # three files and the attachment; every table has rows
        return database, owner, carol, alpha, beta, files, chunks, before
    except BaseException:
        owner.close()
        carol.close()
        raise


def _moved_library(pg_server, root: Path, before_move: Callable[[object], None] = lambda raw: None):
    """`_indexed_library`, then `moving/` moved from Alpha's folder into Beta's on disk and carol's next run (after
    `before_move(owner)`). Returns (database, owner's raw connection, moved file ids, their chunk ids, the rows of
    each table before the move)."""
    database, owner, carol, alpha, beta, files, chunks, before = _indexed_library(pg_server, root)
    try:
        before_move(owner)
        (alpha / "moving").rename(beta / "moving")
        report = carol.index()
        assert report.removed == 0  # moved, not read again
        assert [r[0] for r in owner.run("SELECT id FROM files WHERE path LIKE :p ORDER BY id",
                                        p=str(beta / "moving") + "/%")] == files
        return database, owner, files, chunks, before
    except BaseException:
        owner.close()
        raise
    finally:
        carol.close()


def _seen_by(pg_server, database: str, root: Path, user: str) -> tuple[set[str], str]:
    """The paths a search of `user` returns for the moved words, and the text `context` would send; an export of
    each collection `user` sees holds one vector per passage."""
    engine = _engine(pg_server, database, root, user)
    try:
        paths = {Path(h.path).name for h in engine.search(QUESTION, 50)}
        context = "\n".join(p["text"] for p in engine.context(QUESTION)["passages"])
        for collection in engine.collections():
            report = engine.export_collection(collection.id, root / f"{user}-{collection.name}.zip", replace=True)
            assert report.chunks and report.vectors == report.chunks, (user, collection.name)
        return paths, context
    finally:
        engine.close()


def _check_moved(pg_server, database: str, root: Path, files: list[int], chunks: list[int],
                 before: dict[str, int]) -> None:
    """Bob (Beta) sees every row and passage of the moved files; alice (Alpha) none."""
    for user, expected in (("bob", before), ("alice", dict.fromkeys(TABLES, 0))):
        with contextlib.closing(_raw(pg_server, database, user)) as raw:
            assert _counts(raw, files, chunks) == expected, user
    paths, context = _seen_by(pg_server, database, root, "alice")
    assert "stays.txt" in paths and not paths & {"audit.txt", "audit.eml", "invoices.txt", "scan.pdf"}
    assert "zephyrine" not in context and "灯塔基金" not in context
    paths, context = _seen_by(pg_server, database, root, "bob")
    assert {"audit.txt", "invoices.txt"} <= paths and "stays.txt" not in paths
    assert "zephyrine" in context


def test_a_file_moved_into_another_collections_folder_takes_every_row_there(pg_server, tmp_path: Path) -> None:
    database, owner, files, chunks, before = _moved_library(pg_server, tmp_path)
    with contextlib.closing(owner):
        assert _astray(owner) == dict.fromkeys(("chunks", "ocr_lines", "vectors", "staged_vectors"), 0)
    _check_moved(pg_server, database, tmp_path, files, chunks, before)
    carol = _engine(pg_server, database, tmp_path, "carol")
    try:  # a search within one collection follows the move too
        alpha_id, beta_id = carol.collection_id("Alpha"), carol.collection_id("Beta")
        assert "audit.txt" not in {Path(h.path).name for h in carol.search(QUESTION, 50, collection=alpha_id)}
        assert "audit.txt" in {Path(h.path).name for h in carol.search(QUESTION, 50, collection=beta_id)}
    finally:
        carol.close()


def test_a_library_whose_moved_files_kept_their_old_collection_is_repaired_on_upgrade(pg_server,
                                                                                      tmp_path: Path) -> None:
    def as_version_10(owner) -> None:  # the triggers as schema 10 made them
        for table, function in (("sources", "source_moved"), ("files", "file_moved"), ("chunks", "chunk_moved")):
            owner.run(f"CREATE OR REPLACE TRIGGER {table}_moved AFTER UPDATE OF collection_id ON {table} FOR EACH ROW "
                      f"WHEN (OLD.collection_id IS DISTINCT FROM NEW.collection_id) EXECUTE FUNCTION {function}()")

    database, owner, files, chunks, before = _moved_library(pg_server, tmp_path, as_version_10)
    with contextlib.closing(owner):
        assert all(_astray(owner).values())  # the leak as version 10 left it: alice still reads the moved rows
        with contextlib.closing(_raw(pg_server, database, "alice")) as raw:
            assert all(count for table, count in _counts(raw, files, chunks).items() if table != "files")
        owner.run("UPDATE meta SET value = '10' WHERE key = 'schema_version'")
        admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
        try:
            admin.collections()  # (the library opens, and migrates, when first used)
        finally:
            admin.close()
        assert owner.run("SELECT value FROM meta WHERE key = 'schema_version'") == [[str(SCHEMA_VERSION)]]
        assert _astray(owner) == dict.fromkeys(("chunks", "ocr_lines", "vectors", "staged_vectors"), 0)
    _check_moved(pg_server, database, tmp_path, files, chunks, before)



def test_a_vector_stored_by_another_client_while_a_file_moves_takes_the_files_new_collection(pg_server,
                                                                                            tmp_path: Path) -> None:
    """Another client stores a moved file's vector (its embedding queue) while the move's transaction is open, or
    the move comes while that client's transaction is open: either way the vector ends in the file's collection (the
    move waits for the vectors' writers, and they for it)."""
    import threading

    database, owner, files, chunks, _ = _moved_library(pg_server, tmp_path)
    owner.close()
    mover, embedder = pg_server.admin(database), pg_server.admin(database)
    try:
        for connection in (mover, embedder):
            connection.run("SET search_path = desktop_rag, public")
        sources = dict(mover.run("SELECT path, id FROM sources"))
        (first, one), (second, other) = mover.run(
            "SELECT DISTINCT ON (file_id) file_id, id FROM chunks WHERE id = ANY (:c) ORDER BY file_id, id LIMIT 2",
            c=chunks)
        mover.run("DELETE FROM vectors WHERE chunk_id IN (:a, :b)", a=one, b=other)  # the other client embeds them

        def store_vector(chunk: int) -> None:
            embedder.run("INSERT INTO vectors (chunk_id, embedding) SELECT chunk_id, embedding FROM staged_vectors "
                         "WHERE chunk_id = :c", c=chunk)

        def moving(file: int) -> None:
            mover.run("UPDATE files SET source_id = :s WHERE id = :f", s=sources[str(tmp_path / "alpha")], f=file)

        def astray() -> int:
            return mover.run("SELECT count(*) FROM vectors v JOIN chunks c ON c.id = v.chunk_id JOIN files f "
                             "ON f.id = c.file_id WHERE v.collection_id <> f.collection_id")[0][0]

        def meanwhile(holder, first_step: Callable[[], None], second_step: Callable[[], None]) -> None:
            """`first_step` in `holder`'s open transaction, `second_step` on the other connection meanwhile (it
            waits for that transaction: given a second to get there), then the commit."""
            holder.run("BEGIN")
            first_step()
            thread = threading.Thread(target=second_step)
            thread.start()
            thread.join(1.0)
            holder.run("COMMIT")
            thread.join()

        meanwhile(mover, lambda: moving(first), lambda: store_vector(one))  # the move first
        assert astray() == 0
        meanwhile(embedder, lambda: store_vector(other), lambda: moving(second))  # the vector first
        assert astray() == 0
        assert mover.run("SELECT count(*) FROM vectors WHERE chunk_id IN (:a, :b)", a=one, b=other) == [[2]]
    finally:
        mover.close()
        embedder.close()


def _held_first(pg_server, database: str, pause: str, first: Callable[[], object], second: Callable[[], object],
                between: Callable[[], object] = lambda: None) -> tuple[list, list[BaseException]]:
    """`first` and `second` (each in a thread of its own) at once: `first` held by a test trigger (`pause`: when it
    fires, it waits on an advisory lock) until `second`, started once `first` waits there (after `between`), waits
    for a lock too; then both go on. Returns what they returned and what they raised."""
    import threading
    import time

    results: list = []
    failures: list[BaseException] = []
    holder = pg_server.admin(database)

    def started(step: Callable[[], object]) -> threading.Thread:
        def run() -> None:
            try:
                results.append(step())
            except BaseException as exc:  # noqa: BLE001 - the caller asserts
                failures.append(exc)
        thread = threading.Thread(target=run)
        thread.start()
        return thread

    def waiting(condition: str) -> None:
        """Until a session waits on a lock (`condition` on its pg_stat_activity row), 30 s at most."""
        deadline = time.monotonic() + 30
        while not holder.run("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                             f"AND {condition}")[0][0] and time.monotonic() < deadline:
            time.sleep(0.05)

    try:
        holder.run("CREATE FUNCTION desktop_rag.held() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                   "PERFORM pg_advisory_xact_lock(4242); RETURN NULL; END $$")
        holder.run(f"CREATE TRIGGER held {pause.replace(' ON ', ' ON desktop_rag.')} FOR EACH STATEMENT "
                   "EXECUTE FUNCTION desktop_rag.held()")
        holder.run("SELECT pg_advisory_lock(4242)")
        threads = [started(first)]
        waiting("wait_event = 'advisory'")
        between()
        threads.append(started(second))
        waiting("wait_event <> 'advisory'")
        holder.run("SELECT pg_advisory_unlock(4242)")
        for thread in threads:
            thread.join(60)
        return results, failures
    finally:
        holder.close()


@pytest.mark.parametrize("first, pause", [("move", "AFTER UPDATE ON files"), ("delete", "BEFORE DELETE ON chunks")])
def test_a_collection_deleted_while_a_file_moves_out_of_it_loses_nothing(pg_server, tmp_path: Path, first: str,
                                                                        pause: str) -> None:
    """The administrator deletes Alpha while carol's run moves `audit.eml` (a message with an attachment) into
    Beta's folder; `first` is held (a test trigger waits on an advisory lock) between its two steps until the other
    waits for it: the move after its message's row, before its attachment's; the delete after Alpha's files' rows,
    before their chunks and vectors. The delete first: before, the move waited for the deleted row, then moved
    nothing and said it had moved the file, which was lost (and a move that took the vectors' tables first but a
    delete that did not deadlocked: PostgreSQL aborted one). Now both take the vectors' tables first: the second
    waits for the first, and the message ends in Beta, moved (the move first) or read anew (the delete first)."""
    database, owner, carol, alpha, beta, _, _, _ = _indexed_library(pg_server, tmp_path)
    admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
    try:
        alpha_id = admin.collection_id("Alpha")
        (alpha / "moving" / "audit.eml").rename(beta / "audit.eml")
        steps = {"move": carol.index, "delete": lambda: admin.delete_collection(alpha_id)}
        second = steps["delete" if first == "move" else "move"]
        _, failures = _held_first(pg_server, database, pause, steps[first], second)
        assert failures == []
        assert "Alpha" not in {r[0] for r in owner.run("SELECT name FROM collections")}
        moved = owner.run("SELECT k.name FROM files f JOIN collections k ON k.id = f.collection_id "
                          "WHERE f.path LIKE :p", p=str(beta / "audit.eml") + "%")
        assert moved == [["Beta"], ["Beta"]]  # the message and its attachment
        assert _astray(owner) == dict.fromkeys(("chunks", "ocr_lines", "vectors", "staged_vectors"), 0)
    finally:
        owner.close()
        admin.close()
        carol.close()


@pytest.mark.parametrize("first", ["read again", "move"])
def test_a_file_read_again_by_one_process_while_another_of_its_client_moves_it_aborts_neither(pg_server,
                                                                                              tmp_path: Path,
                                                                                              first: str) -> None:
    """Carol's window reads `audit.txt` again (forced) while her command line, the same client (one data folder),
    finds it moved into Beta's folder; `first` is held (a test trigger waits on an advisory lock) after it updated
    the file's row, until the other waits for it. The re-read first: before, the move held the vectors' tables and
    waited for the row, and the re-read then waited for the tables to copy the unchanged passages' vectors:
    PostgreSQL found the deadlock and aborted one (that process's whole run failed as "busy"). Now every write
    of a file's rows takes the tables (ROW EXCLUSIVE) before the row, so the move waits at the tables. The move
    first: the window, finding the file gone from where it was read, moves it too, after it. Both finish, and the
    file ends in Beta with a vector for every passage."""
    database, owner, carol, alpha, beta, _, _, _ = _indexed_library(pg_server, tmp_path)
    window = _engine(pg_server, database, tmp_path, "carol")  # carol's other process: her window
    old, new = alpha / "moving" / "audit.txt", beta / "audit.txt"
    try:
        if first == "move":  # the command line finds it moved; the window, run then, too
            old.rename(new)
            reports, failures = _held_first(pg_server, database, "AFTER UPDATE ON files", carol.index, window.index)
        else:  # the window reads it where it was; it moves before the command line's run
            reports, failures = _held_first(pg_server, database, "AFTER UPDATE ON files",
                                            lambda: window.index(force=[str(old)]), carol.index,
                                            between=lambda: old.rename(new))
        assert failures == [] and [f for report in reports for f in report.failed] == []
        rows = owner.run("SELECT k.name, f.chunk_count, (SELECT count(*) FROM chunks c JOIN vectors v "
                         "ON v.chunk_id = c.id WHERE c.file_id = f.id) FROM files f JOIN collections k "
                         "ON k.id = f.collection_id WHERE f.path = :p", p=str(new))
        assert len(rows) == 1 and rows[0][0] == "Beta" and rows[0][1] > 0 and rows[0][2] == rows[0][1]
        assert owner.run("SELECT count(*) FROM files WHERE path = :p", p=str(old)) == [[0]]
        assert _astray(owner) == dict.fromkeys(("chunks", "ocr_lines", "vectors", "staged_vectors"), 0)
    finally:
        owner.close()
        window.close()
        carol.close()
