"""Marks on an edited file's unchanged passages follow them to their new chunk ids on a library on a server as on
this computer's (store/carried_references.py; tests/engine/test_carried_references.py): the same edit, a real
PostgreSQL server with pgvector, no stand-in."""

from __future__ import annotations

import json

import pytest

from desktop_rag.config import resolve_paths
from desktop_rag.engine.engine import Engine
from tests.support.carried_marks import (HASHED, a_gone_passage_is_not_marked,
                                         answer_saved_after_an_edit_names_its_passages_now, marked_right_stays_first,
                                         marked_wrong_stays_out, summary_sections_follow_an_edit)


@pytest.mark.parametrize("scenario", [marked_wrong_stays_out, marked_right_stays_first, a_gone_passage_is_not_marked,
                                      answer_saved_after_an_edit_names_its_passages_now,
                                      summary_sections_follow_an_edit])
def test_marks_follow_the_unchanged_passages_of_an_edited_file(pg_library, tmp_path, scenario):
    engine = Engine(resolve_paths(tmp_path / "home"), HASHED, library=pg_library)
    try:
        scenario(engine, tmp_path / "docs")
    finally:
        engine.close()


def test_every_persons_marks_follow_and_the_function_moves_only_a_re_read(pg_server, tmp_path):
    """bob marks passages of a file alice indexed; alice edits another paragraph and indexes again: bob's marks
    follow (the carry runs for every person's rows, `carry_chunk_references`); bob cannot use that function to move
    anyone's marks between chunks of a file not read again in his transaction."""
    from desktop_rag.engine.store.postgres.connection import ServerError
    from desktop_rag.engine.store.postgres.schema import CARRY, CARRY_ARGUMENTS
    from tests.support.carried_marks import NEWCOMERS, PASSWORDS, ask, edit, index, passage

    database = pg_server.new_database("carry")
    pg_server.role("alice", "alice-password-1")
    pg_server.role("bob", "bob-password-22")
    admin = Engine(resolve_paths(tmp_path / "admin"), HASHED, library=pg_server.url(database))
    work = admin.create_collection("Work")
    admin.library.grant(work, "alice")
    admin.library.grant(work, "bob")
    alice = Engine(resolve_paths(tmp_path / "alice"), HASHED,
                   library=pg_server.url(database, "alice", "alice-password-1"))
    bob = Engine(resolve_paths(tmp_path / "bob"), HASHED, library=pg_server.url(database, "bob", "bob-password-22"))
    try:
        folder = tmp_path / "docs"
        folder.mkdir()
        doc = folder / "notes.md"
        from tests.support.kept_vectors import PARAGRAPHS, write

        write(doc, PARAGRAPHS)
        assert alice.index([folder], collection=work).added == 1
        given, done = ask(bob)
        first, then = done.answer_id, passage(bob, PASSWORDS)
        logged = "SELECT passages_json FROM answer_log WHERE id = ?"
        kept_then = [p for p in json.loads(bob.store.db.execute(logged, (first,)).fetchone()[0])
                     if p["chunk_id"] == then.chunk_id]
        assert PASSWORDS in given[0].text and NEWCOMERS not in given[0].text
        bob.review.mark_passage(done.answer_id, given[0].chunk_id, right=False)
        bob.review.mark_passage(done.answer_id, passage(bob, NEWCOMERS).chunk_id, right=True)
        given, done = ask(bob)
        assert NEWCOMERS in given[0].text and all(PASSWORDS not in h.text for h in given)
        edit(alice, doc)
        given, done = ask(bob)
        assert NEWCOMERS in given[0].text, [h.text[:30] for h in given]
        assert all(PASSWORDS not in h.text for h in given + list(done.cited))
        kept = json.loads(bob.store.db.execute(logged, (first,)).fetchone()[0])
        now = passage(bob, PASSWORDS)  # the passage his first answer was given follows too (the review log's copy)
        shift = now.char_start - then.char_start
        assert [(p["chunk_id"], p["char_start"]) for p in kept if p["chunk_id"] == now.chunk_id] == [
            (now.chunk_id, p["char_start"] + shift) for p in kept_then]

        marks = ("SELECT owner, answer_id, chunk_id, char_start, char_end FROM desktop_rag.answer_marks_all "
                 "ORDER BY 1, 2, 3")
        raw = pg_server.admin(database)
        try:
            before = raw.run(marks)
            file_id = raw.run("SELECT id FROM desktop_rag.files WHERE path LIKE '%notes.md'")[0][0]
        finally:
            raw.close()
        wrong, right = passage(bob, PASSWORDS).chunk_id, passage(bob, NEWCOMERS).chunk_id
        call = f"SELECT {CARRY}(?, ?::bigint[], ?::bigint[])"
        db = bob.store.db
        with pytest.raises(ServerError, match="permission denied"):  # which rows keep what: the administrator's
            db.execute("SELECT chunk_id FROM kept_chunks")
        with pytest.raises(ServerError, match="read again"):  # two chunks of a file not read again
            db.execute(call, (file_id, [wrong], [right]))
        db.execute("BEGIN")
        try:  # a chunk of his own in the file, in his transaction, but not a copy of the one it would replace
            added = db.execute("INSERT INTO chunks (id, file_id, ordinal, text, heading, char_start, char_end) "
                               "VALUES (nextval('chunk_ids'), ?, 999, 'Another text.', '', 0, 13) RETURNING id",
                               (file_id,)).fetchone()[0]
            with pytest.raises(ServerError, match="read again"):
                db.execute(call, (file_id, [right], [added]))
        finally:
            db.execute("ROLLBACK")
        raw = pg_server.admin(database)
        try:
            assert raw.run(marks) == before
            # a library of version 4 (no such function): the administrator's open upgrades it and bob may run it
            noted = "SELECT kind, row_id, chunk_id FROM desktop_rag.kept_chunks ORDER BY 1, 2, 3"
            kept_rows = raw.run(noted)
            assert {kind for kind, *_ in kept_rows} == {"answer_log"}  # (his answers, asked outside a conversation)
            raw.run(f"DROP FUNCTION desktop_rag.{CARRY}({CARRY_ARGUMENTS})")
            raw.run(f"CREATE FUNCTION desktop_rag.{CARRY}(bigint, bigint[], bigint[], bigint[], integer[], integer[], "
                    "integer[], integer[], integer[]) RETURNS void LANGUAGE sql AS ''")  # as versions 5-9 had it
            raw.run("DELETE FROM desktop_rag.kept_chunks")  # (a library before 10: its rows noted at the upgrade)
            raw.run("UPDATE desktop_rag.meta SET value = '4' WHERE key = 'schema_version'")
            admin.close()
            admin = Engine(resolve_paths(tmp_path / "admin"), HASHED, library=pg_server.url(database))
            assert admin.collections() and raw.run(
                f"SELECT has_function_privilege('bob', 'desktop_rag.{CARRY}({CARRY_ARGUMENTS})', 'EXECUTE'), "
                f"has_function_privilege('public', 'desktop_rag.{CARRY}({CARRY_ARGUMENTS})', 'EXECUTE')") \
                == [[True, False]]
            assert raw.run(noted) == kept_rows
            assert raw.run(f"SELECT count(*) FROM pg_proc WHERE proname = '{CARRY}'") == [[1]]  # the old one went
        finally:
            raw.close()
    finally:
        bob.close()
        alice.close()
        admin.close()


def _kept_passages_after_an_edit(writer: Engine, reader: Engine, folder, note=None) -> list[list]:
    """`reader` keeps turns with passages of notes.md (single, merged, across the edited paragraph, damaged), `writer`
    indexed it and reads it again after an edit: the reader's turns then, each chunk named by its text. With `note`,
    the turn that does not parse is noted as keeping a chunk (`note(row_id, chunk_id)` writes `kept_chunks`: no
    writer would), so the carry reads it."""
    from tests.support.carried_marks import edit, index
    from tests.support.kept_vectors import CHANGED

    doc = index(writer, folder)
    rows = reader.store.db.execute("SELECT id, char_start, char_end, ordinal, file_id, page FROM chunks "
                                   "ORDER BY ordinal").fetchall()
    file_id = rows[0][4]

    def kept(own: int, low: int, high: int, **drop) -> dict:
        p = {"chunk_id": rows[own][0], "file_id": file_id, "char_start": rows[low][1], "char_end": rows[high][2],
             "ordinal": low, "page": rows[own][5], "text": "é"}
        return {k: v for k, v in p.items() if k not in drop}

    assert len(rows) == 12 and CHANGED == 4
    turns = [json.dumps([kept(8, 8, 8), kept(7, 6, 7), kept(10, 9, 11), kept(3, 3, 5),
                         kept(5, 5, 11), kept(0, 0, 3)]),  # a summary's sections: more chunks than search merges
             json.dumps([kept(8, 8, 8), kept(9, 9, 9, ordinal=None)]),  # no ordinal: the turn stays
             f'[{{"file_id": {file_id}, "chunk_id": {rows[10][0]}}}]', f'{{"file_id": {file_id}, "broken',
             json.dumps([kept(8, 8, 8), {"file_id": file_id + 1, "chunk_id": 1, "char_start": 0,
                                         "char_end": 2_000_000_000, "ordinal": 2_000_000_000, "page": None}])]
    conversation = reader.new_conversation()
    with reader.store.transaction() as db:
        for turn in turns:
            db.execute("INSERT INTO messages (conversation_id, role, content, sources_json, created_at) "
                       "VALUES (?, 'assistant', '', ?, 0)", (conversation, turn))
    if note:
        note(reader.store.db.execute("SELECT id FROM messages ORDER BY id").fetchall()[3][0], rows[8][0])
    edit(writer, doc)
    texts = dict(reader.store.db.execute("SELECT id, text FROM chunks"))
    out = []
    for (stored,) in reader.store.db.execute("SELECT sources_json FROM messages ORDER BY id").fetchall():
        try:
            out.append([{**p, "chunk_id": texts.get(p["chunk_id"], "gone")} for p in json.loads(stored)])
        except ValueError:
            out.append(stored)
    return out


@pytest.mark.parametrize("noted", [False, True], ids=["damaged turns not noted", "a damaged turn noted"])
def test_another_persons_kept_passages_move_as_the_re_readers_own_do(pg_server, tmp_path, noted):
    """The server's move of bob's kept passages (carried_references' rule, applied by the function) is the one the
    re-reader's own rows get on this computer (`carry`): single and merged passages follow, and so do a summary's
    sections of 4 and 7 chunks (before, the server moved runs of up to 3 chunks only); one across the edited
    paragraph and damaged turns stay, one the carry reads too (`noted`) stopping nothing (the rows then move row by
    row); a turn with a number the one statement moving them all does not take (10 digits) moves row by row."""
    local = Engine(resolve_paths(tmp_path / "local"), HASHED)
    try:
        expected = _kept_passages_after_an_edit(local, local, tmp_path / "local-docs", noted and (lambda row, chunk: (
            local.store.db.execute("INSERT INTO kept_chunks VALUES (?, 'messages', ?)", (chunk, row)))))
    finally:
        local.close()
    database = pg_server.new_database("carry")
    pg_server.role("alice", "alice-password-1")
    pg_server.role("bob", "bob-password-22")
    admin = Engine(resolve_paths(tmp_path / "admin"), HASHED, library=pg_server.url(database))
    for role in ("alice", "bob"):  # (the first collection, which an index run without one goes to)
        admin.library.grant(admin.collection_id("Default"), role)
    admin.close()
    alice = Engine(resolve_paths(tmp_path / "alice"), HASHED,
                   library=pg_server.url(database, "alice", "alice-password-1"))
    bob = Engine(resolve_paths(tmp_path / "bob"), HASHED, library=pg_server.url(database, "bob", "bob-password-22"))
    try:
        raw = pg_server.admin(database)
        try:
            got = _kept_passages_after_an_edit(alice, bob, tmp_path / "docs", noted and (lambda row, chunk: raw.run(
                "INSERT INTO desktop_rag.kept_chunks VALUES (:chunk, 'messages', :row)", chunk=chunk, row=row)))
        finally:
            raw.close()
    finally:
        bob.close()
        alice.close()
    assert [p["chunk_id"] == "gone" for p in expected[0]] == [False, False, False, True, False, False]
    assert [p["chunk_id"] == "gone" for p in got[0]] == [False, False, False, True, False, False]
    assert expected[3].startswith("{") and expected[4][0]["chunk_id"] != "gone"
    assert got == expected


def test_a_stored_answer_whose_passages_an_edit_left_unchanged_is_replayed(pg_library, tmp_path):
    """The server's carry moves the answer cache's links too (carry_chunk_references), as on this computer."""
    from tests.support.answer_cache_runs import replayed_after_an_edit
    from tests.support.openai_server import run_openai_server

    with run_openai_server() as server:
        server.reply = "At night they run every half hour [1]."
        replayed_after_an_edit(tmp_path, server, pg_library)


def test_a_later_migration_leaves_the_noted_rows_as_they_are(pg_library, tmp_path):
    """`kept_chunks` is read from every turn and review-log row once, at the upgrade to version 10; a migration of a
    library already there (any later version's) keeps what the triggers noted, not reading every row again (a row
    the rows would not give stays: before, the table was emptied and rebuilt at every migration)."""
    from desktop_rag.engine.store.postgres.schema import migrate

    engine = Engine(resolve_paths(tmp_path / "home"), HASHED, library=pg_library)
    try:
        db = engine.store.db
        conversation = engine.new_conversation()
        db.execute("INSERT INTO messages (conversation_id, role, content, sources_json, created_at) "
                   "VALUES (?, 'assistant', '', '[{\"chunk_id\": 7}]', 0)", (conversation,))
        db.execute("INSERT INTO kept_chunks VALUES (-1, 'marker', -1)")
        noted = "SELECT chunk_id, kind FROM kept_chunks ORDER BY 1"
        assert db.execute(noted).fetchall() == [[-1, "marker"], [7, "messages"]]
        migrate(db)
        assert db.execute(noted).fetchall() == [[-1, "marker"], [7, "messages"]]
        db.execute("UPDATE meta SET value = '9' WHERE key = 'schema_version'")  # from before 10: read from the rows
        migrate(db)
        assert db.execute(noted).fetchall() == [[7, "messages"]]
    finally:
        engine.close()
