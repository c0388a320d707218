"""The rules of store/carried_references.py, one at a time on the store itself (no index run: the kept passages and
the moves are written by the test, so each rule can be told apart): a moved passage takes its new chunks' place,
ordinal and page; a turn none of whose passages moves is left byte for byte; a rewritten turn is written as the
writers write it; a passage whose place does not hold its chunk stays while the others of its turn move; a passage
naming the file by its last key is found. The whole edit through an index run: test_carried_references.py (the
mutation row `carried_references` runs both files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.carried_references import Moved, carry
from desktop_rag.engine.store.values import ChunkDraft

FILE = 7


@pytest.fixture
def store(tmp_path: Path):
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:8"))
    yield engine.store
    engine.close()


def _passage(chunk: int, start: int, end: int, ordinal: int, page: int | None = None, text: str = "words") -> dict:
    """A kept passage, its keys in the order conversations.py and grades.py write them."""
    return {"chunk_id": chunk, "score": 0.5, "path": "/docs/notes.pdf", "page": page, "heading": "", "text": text,
            "file_id": FILE, "ordinal": ordinal, "char_start": start, "char_end": end}


def _moved(old: int, start: int, end: int, ordinal: int, shift: int = 5, steps: int = 0,
           page: int | None = None) -> Moved:
    """Old chunk `old` replaced by chunk 1000 + `old`, `shift` characters and `steps` ordinals on, on `page`."""
    return Moved(old, start, end, ordinal, 1000 + old,
                 ChunkDraft(ordinal + steps, "", page, "", start + shift, end + shift))


def _carried(store, stored: list[str], moves: list[Moved]) -> list[str]:
    """The turns `stored` (each a sources_json text) after `carry` of FILE's `moves`."""
    with store.transaction() as db:
        conversation = db.execute("INSERT INTO conversations (title, created_at, updated_at) VALUES ('t', 0, 0) "
                                  "RETURNING id").fetchone()[0]
        db.executemany("INSERT INTO messages (conversation_id, role, content, sources_json, created_at) "
                       "VALUES (?, 'assistant', '', ?, 0)", [(conversation, text) for text in stored])
        carry(db, FILE, moves)
        return [r[0] for r in db.execute("SELECT sources_json FROM messages ORDER BY id")]


def test_a_moved_passage_takes_its_new_chunks_ordinal_and_page(store):
    """A page inserted before it (a PDF): the same text one chunk and one page on."""
    kept = [_passage(1, 0, 10, 3, page=2)]
    moved, = _carried(store, [json.dumps(kept)], [_moved(1, 0, 10, 3, steps=1, page=3)])
    assert json.loads(moved) == [{**kept[0], "chunk_id": 1001, "char_start": 5, "char_end": 15, "ordinal": 4,
                                  "page": 3}]


def test_a_moved_passage_takes_the_first_page_its_new_chunks_name_or_keeps_its_own(store):
    merged = _passage(1, 0, 20, 3, page=2)  # chunks 1 and 2
    alone = _passage(5, 40, 50, 7, page=2)
    moves = [_moved(1, 0, 10, 3), _moved(2, 10, 20, 4, page=4), _moved(5, 40, 50, 7)]
    moved, = _carried(store, [json.dumps([merged, alone])], moves)
    assert [(p["chunk_id"], p["page"]) for p in json.loads(moved)] == [(1001, 4), (1005, 2)]


def test_a_turn_none_of_whose_passages_moves_is_left_byte_for_byte(store):
    """Its chunks moved apart (a paragraph inserted between them): the passage stays, and its row is not written
    again (here an older writer's escapes, which json.dumps would have written otherwise)."""
    kept = json.dumps([_passage(1, 0, 20, 3, text="café")], ensure_ascii=True)
    assert "\\u00e9" in kept
    moves = [_moved(1, 0, 10, 3), _moved(2, 10, 20, 4, shift=9, steps=1)]
    assert _carried(store, [kept], moves) == [kept]


def test_a_rewritten_turn_is_written_as_the_writers_write_it(store):
    kept = [_passage(1, 0, 10, 3, text="Zürich, Αθήνα")]
    moved, = _carried(store, [json.dumps(kept, ensure_ascii=False)], [_moved(1, 0, 10, 3)])
    assert moved == json.dumps([{**kept[0], "chunk_id": 1001, "char_start": 5, "char_end": 15}], ensure_ascii=False)


def test_a_passage_whose_place_does_not_hold_its_chunk_stays_and_the_others_of_its_turn_move(store):
    astray = _passage(1, 100, 110, 3)  # chunk 1 is at 0-10
    fine = _passage(2, 10, 20, 4)
    moved, = _carried(store, [json.dumps([astray, fine])], [_moved(1, 0, 10, 3), _moved(2, 10, 20, 4)])
    assert [(p["chunk_id"], p["char_start"]) for p in json.loads(moved)] == [(1, 100), (1002, 15)]


@pytest.mark.parametrize("table, column", [("messages", "sources_json"), ("answer_log", "passages_json")])
def test_a_passage_naming_its_file_by_its_last_key_is_found(store, table, column):
    """The writers put "file_id" amid a passage's keys; a row whose passages end with it is carried too."""
    last = {key: value for key, value in _passage(1, 0, 10, 3).items() if key != "file_id"} | {"file_id": FILE}
    other = {**last, "file_id": FILE * 10 + 1}  # file 71: "file_id": 7 begins its number
    with store.transaction() as db:
        if table == "messages":
            conversation = db.execute("INSERT INTO conversations (title, created_at, updated_at) "
                                      "VALUES ('t', 0, 0) RETURNING id").fetchone()[0]
            db.executemany("INSERT INTO messages (conversation_id, role, content, sources_json, created_at) "
                           "VALUES (?, 'assistant', '', ?, 0)", [(conversation, json.dumps([p])) for p in (last, other)])
        else:
            db.executemany("INSERT INTO answer_log (created_at, question, normalised, query, query_normalised, "
                           "scope, passages_json, model, settings_json, answer, mode, cached) "
                           "VALUES (0, 'q', 'q', 'q', 'q', '[]', ?, 'm', '{}', 'a', 'extractive', 0)",
                           [(json.dumps([p]),) for p in (last, other)])
        carry(db, FILE, [_moved(1, 0, 10, 3)])
        rows = [json.loads(r[0])[0] for r in db.execute(f"SELECT {column} FROM {table} ORDER BY id")]
    assert [(p["file_id"], p["chunk_id"]) for p in rows] == [(FILE, 1001), (FILE * 10 + 1, 1)]


def _steps_of_a_carry(store, others: int) -> int:
    """SQLite's virtual-machine steps (in hundreds) of carrying one moved chunk of FILE in a library keeping one turn
    with it and `others` turns and review-log rows with passages of another file."""
    kept = json.dumps([_passage(9, 0, 10, 3) | {"file_id": FILE + 1, "text": "words " * 100}])
    _carried(store, [json.dumps([_passage(1, 0, 10, 3)])] + [kept] * others, [])
    with store.transaction() as db:
        db.executemany("INSERT INTO answer_log (created_at, question, normalised, query, query_normalised, scope, "
                       "passages_json, model, settings_json, answer, mode) "
                       "VALUES (0, 'q', 'q', 'q', 'q', '[]', ?, 'm', '{}', 'a', 'extractive')", [(kept,)] * others)
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    store.db.set_progress_handler(count, 100)
    try:
        with store.transaction() as db:
            carry(db, FILE, [_moved(1, 0, 10, 3)])
    finally:
        store.db.set_progress_handler(None, 0)
    assert json.loads(store.db.execute("SELECT sources_json FROM messages ORDER BY id").fetchone()[0])[0][
        "chunk_id"] == 1001
    return steps[0]


def test_the_carry_reads_only_the_rows_keeping_a_moved_chunk(tmp_path):
    """A long history about other files costs a re-read nothing: the rows keeping an old chunk are found by it
    (`kept_chunks`). Before, every turn and review-log row naming the file's id was looked for in their text."""
    costs = []
    for others in (10, 2000):
        engine = Engine(resolve_paths(tmp_path / str(others)), Settings(embedding_model="hash:8"))
        try:
            costs.append(_steps_of_a_carry(engine.store, others))
        finally:
            engine.close()
    assert costs[1] <= costs[0] + 5, costs


def test_the_rows_keeping_a_chunk_are_noted_whoever_writes_them(store):
    """Added, rewritten (a carry) and deleted turns and review-log rows note and forget their chunks; a damaged list
    or passage names none and is stored all the same."""
    def noted() -> list[tuple]:
        return store.db.execute("SELECT kind, row_id, chunk_id FROM kept_chunks ORDER BY 1, 2, 3").fetchall()

    moved = _carried(store, [json.dumps([_passage(1, 0, 10, 3), _passage(2, 10, 20, 4)]), '[{"chunk_id": 1.5}, 3]',
                             '{"broken', json.dumps([_passage(2, 10, 20, 4)])], [_moved(1, 0, 10, 3)])
    assert len(moved) == 4 and noted() == [("messages", 1, 2), ("messages", 1, 1001), ("messages", 4, 2)]
    with store.transaction() as db:
        db.execute("INSERT INTO answer_log (created_at, question, normalised, query, query_normalised, scope, "
                   "passages_json, model, settings_json, answer, mode) "
                   "VALUES (0, 'q', 'q', 'q', 'q', '[]', ?, 'm', '{}', 'a', 'extractive')",
                   (json.dumps([_passage(5, 0, 10, 3)]),))
        db.execute("DELETE FROM conversations")
    assert noted() == [("answer_log", 1, 5)]


def test_an_upgraded_library_carries_the_turns_it_kept_before(tmp_path):
    """A library of schema 6 (no `kept_chunks`) notes its rows' chunks when it opens, so its old turns follow."""
    from desktop_rag.engine.store.sqlite.schema import SCHEMA_VERSION

    home = resolve_paths(tmp_path / "home")
    engine = Engine(home, Settings(embedding_model="hash:8"))
    _carried(engine.store, [json.dumps([_passage(1, 0, 10, 3)])], [])
    with engine.store.transaction() as db:
        db.execute("DROP TABLE kept_chunks")
        db.execute("UPDATE meta SET value = '6' WHERE key = 'schema_version'")
    engine.close()
    engine = Engine(home, Settings(embedding_model="hash:8"))
    try:
        assert engine.store.get_meta("schema_version") == str(SCHEMA_VERSION)
        with engine.store.transaction() as db:
            carry(db, FILE, [_moved(1, 0, 10, 3)])
        assert json.loads(engine.store.db.execute("SELECT sources_json FROM messages").fetchone()[0])[0][
            "chunk_id"] == 1001
    finally:
        engine.close()
