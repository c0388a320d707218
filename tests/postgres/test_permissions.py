"""Who sees what: collections are the permission unit of a library on a server, enforced by the server with
row-level security, not by the client. Two real roles on a real PostgreSQL: a passage of a collection not granted
never appears in search, answers, summaries, `context`, export or the MCP tools, and raw SQL as that role cannot
read it either.

The hashing embedder (hash:64): these tests are about which rows a role may see, not about meaning; every
document shares the words asked for, so each one is a candidate for every question.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import ModelMismatchError, UsageError, error_text
from desktop_rag.engine.store.postgres.connection import ServerError
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent
from tests.support.mcp_session import run_mcp

FAST = Settings(embedding_model="hash:64")
SHARED = "Quarterly budget review: travel, hotels and equipment costs for the team, approved in March."


def _write(folder: Path, names: list[str], secret: str) -> Path:
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_text(f"{name}\n\n{SHARED} {secret}\n", "utf-8")
    return folder


def _alice(pg_server, database: str, tmp_path: Path, settings: Settings = FAST) -> Engine:
    """alice's engine on `database` (the role made by `pg_server.role`), in a data folder of her own."""
    return Engine(resolve_paths(tmp_path / "alice"), settings,
                  library=pg_server.url(database, "alice", "alice-password-1"))


def _library_with_home(pg_server, tmp_path: Path, name: str, home: Path | None = None) -> tuple[str, Engine]:
    """A new library: its administrator's engine, "Home" indexed (`home`, else a diary; granted to no one) and an
    empty "Work" granted to alice."""
    database = pg_server.new_database(name)
    pg_server.role("alice", "alice-password-1")
    admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
    home = home or _write(tmp_path / "home", ["diary.txt"], "Home secret H-99.")
    admin.index([home], collection=admin.create_collection("Home"))
    admin.library.grant(admin.create_collection("Work"), "alice")
    return database, admin


def _tea_home(tmp_path: Path) -> Path:
    """A home folder holding one Chinese document."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "茶.txt").write_text("绿茶的水温一般在八十度左右，开水会把茶叶烫坏。", "utf-8")
    return home


@pytest.fixture(scope="module")
def team(pg_server, tmp_path_factory):
    """A library with "Work" (granted to alice) and "Home" (granted to no one): the administrator indexed both."""
    root = tmp_path_factory.mktemp("team")
    work = _write(root / "work", ["plan.txt", "costs.txt"], "Work code W-17.")
    home = _write(root / "home", ["diary.txt", "bank.txt"], "Home secret H-99.")
    database = pg_server.new_database("team")
    pg_server.role("alice", "alice-password-1")
    pg_server.role("bob", "bob-password-22")
    admin = Engine(resolve_paths(root / "admin"), FAST, library=pg_server.url(database))
    admin.index([work], collection=admin.create_collection("Work"))
    admin.index([home], collection=admin.create_collection("Home"))
    admin.library.grant(admin.collection_id("Work"), "alice")
    yield pg_server, database, admin, work, home, root
    admin.close()


def _as(team, user: str, password: str, folder: str) -> Engine:
    pg_server, database, *_rest, root = team
    return Engine(resolve_paths(root / folder), FAST, library=pg_server.url(database, user, password))


def test_a_role_sees_only_its_collections_in_every_path(team):
    _, _, admin, work, home, _ = team
    alice = _as(team, "alice", "alice-password-1", "alice")
    try:
        assert {Path(h.path).parent for h in admin.search("budget travel hotels", 50)} == {work, home}
        hits = alice.search("budget travel hotels", 50)
        assert hits and {Path(h.path).parent for h in hits} == {work}
        events = list(alice.ask("What does the budget review say about hotels?"))
        sources = next(e for e in events if isinstance(e, SourcesEvent)).hits
        answer = next(e for e in events if isinstance(e, DoneEvent)).answer
        assert sources and all(Path(h.path).parent == work for h in sources) and "H-99" not in answer
        context = alice.context("budget hotels secret")
        assert context["passages"] and all("H-99" not in p["text"] for p in context["passages"])
        assert [c.name for c in alice.collections()] == ["Work"]
        with pytest.raises(UsageError):
            alice.collection_id("Home")
        with pytest.raises(UsageError):  # a file of Home is not a file of her library
            list(alice.summarise(home / "diary.txt", extractive=True))
        status = alice.status()
        assert status.files_indexed == 2 and status.sources == (str(work),)
        archive = Path(team[5]) / "alice-work.zip"
        report = alice.export_collection(alice.collection_id("Work"), archive)
        assert report.files == 2
        import zipfile

        with zipfile.ZipFile(archive) as zf:
            assert b"H-99" not in zf.read("chunks.jsonl") and b"W-17" in zf.read("chunks.jsonl")
    finally:
        alice.close()


def test_the_server_enforces_it_not_the_client(team):
    """As alice with a plain SQL client: the rows of Home are not there, whatever the query."""
    pg_server, database, admin, *_ = team
    import pg8000.native

    raw = pg8000.native.Connection("alice", database=database, password="alice-password-1",
                                   unix_sock=str(pg_server.socket_dir / ".s.PGSQL.5432"))
    try:
        raw.run("SET search_path = desktop_rag, public")
        texts = [r[0] for r in raw.run("SELECT text FROM chunks")]
        assert texts and all("W-17" in t for t in texts)
        assert raw.run("SELECT count(*) FROM vectors")[0][0] == len(texts)
        assert [r[0] for r in raw.run("SELECT name FROM collections")] == ["Work"]
        assert raw.run("SELECT count(*) FROM files WHERE path LIKE '%bank.txt'")[0][0] == 0
        with pytest.raises(Exception, match="row-level security|permission denied"):
            raw.run("INSERT INTO sources (path, kind, added_at, collection_id) "
                    "SELECT '/elsewhere', 'folder', 0, id FROM collections WHERE false UNION ALL "
                    "SELECT '/elsewhere', 'folder', 0, :home", home=admin.collection_id("Home"))
    finally:
        raw.close()


def test_a_role_without_grants_sees_nothing_and_cannot_index(team, tmp_path):
    bob = _as(team, "bob", "bob-password-22", "bob")
    try:
        with pytest.raises(ServerError) as raised:
            bob.search("budget", 5)
        assert "bob" in str(raised.value) and "grant" in str(raised.value)
        folder = _write(tmp_path / "bobs", ["note.txt"], "Bob's own.")
        with pytest.raises(ServerError):
            bob.index([folder])
    finally:
        bob.close()


def test_only_the_administrator_grants_and_a_revoke_takes_effect_at_once(team):
    _, _, admin, work, _, _ = team
    alice = _as(team, "alice", "alice-password-1", "alice2")
    try:
        with pytest.raises(ServerError, match="administrator"):
            alice.library.grant(alice.collection_id("Work"), "bob")
        assert alice.search("budget travel", 10)  # (kept in her result cache)
        admin.library.grant(admin.collection_id("Work"), "alice", revoke=True)
        try:
            with pytest.raises(ServerError):
                alice.search("budget travel", 10)  # no cached result: the grant moved the library's version
        finally:
            admin.library.grant(admin.collection_id("Work"), "alice")
        assert alice.search("budget travel", 10)
        assert ("Work", "alice") in admin.library.grants()
    finally:
        alice.close()


def test_the_mcp_tools_of_a_role_see_only_its_collections(team):
    pg_server, database, _, work, _, root = team
    async def calls(session):
        found = await session.call_tool("search", {"query": "budget travel hotels", "k": 20})
        asked = await session.call_tool("ask", {"question": "What is the home secret?"})
        listed = await session.call_tool("list_collections", {})
        return found, asked, listed

    found, asked, listed = run_mcp(root / "mcp", calls,
                                   DESKTOP_RAG_LIBRARY=pg_server.url(database, "alice", "alice-password-1"))
    text = " ".join(c.text for result in (found, asked, listed) for c in result.content)
    assert "W-17" in text and "H-99" not in text and "Home" not in text and "diary" not in text


def test_a_member_may_bring_a_new_librarys_first_vectors(pg_server, tmp_path):
    """The first vectors set the library's dimension: a member granted a collection of a new library may be the
    one who brings them (the table's lock and the administrator's function are within a member's rights)."""
    database = pg_server.new_database("first")
    pg_server.role("alice", "alice-password-1")
    admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
    alice = None
    try:
        admin.library.grant(admin.create_collection("Work"), "alice")
        alice = _alice(pg_server, database, tmp_path)
        report = alice.index([_write(tmp_path / "work", ["plan.txt"], "Work code W-17.")],
                             collection=alice.collection_id("Work"))
        assert report.added == 1 and not report.failed and report.embedded == 1
        assert [Path(h.path).name for h in alice.search("Work code W-17", 3)] == ["plan.txt"]
    finally:
        if alice is not None:
            alice.close()
        admin.close()


def test_a_path_in_a_collection_not_granted_is_refused_by_name_and_the_run_goes_on(pg_server, tmp_path):
    """Paths are unique across the library, so a member may come upon a file or folder of a collection it may not
    see: adding that folder is refused with a reason, and such a file inside a folder of its own (a source another
    client of an earlier version added there, or one added between the two checks) fails alone: the other files are
    indexed, never a crash of the whole run."""
    database = pg_server.new_database("hidden")
    pg_server.role("alice", "alice-password-1")
    home = _write(tmp_path / "home", ["diary.txt"], "Home secret H-99.")
    mixed = _write(tmp_path / "mixed", ["bank.txt", "plan.txt"], "Mixed.")
    admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
    alice = None
    try:
        admin.index([home, mixed / "bank.txt"], collection=admin.create_collection("Home"))
        admin.library.grant(admin.create_collection("Work"), "alice")
        alice = _alice(pg_server, database, tmp_path)
        work = alice.collection_id("Work")
        for path in (home, mixed):
            with pytest.raises(UsageError, match="may not see"):
                alice.index([path], collection=work)
        alice.store.add_source(str(mixed), "folder", work)  # as a client of an earlier version added it
        report = alice.index([mixed], collection=work)
        assert report.added == 1 and [(f.path, f.error.code) for f in report.failed] == [
            (str(mixed / "bank.txt"), "file_not_granted")]
        assert [Path(h.path).name for h in alice.search("Mixed", 5)] == ["plan.txt"]
        assert [f.path for f in admin.store.files() if f.path.endswith("bank.txt")] == [str(mixed / "bank.txt")]
    finally:
        if alice is not None:
            alice.close()
        admin.close()


def test_a_folder_holding_or_inside_a_source_not_granted_is_refused_without_naming_it(pg_server, tmp_path):
    """Row-level security hides another collection's sources from a member's own overlap check, so adding a folder
    that holds one (or lies inside one) made a second source over the same files: its files failed as "not granted"
    and a new file there went into the member's collection. The administrator's function answers yes or no only:
    the member is told, never which collection or source; a sibling whose name merely starts alike is no overlap."""
    from desktop_rag.engine.store.postgres.schema import HIDDEN_OVERLAP, HIDDEN_OVERLAP_ARGUMENTS

    outer = tmp_path / "outer"
    home = _write(outer / "home", ["diary.txt"], "Home secret H-99.")
    _write(home / "sub", ["note.txt"], "Home secret H-98.")
    siblings = [_write(outer / "home2", ["mine.txt"], "Alice's own."), _write(outer / "hom", ["a.txt"], "Own.")]
    database, admin = _library_with_home(pg_server, tmp_path, "overlap", home)
    pg_server.role("bob", "bob-password-22")
    alice = _alice(pg_server, database, tmp_path)
    try:
        work = alice.collection_id("Work")
        for path in (outer, home / "sub", home / "sub" / "note.txt"):
            with pytest.raises(UsageError, match="may not see") as refused:
                alice.index([path], collection=work)
            assert "Home" not in str(refused.value) and str(home) not in str(refused.value).replace(str(path), "")
        far = str(tmp_path / "elsewhere")  # a source imported without its documents, linked to a folder here
        alice.store.add_source(far, "folder", work, detached=True)
        with pytest.raises(UsageError, match="may not see"):
            alice.relink_source(far, outer, work)
        assert alice.remove_source(far, work)
        error = UsageError.coded("source_not_granted", path=str(outer))
        assert "知识库" in error_text(error, "zh") and str(outer) in error_text(error, "zh")
        assert alice.store.sources() == []
        assert alice.index(siblings, collection=work).added == 2
        assert sorted(s.path for s in admin.store.sources()) == sorted(map(str, [home, *siblings]))
        with pytest.raises(UsageError, match="Home"):  # the administrator sees the collection, and is told its name
            admin.index([home / "sub"], collection=work)
        raw = pg_server.admin(database)
        try:
            function = f"desktop_rag.{HIDDEN_OVERLAP}({HIDDEN_OVERLAP_ARGUMENTS})"
            assert raw.run(f"SELECT has_function_privilege('alice', '{function}', 'EXECUTE'), "
                           f"has_function_privilege('bob', '{function}', 'EXECUTE')") == [[True, False]]
            alice.close()
            admin.close()
            raw.run(f"DROP FUNCTION {function}")  # a library of version 12: the administrator's open upgrades it
            raw.run("UPDATE desktop_rag.meta SET value = '12' WHERE key = 'schema_version'")
            admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
            assert admin.collections()
            alice = _alice(pg_server, database, tmp_path)
            with pytest.raises(UsageError, match="may not see"):
                alice.index([outer], collection=work)
        finally:
            raw.close()
    finally:
        alice.close()
        admin.close()


def test_the_administrators_check_names_sources_of_two_collections_that_overlap(pg_server, tmp_path, monkeypatch):
    """Sources a member added over another collection's before schema 13 stay as they are: the administrator's
    "Test connection" names each pair with both collections and what to do, in English and Chinese; a member's
    check says nothing of them, nor does a sibling whose name merely starts alike."""
    from desktop_rag.engine.store.postgres import check

    outer = tmp_path / "outer"
    home = _write(outer / "home", ["diary.txt"], "Home secret H-99.")
    note = _write(home / "sub", ["note.txt"], "Home secret H-98.") / "note.txt"
    sibling = _write(outer / "home2", ["mine.txt"], "Alice's own.")
    database, admin = _library_with_home(pg_server, tmp_path, "pairs", home)
    alice = _alice(pg_server, database, tmp_path)
    try:
        work = alice.collection_id("Work")
        for path, kind in ((outer, "folder"), (note, "file"), (sibling, "folder")):  # as an earlier version did
            alice.store.add_source(str(path), kind, work)
        found = check.check_server(pg_server.url(database))
        assert found.ok and found.overlap_count == 2 and found.overlaps == (
            check.Overlap(str(outer), "Work", str(home), "Home"), check.Overlap(str(home), "Home", str(note), "Work"))
        english, chinese = found.lines("en")[-2:], found.lines("zh")[-2:]
        assert f"“{home}” (collection “Home”) lies inside “{outer}” (collection “Work”)" in english[0]
        assert "desktop-rag remove PATH --collection NAME" in english[0] and f"“{note}”" in english[1]
        assert f"“{home}”（知识库“Home”）位于“{outer}”（知识库“Work”）之中" in chinese[0] and "移除" in chinese[0]
        member = check.check_server(pg_server.url(database, "alice", "alice-password-1"))
        assert member.ok and member.overlaps == () and not any(str(home) in line for line in member.lines())
        monkeypatch.setattr(check, "SHOWN_OVERLAPS", 1)
        shown = check.check_server(pg_server.url(database))
        assert len(shown.overlaps) == 1 and shown.overlap_count == 2
        assert shown.lines("en")[-1] == "… and 1 more such pair(s) of sources."
        assert shown.lines("zh")[-1] == "……另有 1 对这样的来源。"
    finally:
        alice.close()
        admin.close()


def test_a_member_with_another_model_set_leaves_the_librarys_model_alone(pg_server, tmp_path):
    """The library's model is its administrator's to switch: a member whose settings ask for another model indexes
    with the library's own (a member's switch re-embedded only its own collections and swapped them in, under the
    new model's name, beside the other collections' vectors of the old one)."""
    database, admin = _library_with_home(pg_server, tmp_path, "model")
    alice = None
    try:
        alice = _alice(pg_server, database, tmp_path, Settings(embedding_model="hash:32"))
        report = alice.index([_write(tmp_path / "work", ["plan.txt"], "Work code W-17.")],
                             collection=alice.collection_id("Work"))
        assert report.added == 1 and report.embedded == 1 and not report.failed and report.reembed_remaining == 0
        assert alice.reembed_plan() is None
        store = admin.store
        assert (store.get_meta("embedding_model"), store.get_meta("staged_model")) == ("hash:64", None)
        assert [Path(h.path).name for h in alice.search("Work code W-17", 3)] == ["plan.txt"]
        assert {Path(h.path).name for h in admin.search("secret code", 5)} == {"plan.txt", "diary.txt"}
    finally:
        if alice is not None:
            alice.close()
        admin.close()



def test_the_administrator_is_not_granted_a_collection_and_a_revoke_keeps_its_privileges(team):
    """The administrator sees every collection: a grant to it is refused by name, and a revoke (of a grant an older
    version made) takes the grant alone, never the table privileges a member's last revoke takes (the owner's own:
    a non-superuser owner lost the use of its own schema mid-revoke)."""
    pg_server, database, admin, *_ = team
    work = admin.collection_id("Work")
    with pytest.raises(ServerError, match="administers this library"):
        admin.library.grant(work, "postgres")
    raw = pg_server.admin(database)
    try:
        raw.run("INSERT INTO desktop_rag.collection_grants VALUES (:work, 'postgres')", work=work)
        assert admin.library.grant(work, "postgres", revoke=True)
        assert raw.run("SELECT has_table_privilege('postgres', 'desktop_rag.chunks', 'SELECT'), "
                       "has_schema_privilege('postgres', 'desktop_rag', 'USAGE')") == [[True, True]]
        assert raw.run("SELECT array_to_string(relacl, ',') FROM pg_class WHERE oid = 'desktop_rag.chunks'::regclass"
                       )[0][0].startswith("postgres=arwd")
    finally:
        raw.close()
    assert ("Work", "postgres") not in admin.library.grants()
    assert admin.search("budget travel", 10)


def test_a_member_with_other_chunking_settings_leaves_the_library_as_it_is(pg_server, tmp_path):
    """A member whose own collections are still empty sees no chunks, yet the library holds the others': its
    other chunking settings are refused (they were recorded over the library's, and the administrator's next run
    was told to re-index everything), and only the administrator re-indexes the whole library."""
    database, admin = _library_with_home(pg_server, tmp_path, "chunking")
    alice = None
    try:
        alice = _alice(pg_server, database, tmp_path, Settings(embedding_model="hash:64", chunk_size=300))
        work = _write(tmp_path / "work", ["plan.txt"], "Work code W-17.")
        with pytest.raises(ModelMismatchError) as raised:
            alice.index([work], collection=alice.collection_id("Work"))
        assert raised.value.code == "chunked_with_shared"
        with pytest.raises(UsageError, match="administrator"):
            alice.reindex()
        assert admin.store.get_meta("chunk_size") == str(FAST.chunk_size)
        report = admin.index()
        assert report.unchanged == 1 and not report.failed
        alice.close()
        alice = _alice(pg_server, database, tmp_path)
        assert alice.index([work], collection=alice.collection_id("Work")).added == 1
    finally:
        if alice is not None:
            alice.close()
        admin.close()


def test_a_member_making_renaming_or_deleting_a_collection_is_told_only_the_administrator_may(team, tmp_path):
    """Not "ask the administrator to grant you a collection" (the server's refusal of the table), which a member
    that has one cannot act on; nor, for a name taken by a collection it may not see, the server's raw conflict."""
    _, _, admin, *_ = team
    alice = _as(team, "alice", "alice-password-1", "alice3")
    try:
        work = alice.collection_id("Work")
        archive = tmp_path / "notes.zip"
        local = Engine(resolve_paths(tmp_path / "local"), FAST)
        try:
            local.index([_write(tmp_path / "notes", ["note.txt"], "A note.")])
            local.export_collection(local.collection_id("Default"), archive)
        finally:
            local.close()
        for attempt in (lambda: alice.create_collection("Mine"), lambda: alice.create_collection("Home"),
                        lambda: alice.rename_collection(work, "Work 2"), lambda: alice.delete_collection(work),
                        lambda: alice.import_archive(archive, name="Copy")):
            with pytest.raises(UsageError) as raised:
                attempt()
            assert raised.value.code == "server_not_administrator"
        assert [c.name for c in alice.collections()] == ["Work"] and alice.search("budget travel", 10)
    finally:
        alice.close()


def test_a_members_conversation_asks_in_all_once_its_collection_is_deleted(pg_server, tmp_path):
    """The administrator's delete clears only the administrator's own conversations (each role sees its own): a
    member's conversation still named the deleted collection, so reopened it asked there and found nothing."""
    database, admin = _library_with_home(pg_server, tmp_path, "gone")
    alice = None
    try:
        admin.library.grant(admin.collection_id("Home"), "alice")
        alice = _alice(pg_server, database, tmp_path)
        work = alice.collection_id("Work")
        conversation = alice.new_conversation("work", work)
        assert alice.conversation_collection(conversation) == work
        admin.delete_collection(work)
        assert alice.conversation_collection(conversation) is None
        events = list(alice.ask("What is the home secret?", conversation))
        assert next(e for e in events if isinstance(e, SourcesEvent)).hits  # asked in all: "Home" answers
    finally:
        if alice is not None:
            alice.close()
        admin.close()


def test_a_member_whose_last_collection_is_taken_back_mid_run_is_told_so(pg_server, tmp_path):
    """The administrator takes back a member's last collection (and with it the use of the library's schema) while
    the member's client indexes, then searches: both are told their access was taken back, in the user's language,
    not the server's "relation does not exist"; what was indexed before stays whole. A table that is really missing
    is still the server's own refusal: the message comes from the role's rights on the schema, not the error code."""
    database = pg_server.new_database("revoked")
    pg_server.role("alice", "alice-password-1")
    admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
    alice = None
    try:
        work = admin.create_collection("Work")
        admin.library.grant(work, "alice")
        alice = _alice(pg_server, database, tmp_path)
        with pytest.raises(ServerError) as raised:
            alice.store.db.execute("SELECT * FROM no_such_table")
        assert raised.value.code == "server_failed" and "42P01" in str(raised.value)

        def revoke_after_the_first(event) -> None:
            if event.state == "indexed" and ("Work", "alice") in admin.library.grants():
                admin.library.grant(work, "alice", revoke=True)

        folder = _write(tmp_path / "work", ["a.txt", "b.txt", "c.txt"], "Work code W-17.")
        with pytest.raises(ServerError) as raised:
            alice.index([folder], collection=work, on_file=revoke_after_the_first)
        assert raised.value.code == "server_access_revoked" and "alice" in str(raised.value)
        assert "42P01" not in str(raised.value) and "管理员" in error_text(raised.value, "zh")
        with pytest.raises(ServerError) as raised:
            alice.search("Work code", 5)
        assert raised.value.code == "server_access_revoked"
        assert [f.path for f in admin.store.files()] == [str(folder / "a.txt")]
    finally:
        if alice is not None:
            alice.close()
        admin.close()


def test_the_librarys_settings_and_client_rows_are_the_administrators(pg_server, tmp_path):
    """As a member with plain SQL: changing the schema version or the model, renaming or deleting a setting and
    writing `clients` are refused by the server (a member could lock every client out, the administrator too), while
    the administrator still may. The member's own runs still work: the library's first vectors, its settings written
    again unchanged, its skipped counts; a member whose settings would change the library's is told they are the
    administrator's, not the server's raw refusal."""
    import pg8000.native

    database = pg_server.new_database("settings")
    pg_server.role("alice", "alice-password-1")
    admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
    alice = None
    try:
        admin.library.grant(admin.create_collection("Work"), "alice")
        admin.index()  # the chunking settings recorded, no chunks yet
        member_url = pg_server.url(database, "alice", "alice-password-1")
        alice = Engine(resolve_paths(tmp_path / "alice"), Settings(embedding_model="hash:64", chunk_size=300),
                       library=member_url)
        work = _write(tmp_path / "work", ["plan.txt"], "Work code W-17.")
        (work / "slides.key").write_bytes(b"not supported")
        with pytest.raises(ServerError) as raised:
            alice.index([work], collection=alice.collection_id("Work"))
        assert raised.value.code == "server_setting_administrators" and "chunk_size" in str(raised.value)
        assert "42501" not in str(raised.value) and "管理员" in error_text(raised.value, "zh")
        alice.close()
        alice = Engine(resolve_paths(tmp_path / "alice"), FAST, library=member_url)
        report = alice.index([work], collection=alice.collection_id("Work"))  # the library's first vectors
        assert report.added == 1 and not report.failed and report.embedded == 1
        (work / "more.txt").write_text("More work, code W-18.\n", "utf-8")
        assert alice.index(collection=alice.collection_id("Work")).added == 1  # its settings written unchanged
        assert alice.status().skipped and [Path(h.path).name for h in alice.search("W-18", 1)] == ["more.txt"]

        raw = pg8000.native.Connection("alice", database=database, password="alice-password-1",
                                       unix_sock=str(pg_server.socket_dir / ".s.PGSQL.5432"))
        try:
            raw.run("SET search_path = desktop_rag, public")
            settings = dict(raw.run("SELECT key, value FROM meta"))
            assert settings["schema_version"] and settings["embedding_model"] == "hash:64"
            for statement in ("UPDATE meta SET value = '999' WHERE key = 'schema_version'",
                              "UPDATE meta SET value = 'other' WHERE key = 'embedding_model'",
                              "INSERT INTO meta VALUES ('dimension', '8') ON CONFLICT (key) "
                              "DO UPDATE SET value = excluded.value",
                              "UPDATE meta SET key = 'skipped.0' WHERE key = 'chunk_size'",
                              "DELETE FROM meta WHERE key = 'chunk_overlap'", "DELETE FROM meta",
                              "INSERT INTO clients VALUES ('x', 'x', 'postgres', 0)",
                              "UPDATE clients SET role = 'postgres'", "DELETE FROM clients"):
                with pytest.raises(Exception, match="administrator|permission denied"):
                    raw.run(statement)
            assert dict(raw.run("SELECT key, value FROM meta")) == settings
        finally:
            raw.close()
        with pytest.raises(ServerError) as raised:
            alice.store.db.execute("UPDATE meta SET value = 'other' WHERE key = 'embedding_model'")
        assert raised.value.code == "server_setting_administrators" and "embedding_model" in str(raised.value)

        admin.store.set_meta("chunk_overlap", "7")  # the administrator still may
        admin.store.delete_meta("chunk_overlap")
        admin.store.set_meta("chunk_overlap", settings["chunk_overlap"])
        admin.store.db.execute("INSERT INTO clients VALUES ('x', 'x', 'alice', 0)")
        assert admin.store.db.execute("DELETE FROM clients WHERE id = 'x'").rowcount == 1
        admin.close()  # a library of version 1, whose members could write `clients`: the administrator's open upgrades it
        raw = pg_server.admin(database)
        try:
            raw.run("GRANT INSERT, UPDATE, DELETE ON desktop_rag.clients TO alice")
            raw.run("UPDATE desktop_rag.meta SET value = '1' WHERE key = 'schema_version'")
            admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
            assert admin.collections() and raw.run("SELECT has_table_privilege('alice', 'desktop_rag.clients', "
                                                   "'INSERT, UPDATE, DELETE'), has_table_privilege('alice', "
                                                   "'desktop_rag.clients', 'SELECT')") == [[False, True]]
        finally:
            raw.close()
    finally:
        if alice is not None:
            alice.close()
        admin.close()


def test_a_member_does_not_record_the_librarys_languages_from_its_own_collections(pg_server, tmp_path):
    """A library whose language flags are not known yet is scanned when asked: a member sees only its collections, so
    it may find no Chinese where another collection holds it. It must not remember "no Chinese" for everyone (the
    administrator's search would then lose its Chinese handling until new Chinese text came)."""
    from desktop_rag.engine.store.languages import library_has_cjk

    database, admin = _library_with_home(pg_server, tmp_path, "languages", _tea_home(tmp_path))
    alice = None
    try:
        admin.index([_write(tmp_path / "work", ["plan.txt"], "Work code W-17.")], collection=admin.collection_id("Work"))
        admin.store.delete_meta("has_cjk")  # not known yet (as in a library whose flags were reset)
        alice = _alice(pg_server, database, tmp_path)
        assert not library_has_cjk(alice.store)  # what it can see holds none
        assert admin.store.get_meta("has_cjk") != "0"
        assert library_has_cjk(admin.store) and admin.store.get_meta("has_cjk") == "1"
    finally:
        if alice is not None:
            alice.close()
        admin.close()


def test_a_member_may_turn_a_language_on_never_off_and_writes_only_its_own_sources_skipped_counts(pg_server, tmp_path):
    """As a member with plain SQL on the library's settings. A language flag it may turn on (as indexing text of
    that language does) or forget (scanned again when asked), never turn off, nor add as "none": "no Chinese" would
    move the administrator's "auto" library to the English-only model, re-embedding every collection, and end
    everyone's cross-language search. Skipped counts it reads and writes for the sources it sees, never another
    collection's (the administrator's status would hide or invent files there; and they say what that collection
    holds)."""
    import pg8000.native

    from desktop_rag.engine.store.languages import library_has_cjk

    home = _tea_home(tmp_path)
    (home / "photos.key").write_bytes(b"not supported")
    database, admin = _library_with_home(pg_server, tmp_path, "flags", home)
    alice = None
    try:
        alice = _alice(pg_server, database, tmp_path)
        work = _write(tmp_path / "work", ["plan.txt"], "Work code W-17.")
        (work / "slides.key").write_bytes(b"not supported")
        assert alice.index([work], collection=alice.collection_id("Work")).added == 1  # its app's writes still pass
        home_key = f"skipped.{admin.store.source_by_path(str(home)).id}"
        work_key = f"skipped.{alice.store.source_by_path(str(work)).id}"
        before = dict(admin.store.db.execute("SELECT key, value FROM meta").fetchall())
        assert before["has_cjk"] == "1" and home_key in before and work_key in before

        raw = pg8000.native.Connection("alice", database=database, password="alice-password-1",
                                       unix_sock=str(pg_server.socket_dir / ".s.PGSQL.5432"))
        try:
            raw.run("SET search_path = desktop_rag, public")
            for statement in ("UPDATE meta SET value = '0' WHERE key = 'has_cjk'",
                              "INSERT INTO meta VALUES ('has_cjk', '0') ON CONFLICT (key) "
                              "DO UPDATE SET value = excluded.value",
                              f"INSERT INTO meta VALUES ('{home_key}', '{{}}')",
                              "INSERT INTO meta VALUES ('skipped.999999', '{\".exe\": 5000}')"):
                with pytest.raises(Exception, match="administrator"):
                    raw.run(statement)
            seen = {key: value for key, value in before.items() if key != home_key}  # another collection's: unseen
            assert dict(raw.run("SELECT key, value FROM meta")) == seen
            raw.run(f"UPDATE meta SET value = '{{}}' WHERE key = '{home_key}'")  # unseen, so untouched
            raw.run(f"DELETE FROM meta WHERE key = '{home_key}'")
            assert dict(raw.run("SELECT key, value FROM meta")) == seen
            raw.run("DELETE FROM meta WHERE key = 'has_cjk'")  # forgotten: scanned again when asked
            with pytest.raises(Exception, match="administrator"):
                raw.run("INSERT INTO meta VALUES ('has_cjk', '0')")
            raw.run("INSERT INTO meta VALUES ('has_cjk', '1')")
            raw.run(f"UPDATE meta SET value = '{{\".key\": 2}}' WHERE key = '{work_key}'")  # its own source's
        finally:
            raw.close()
        assert library_has_cjk(admin.store) and admin.status().skipped == ((".key", 1),)
        assert admin.store.get_meta(home_key) == '{".key": 1}'
        assert alice.status().skipped == ((".key", 2),)
    finally:
        if alice is not None:
            alice.close()
        admin.close()


def test_a_member_cannot_run_the_administrators_trigger_functions_from_a_table_of_its_own(pg_server, tmp_path):
    """A trigger function that runs as the administrator (SECURITY DEFINER: it writes the administrator's rows) is
    the schema's triggers' only: a member may make a temporary table of its own, but not hang such a function on it
    to forget which of other people's turns keep which chunks (`kept_chunks_noted`), drop their stored answers
    (`chunk_gone`) or skew the keyword totals (`chunks_added`)."""
    database = pg_server.new_database("definers")
    pg_server.role("alice", "alice-password-1")
    admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
    admin.library.grant(admin.create_collection("Work"), "alice")
    alice = _alice(pg_server, database, tmp_path)
    raw = pg_server.admin(database)
    try:
        raw.run("INSERT INTO desktop_rag.kept_chunks VALUES (7, 'messages', 42)")  # someone's turn keeping chunk 7
        definers = dict(raw.run("SELECT p.proname, has_function_privilege('alice', p.oid, 'EXECUTE') FROM pg_proc p "
                                "WHERE p.pronamespace = 'desktop_rag'::regnamespace AND p.prosecdef "
                                "AND p.prorettype = 'trigger'::regtype"))
        assert {"kept_chunks_noted", "chunk_gone", "chunks_added"} <= definers.keys()
        assert [name for name, may in definers.items() if may] == []
        db = alice.store.db
        db.execute("CREATE TEMP TABLE mine (id bigint, sources_json text)")  # (every role may make one)
        with pytest.raises(ServerError, match="permission denied"):
            db.execute("CREATE TRIGGER mine_kept AFTER DELETE ON mine FOR EACH ROW "
                       "EXECUTE FUNCTION desktop_rag.kept_chunks_noted('messages', 'sources_json')")
        db.execute("INSERT INTO mine VALUES (42, '[]')")
        db.execute("DELETE FROM mine")
        assert raw.run("SELECT chunk_id, kind, row_id FROM desktop_rag.kept_chunks") == [[7, "messages", 42]]
    finally:
        raw.close()
        alice.close()
        admin.close()


def _grants_seen_by(member: Engine) -> tuple[list, list]:
    """What `member` learns of the grants: its `visible_collections()` and the `visible_grants` it may read."""
    db = member.store.db
    return (db.execute("SELECT desktop_rag.visible_collections()").fetchone()[0],
            [r[0] for r in db.execute("SELECT collection_id FROM desktop_rag.visible_grants ORDER BY 1")])


def test_a_member_learns_only_its_own_roles_collections_also_after_the_upgrade_from_version_11(pg_server, tmp_path):
    """`visible_collections` answers for the calling role only: before version 12 it took any role's name and ran
    as the administrator, so a member could list another role's collection ids."""
    from desktop_rag.engine.store.postgres.schema import CONTENT_TABLES

    database, admin = _library_with_home(pg_server, tmp_path, "visible")
    pg_server.role("bob", "bob-password-22")
    work, home = admin.collection_id("Work"), admin.collection_id("Home")
    admin.library.grant(home, "bob")
    admin.close()
    raw = pg_server.admin(database)
    try:
        alice = _alice(pg_server, database, tmp_path)
        try:
            with pytest.raises(ServerError, match="does not exist"):  # no other role's name is asked about
                alice.store.db.execute("SELECT desktop_rag.visible_collections('bob')")
            assert _grants_seen_by(alice) == ([work], [work])
        finally:
            alice.close()
        # a library of version 11: the function of a name, as the administrator; the policies calling it
        raw.run("DROP FUNCTION desktop_rag.visible_collections() CASCADE")
        raw.run("DROP VIEW desktop_rag.visible_grants")
        raw.run("CREATE FUNCTION desktop_rag.visible_collections(who name) RETURNS bigint[] LANGUAGE sql STABLE "
                "SECURITY DEFINER SET search_path = desktop_rag, pg_catalog AS $$ SELECT coalesce(array_agg(DISTINCT "
                "g.collection_id), '{}') FROM collection_grants g JOIN pg_roles r ON r.rolname = g.role "
                "WHERE pg_has_role(who, r.oid, 'MEMBER') $$")
        for table in ("collections", *CONTENT_TABLES):
            column = "id" if table == "collections" else "collection_id"
            raw.run(f"CREATE POLICY granted ON desktop_rag.{table} USING ({column} = ANY "
                    "((SELECT desktop_rag.visible_collections(current_user))::bigint[]))")
        raw.run("UPDATE desktop_rag.meta SET value = '11' WHERE key = 'schema_version'")
        upgrading = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
        try:
            assert upgrading.collections()  # (its first read opens, and so upgrades, the library)
        finally:
            upgrading.close()
        assert raw.run("SELECT count(*) FROM pg_proc WHERE proname = 'visible_collections'") == [[1]]
        alice = _alice(pg_server, database, tmp_path)
        try:
            assert _grants_seen_by(alice) == ([work], [work])
            assert [name for _, name in alice.collection_names()] == ["Work"]
            assert alice.search("Home secret H-99", k=5) == []
            with pytest.raises(ServerError, match="does not exist"):
                alice.store.db.execute("SELECT desktop_rag.visible_collections('bob')")
        finally:
            alice.close()
    finally:
        raw.close()
