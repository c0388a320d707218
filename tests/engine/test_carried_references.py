"""What the person attached to an edited file's unchanged passages follows them to their new chunk ids
(store/carried_references.py, docs/ARCHITECTURE.md "Ingest" and "Feedback rules"): a passage marked wrong stays
out, one marked right stays first, `eval`'s labelled question still counts, a conversation reopened shows its
passages under ids the marks and the viewer find; a mark on a passage whose text changed stays behind.

The hashing embedder (hash:64) and extractive answers: these tests are about which chunk a reference names."""

from __future__ import annotations

import json
import pytest

from desktop_rag.config import resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.carried_references import Moved, carry
from desktop_rag.engine.store.values import ChunkDraft
from tests.support.carried_marks import (HASHED, PASSWORDS, a_gone_passage_is_not_marked,
                                         answer_saved_after_an_edit_names_its_passages_now, ask, edit, index,
                                         marked_right_stays_first, marked_wrong_stays_out, passage,
                                         summary_sections_follow_an_edit)
from tests.support.kept_vectors import CHANGED, PARAGRAPHS


@pytest.fixture
def engine(tmp_path):
    engine = Engine(resolve_paths(tmp_path / "home"), HASHED)
    yield engine
    engine.close()


def test_a_passage_marked_wrong_stays_out_after_its_file_is_edited(engine, tmp_path):
    marked_wrong_stays_out(engine, tmp_path / "docs")


def test_a_passage_marked_right_stays_first_after_its_file_is_edited(engine, tmp_path):
    marked_right_stays_first(engine, tmp_path / "docs")


def test_a_labelled_question_still_counts_after_its_file_is_edited(engine, tmp_path):
    doc = index(engine, tmp_path / "docs")
    given, done = ask(engine)
    engine.review.mark_passage(done.answer_id, given[0].chunk_id, right=True)
    assert engine.review.evaluate().main.queries == 1
    edit(engine, doc)  # the place moved: without the mark following its chunk, the words there are others
    report = engine.review.evaluate()
    assert report.stale == () and report.main.queries == 1 and report.main.recall_at_5 == 1.0


def test_a_reopened_conversation_shows_its_unchanged_passages_under_their_new_ids(engine, tmp_path):
    doc = index(engine, tmp_path / "docs")
    conversation = engine.new_conversation()
    given, done = ask(engine, conversation_id=conversation)
    changed = passage(engine, PARAGRAPHS[CHANGED])
    engine.review.mark_passage(done.answer_id, given[0].chunk_id, right=True)
    engine.review.mark_passage(done.answer_id, changed.chunk_id, right=False)
    before = passage(engine, PASSWORDS)
    edit(engine, doc)
    now = passage(engine, PASSWORDS)
    shown = engine.messages(conversation)[-1].sources[0]  # the passwords passage, merged with its neighbours
    moved = now.char_start - before.char_start
    assert shown.chunk_id == now.chunk_id and shown.text == given[0].text  # the viewer opens it at its place now
    assert (shown.char_start, shown.char_end) == (given[0].char_start + moved, given[0].char_end + moved)
    logged = engine.review.logged_answers([done.answer_id])[0]  # the review log's passages and marks agree
    assert logged.sources[0].chunk_id == logged.right_chunk == now.chunk_id
    assert logged.wrong_chunks == (changed.chunk_id,), "a mark on a passage whose text changed stays behind"
    assert engine.store.db.execute("SELECT content_hash FROM answer_marks WHERE chunk_id = ?",
                                   (now.chunk_id,)).fetchone()[0] != ""


def test_a_merged_passage_follows_only_when_every_chunk_of_it_is_unchanged(engine, tmp_path):
    index(engine, tmp_path / "docs")
    rows = engine.store.db.execute("SELECT id, char_start, char_end, ordinal, file_id FROM chunks "
                                   "ORDER BY ordinal").fetchall()
    file_id = rows[0][4]
    first, middle, last = rows[2:5]
    passages = [{"chunk_id": first[0], "file_id": file_id, "char_start": first[1], "char_end": middle[2],
                 "ordinal": 2, "page": None},
                {"chunk_id": first[0], "file_id": file_id, "char_start": first[1], "char_end": last[2],
                 "ordinal": 2, "page": None}]
    conversation = engine.new_conversation()
    moved = [Moved(r[0], r[1], r[2], r[3], 1000 + r[3], ChunkDraft(r[3], "", None, "", r[1] + 5, r[2] + 5))
             for r in (first, middle, last)]  # each old chunk's new one, 5 characters on
    with engine.store.transaction() as db:
        db.execute("INSERT INTO messages (conversation_id, role, content, sources_json, created_at) "
                   "VALUES (?, 'assistant', '', ?, 0)", (conversation, json.dumps(passages)))
        carry(db, file_id, [m for m in moved if m.old != middle[0]])  # the middle chunk changed
        kept = json.loads(db.execute("SELECT sources_json FROM messages").fetchone()[0])
        carry(db, file_id, moved)
        both = json.loads(db.execute("SELECT sources_json FROM messages").fetchone()[0])
    assert kept == passages
    assert [(p["chunk_id"], p["char_start"], p["char_end"]) for p in both] == [
        (1002, first[1] + 5, middle[2] + 5), (1002, first[1] + 5, last[2] + 5)]


def test_a_damaged_kept_passage_list_stays_as_it_is_and_the_edit_is_indexed(engine, tmp_path):
    doc = index(engine, tmp_path / "docs")
    conversation = engine.new_conversation()
    file_id = passage(engine, PASSWORDS).file_id
    damaged = [f'[{{"file_id": {file_id}, "chunk_id": {passage(engine, PASSWORDS).chunk_id}}}]',  # no place
               f'{{"file_id": {file_id}, "broken']
    with engine.store.transaction() as db:
        db.executemany("INSERT INTO messages (conversation_id, role, content, sources_json, created_at) "
                       "VALUES (?, 'assistant', '', ?, 0)", [(conversation, text) for text in damaged])
    edit(engine, doc)
    assert [r[0] for r in engine.store.db.execute("SELECT sources_json FROM messages ORDER BY id")] == damaged



def test_a_passage_the_library_no_longer_holds_cannot_be_marked_but_a_mark_on_it_can_be_taken_back(engine, tmp_path):
    a_gone_passage_is_not_marked(engine, tmp_path / "docs")


def test_an_answer_saved_after_its_file_is_edited_keeps_its_passages_where_the_library_holds_them(engine, tmp_path):
    answer_saved_after_an_edit_names_its_passages_now(engine, tmp_path / "docs")


def test_a_summarys_sections_follow_an_edit_of_their_file(engine, tmp_path):
    summary_sections_follow_an_edit(engine, tmp_path / "docs")
