"""The answer cache's rules one at a time (store/answer_cache.py, answer/replay.py), on a real library's chunks:
what an answer's key holds, what a replay gives back (the passages sent with their focus, the passages cited), when
nothing is replayed, the size limit, and the triggers that forget an answer whose passage or conversation is gone.
The hashing embedder (hash:64): these tests are about storing answers, not meaning."""

from __future__ import annotations

import dataclasses

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.answer.replay import AnswerReplay
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store import answer_cache, conversations
from desktop_rag.engine.store.answer_cache import StoredAnswer
from desktop_rag.engine.store.values import Hit, SentPrompt

FINGERPRINT = {"model": "m", "endpoint": "http://x"}


@pytest.fixture
def lib(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in {"tea.txt": "Green tea is brewed with water at about eighty degrees.",
                       "bus.txt": "City buses run every ten minutes during the day.",
                       "move.txt": "The office moves to the fifth floor on Monday."}.items():
        (docs / name).write_text(text, encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    engine.index([docs])
    hits = engine.store.hits_for([(cid, 1.0) for cid in (1, 2, 3)])
    assert len(hits) == 3
    yield engine, hits
    engine.close()


def _replay(engine: Engine, **kwargs) -> AnswerReplay:
    return AnswerReplay(lambda: engine.store, FINGERPRINT, **kwargs)


def test_the_key_holds_the_question_the_query_the_passages_and_the_fingerprint(lib):
    engine, hits = lib
    replay = _replay(engine)
    key = replay.key("How hot?", "how hot", hits)
    assert replay.key("  How   hot? ", " how  hot ", hits) == key  # whitespace is not a difference
    assert replay.key("How hot!", "how hot", hits) != key
    assert replay.key("How hot?", "how warm", hits) != key
    assert replay.key("How hot?", "how hot", hits[::-1]) != key  # the rank order
    assert replay.key("How hot?", "how hot", hits[:2]) != key
    changed = [dataclasses.replace(hits[0], text=hits[0].text + "!"), *hits[1:]]
    assert replay.key("How hot?", "how hot", changed) != key  # the same chunk with other text
    other = AnswerReplay(lambda: engine.store, {**FINGERPRINT, "model": "n"})
    assert other.key("How hot?", "how hot", hits) != key
    assert len(key) == 64 and all(c in "0123456789abcdef" for c in key)


def test_a_replay_gives_the_passages_sent_with_their_focus_and_the_ones_cited(lib):
    engine, hits = lib
    replay = _replay(engine)
    key = replay.key("q", "q", hits)
    used = [dataclasses.replace(hits[2], focus=((0, 10),)), dataclasses.replace(hits[0], focus=((3, 8), (12, 20)))]
    prompt = SentPrompt((("system", "Answer from the passages."), ("user", "q")), (5, 1), 40, 12, "m")
    replay.put(key, "Eighty degrees [2].", "llm", hits, used, [used[1]], prompt)
    answer, sent, cited, shown = replay.get(key, hits, "q")
    assert answer == "Eighty degrees [2]."
    assert [(h.chunk_id, h.focus) for h in sent] == [(3, ((0, 10),)), (1, ((3, 8), (12, 20)))]
    assert [h.chunk_id for h in cited] == [1] and shown == prompt
    assert answer_cache.get(engine.store.db, key) == StoredAnswer(
        "Eighty degrees [2].", "llm", ((2, ((0, 10),)), (0, ((3, 8), (12, 20)))), (2,), prompt.to_json())


def test_cited_numbers_outside_the_passages_are_not_shown(lib):
    engine, hits = lib
    key = "k" * 64
    with engine.store.transaction() as db:
        answer_cache.put(db, key, StoredAnswer("a", "llm", ((0, ()), (1, ())), (0, 1, 2, 3)), [1, 2])
    _, sent, cited, shown = _replay(engine).get(key, hits)
    assert [h.chunk_id for h in sent] == [1, 2] and [h.chunk_id for h in cited] == [1, 2] and shown is None


def test_nothing_is_replayed_for_fewer_hits_than_were_sent_or_an_unknown_key(lib):
    engine, hits = lib
    key = "k" * 64
    with engine.store.transaction() as db:
        answer_cache.put(db, key, StoredAnswer("a", "llm", ((0, ()), (2, ())), (1,)), [1, 2, 3])
    replay = _replay(engine)
    assert replay.get(key, hits[:2]) is None  # passage index 2 is not among two hits
    assert replay.get(key, hits) is not None
    assert replay.get("x" * 64, hits) is None


def test_a_read_only_engine_stores_and_forgets_nothing(lib):
    engine, hits = lib
    key = _replay(engine).key("q", "q", hits)
    _replay(engine, writable=False).put(key, "a", "llm", hits, hits[:1], [])
    assert answer_cache.count(engine.store.db) == 0
    _replay(engine).put(key, "a", "llm", hits, hits[:1], [])
    _replay(engine, writable=False).forget(key)
    assert answer_cache.count(engine.store.db) == 1
    _replay(engine).forget(key)
    assert answer_cache.count(engine.store.db) == 0


def test_an_answer_graded_down_is_replayed_only_with_feedback_off(lib):
    engine, hits = lib
    events = list(engine.ask("When do city buses run?"))  # extractive: logged, then graded
    done = events[-1]
    replay = _replay(engine)
    key = replay.key("When do city buses run?", "q", hits)
    replay.put(key, done.answer, "extractive", hits, hits[:1], [])
    engine.review.set_grade(done.answer_id, "wrong")
    assert replay.get(key, hits, "when do CITY buses run") is None  # the same normalised question
    assert _replay(engine, feedback=False).get(key, hits, "When do city buses run?") is not None
    assert replay.get(key, hits, "Another question?") is not None


def test_the_oldest_answers_go_beyond_the_limit(lib, monkeypatch):
    engine, hits = lib
    monkeypatch.setattr(answer_cache, "MAX_ANSWERS", 3)
    clock = iter(range(100, 200))
    monkeypatch.setattr(answer_cache.time, "time", lambda: next(clock))
    for n in range(5):
        with engine.store.transaction() as db:
            answer_cache.put(db, f"key{n}", StoredAnswer(f"answer {n}", "llm", ((0, ()),), ()), [1])
    assert answer_cache.count(engine.store.db) == 3
    assert [answer_cache.get(engine.store.db, f"key{n}") is not None for n in range(5)] == [False, False, True, True,
                                                                                            True]
    with engine.store.transaction() as db:  # the same key again: replaced, not added
        answer_cache.put(db, "key4", StoredAnswer("newer", "llm", ((0, ()),), ()), [1, 1, 2])
    assert answer_cache.count(engine.store.db) == 3 and answer_cache.get(engine.store.db, "key4").answer == "newer"
    links = engine.store.db.execute("SELECT chunk_id FROM answer_cache_chunks WHERE key = 'key4' ORDER BY chunk_id")
    assert [r[0] for r in links] == [1, 2]


def test_an_answer_goes_when_a_passage_changes_or_goes_or_its_conversation_goes(lib):
    engine, hits = lib
    conversation = conversations.create(engine.store, "chat")
    with engine.store.transaction() as db:
        answer_cache.put(db, "plain", StoredAnswer("a", "llm", ((0, ()),), ()), [1])
        answer_cache.put(db, "other", StoredAnswer("b", "llm", ((0, ()),), ()), [2])
        answer_cache.put(db, "chat", StoredAnswer("c", "llm", ((0, ()),), ()), [3], conversation)
    with engine.store.transaction() as db:
        db.execute("UPDATE chunks SET text = 'changed' WHERE id = 1")
    assert answer_cache.get(engine.store.db, "plain") is None and answer_cache.get(engine.store.db, "other")
    with engine.store.transaction() as db:
        db.execute("DELETE FROM chunks WHERE id = 2")
    assert answer_cache.get(engine.store.db, "other") is None and answer_cache.get(engine.store.db, "chat")
    conversations.delete(engine.store, conversation)
    assert answer_cache.count(engine.store.db) == 0


def test_an_answer_for_a_conversation_deleted_meanwhile_is_not_kept(lib):
    engine, _ = lib
    with engine.store.transaction() as db:
        answer_cache.put(db, "k", StoredAnswer("a", "llm", ((0, ()),), ()), [1], conversation_id=999)
    assert answer_cache.count(engine.store.db) == 0


def test_forget_and_clear(lib):
    engine, _ = lib
    with engine.store.transaction() as db:
        for key in ("a", "b", "c"):
            answer_cache.put(db, key, StoredAnswer(key, "llm", ((0, ()),), ()), [1])
        answer_cache.forget(db, "b")
    assert answer_cache.count(engine.store.db) == 2 and answer_cache.get(engine.store.db, "b") is None
    with engine.store.transaction() as db:
        assert answer_cache.clear(db) == 2
    assert answer_cache.count(engine.store.db) == 0


def test_a_replayed_hit_is_the_search_hit_with_the_stored_focus(lib):
    engine, hits = lib
    replay = _replay(engine)
    key = replay.key("q", "q", hits)
    replay.put(key, "a", "llm", hits, [dataclasses.replace(hits[1], focus=((1, 2),))], [])
    fresh = [dataclasses.replace(h, score=0.5) for h in hits]  # the same passages found again
    _, sent, _, _ = replay.get(key, fresh)
    assert sent == [dataclasses.replace(fresh[1], focus=((1, 2),))]
    assert isinstance(sent[0], Hit)
