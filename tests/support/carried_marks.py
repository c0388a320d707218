"""One paragraph of a long file edited after the person marked passages of it (store/carried_references.py): the
marks on the unchanged passages keep working. tests/engine/test_carried_references.py on SQLite,
tests/postgres/test_carried_references.py on a server: the same scenario."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import UsageError, error_text
from desktop_rag.engine.store.values import Hit
from tests.support.kept_vectors import CHANGED, NEW_TEXT, PARAGRAPHS, SETTINGS, write

HASHED = dataclasses.replace(SETTINGS, embedding_model="hash:64", translate_queries=False)
QUESTION = "How often must passwords be changed?"
PASSWORDS, NEWCOMERS = PARAGRAPHS[10], PARAGRAPHS[6]  # after the edited paragraph: their places move
assert CHANGED < 10 and len(NEW_TEXT) != len(PARAGRAPHS[CHANGED])


def index(engine: Engine, folder: Path) -> Path:
    """Index notes.md (PARAGRAPHS, a chunk each) in `folder`; the file."""
    folder.mkdir()
    doc = folder / "notes.md"
    write(doc, PARAGRAPHS)
    assert engine.index([folder]).added == 1
    return doc


def edit(engine: Engine, doc: Path) -> None:
    """Rewrite one paragraph before the marked ones and index again: every other passage is the same text at
    another place, under a new chunk id."""
    before = passage(engine, PASSWORDS)
    edited = list(PARAGRAPHS)
    edited[CHANGED] = NEW_TEXT
    write(doc, edited)
    report = engine.index()
    assert report.updated == 1 and report.kept == len(PARAGRAPHS) - 1
    after = passage(engine, PASSWORDS)
    assert after.chunk_id != before.chunk_id and after.char_start != before.char_start


def ask(engine: Engine, question: str = QUESTION, conversation_id: int | None = None) -> tuple[list[Hit], DoneEvent]:
    """The passages given for `question` and the answer's last event."""
    events = list(engine.ask(question, conversation_id=conversation_id))
    return list(next(e.hits for e in events if isinstance(e, SourcesEvent))), events[-1]


def passage(engine: Engine, text: str) -> Hit:
    """The chunk holding `text` now."""
    found = [cid for cid, t in engine.store.db.execute("SELECT id, text FROM chunks") if text in t]
    assert len(found) == 1, found
    return engine.store.hits_for([(found[0], 0.0)])[0]


def marked_wrong_stays_out(engine: Engine, folder: Path) -> None:
    """The passage marked wrong for QUESTION is still never given for it after the edit."""
    doc = index(engine, folder)
    given, done = ask(engine)
    assert PASSWORDS in given[0].text
    engine.review.mark_passage(done.answer_id, given[0].chunk_id, right=False)
    assert all(PASSWORDS not in h.text for h in ask(engine)[0])
    edit(engine, doc)
    given, done = ask(engine)
    assert given and all(PASSWORDS not in h.text for h in given + list(done.cited)), [h.text[:30] for h in given]


def marked_right_stays_first(engine: Engine, folder: Path) -> None:
    """Another passage marked right for QUESTION still comes first after the edit."""
    doc = index(engine, folder)
    given, done = ask(engine)
    assert PASSWORDS in given[0].text and NEWCOMERS not in given[0].text
    engine.review.mark_passage(done.answer_id, passage(engine, NEWCOMERS).chunk_id, right=True)
    assert NEWCOMERS in ask(engine)[0][0].text
    edit(engine, doc)
    first = ask(engine)[0][0]
    assert NEWCOMERS in first.text and PASSWORDS not in first.text


def a_gone_passage_is_not_marked(engine: Engine, folder: Path) -> None:
    """A passage whose text the edit changed (its chunk gone) cannot be marked (a Reason, en/zh); a mark on it can
    still be taken back. Before, the mark was written on the deleted chunk with an empty text hash."""
    doc = index(engine, folder)
    done = ask(engine)[1]
    changed = passage(engine, PARAGRAPHS[CHANGED])
    engine.review.mark_passage(done.answer_id, changed.chunk_id, right=False)
    edit(engine, doc)
    for right in (True, False):
        with pytest.raises(UsageError) as raised:
            engine.review.mark_passage(done.answer_id, changed.chunk_id, right=right)
        assert raised.value.code == "passage_gone" and "no longer in the library" in str(raised.value)
        assert "此段落已不在资料库中" in error_text(raised.value, "zh")
    assert engine.review.logged_answers([done.answer_id])[0].wrong_chunks == (changed.chunk_id,)
    engine.review.mark_passage(done.answer_id, changed.chunk_id, right=None)  # taken back
    assert engine.review.logged_answers([done.answer_id])[0].wrong_chunks == ()


def answer_saved_after_an_edit_names_its_passages_now(engine: Engine, folder: Path) -> None:
    """The edit is indexed while the answer is still going (after its passages were given, before it is saved): its
    turn and review-log row name each unchanged passage's new chunk at its new place, as `carry` moved the answers
    saved before; a passage whose text changed stays as given. Before, both kept the ids the search had found."""
    doc = index(engine, folder)
    conversation = engine.new_conversation()
    before = passage(engine, PASSWORDS)
    events = engine.ask(QUESTION, conversation_id=conversation)
    given = next(e.hits for e in events if isinstance(e, SourcesEvent))
    assert PASSWORDS in given[0].text and any(PARAGRAPHS[CHANGED] in h.text for h in given)
    edit(engine, doc)
    done = list(events)[-1]
    now = passage(engine, PASSWORDS)
    moved = now.char_start - before.char_start
    for saved in (engine.messages(conversation)[-1].sources, engine.review.logged_answers([done.answer_id])[0].sources):
        assert saved[0].chunk_id == now.chunk_id and saved[0].text == given[0].text
        assert (saved[0].char_start, saved[0].char_end) == (given[0].char_start + moved, given[0].char_end + moved)
        for was, kept in zip(given, saved, strict=True):
            if PARAGRAPHS[CHANGED] in was.text:
                assert kept == was
            else:
                assert kept.chunk_id != was.chunk_id and engine.held_passages([kept]) == {kept.chunk_id}


def summary_sections_follow_an_edit(engine: Engine, folder: Path) -> None:
    """A summary's sections (passages of many chunks) follow an edit of the file's last paragraph: one saved
    before the edit (the carry) and one whose file was indexed again while it was written (saved after). Before, a
    server carried passages of up to 3 chunks only, and a summary saved after the edit kept its first section's
    old chunk (its chunks were noted up to the third)."""
    doc = index(engine, folder)
    before, during = engine.new_conversation(), engine.new_conversation()
    list(engine.summarise(doc, extractive=True, conversation_id=before))
    events = engine.summarise(doc, extractive=True, conversation_id=during, refresh=True)
    first = next(e.hits for e in events if isinstance(e, SourcesEvent))[0]
    inside = [t for t in PARAGRAPHS if first.char_start <= passage(engine, t).char_start < first.char_end]
    assert len(inside) > 3 and PARAGRAPHS[-1] not in inside
    edited = PARAGRAPHS[:-1] + [NEW_TEXT]
    write(doc, edited)
    assert engine.index().updated == 1
    list(events)
    now = passage(engine, PARAGRAPHS[0])
    assert now.chunk_id != first.chunk_id
    for conversation in (before, during):
        saved = engine.messages(conversation)[-1].sources[0]
        assert (saved.chunk_id, saved.char_start, saved.char_end) == (
            now.chunk_id, first.char_start, first.char_end), conversation == during
        assert engine.held_passages([saved]) == {now.chunk_id}
