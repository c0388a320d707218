"""The feedback rules (issue 39, docs/ARCHITECTURE.md "Review log and feedback"), each against its own test, and
`Settings.feedback` turning them off: an answer graded wrong or refused is never replayed from the answer cache
(against the local chat-completions server); the passage marked right comes first for the same question in the
same scope; a passage marked wrong is not given for that question again (so never cited)."""

from __future__ import annotations

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent
from tests.support.review_docs import TEA, three_docs
from tests.support.openai_server import run_openai_server

@pytest.fixture
def docs(tmp_path):
    return three_docs(tmp_path / "docs")


@pytest.fixture
def server():
    with run_openai_server() as srv:
        srv.reply = "About eighty degrees [1]."
        yield srv


def engine_for(tmp_path, **changes) -> Engine:
    return Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64", translate_queries=False,
                                                             **changes))


def ask(engine: Engine, question: str = TEA, **kwargs) -> tuple[tuple, DoneEvent]:
    events = list(engine.ask(question, **kwargs))
    return next(e.hits for e in events if isinstance(e, SourcesEvent)), events[-1]


@pytest.mark.parametrize("grade", ["wrong", "refused"])
def test_an_answer_graded_wrong_or_refused_is_never_replayed(tmp_path, docs, server, grade):
    llm = {"llm_base_url": server.base_url, "llm_model": "fake-model"}
    engine = engine_for(tmp_path, **llm)
    engine.index([docs])
    _, first = ask(engine)
    _, again = ask(engine)
    assert again.cached and server.streamed() == 1  # the cache replays it while it is not graded down
    engine.review.set_grade(again.answer_id, grade)
    _, after = ask(engine)
    assert not after.cached and server.streamed() == 2, "a graded-down answer went to the model again"
    _, later = ask(engine)
    assert not later.cached and server.streamed() == 3, "the same text, stored again, is still never replayed"
    engine.close()
    engine = engine_for(tmp_path, feedback=False, **llm)  # the switch off: the stored answer is replayed
    assert ask(engine)[1].cached and server.streamed() == 3
    engine.close()
    engine = engine_for(tmp_path, **llm)
    engine.review.set_grade(again.answer_id, "right")  # the grade changed back: replayed again
    assert ask(engine)[1].cached
    engine.close()


def test_the_passage_marked_right_comes_first_for_the_same_question_in_the_same_scope(tmp_path, docs):
    engine = engine_for(tmp_path)
    engine.index([docs])
    sources, done = ask(engine)
    bus = engine.search("City buses run every ten minutes", 1)[0]
    assert sources[0].path.endswith("tea.txt")
    engine.review.mark_passage(done.answer_id, bus.chunk_id, right=True)
    first = ask(engine, "  how HOT should the water be for green tea ")[0]
    assert first[0].chunk_id == bus.chunk_id and len(first) <= len(sources)
    assert first[1].path.endswith("tea.txt")
    assert ask(engine, TEA, folders=[str(docs)])[0][0].path.endswith("tea.txt"), "another scope: no rule"
    assert ask(engine, "Where does the office move?")[0][0].chunk_id != bus.chunk_id, "another question: no rule"
    engine.close()
    engine = engine_for(tmp_path, feedback=False)
    assert ask(engine)[0][0].path.endswith("tea.txt")
    engine.close()


def test_a_marked_right_passage_that_changed_is_not_pushed_first(tmp_path, docs):
    engine = engine_for(tmp_path)
    engine.index([docs])
    _, done = ask(engine)
    bus = engine.search("City buses run every ten minutes", 1)[0]
    engine.review.mark_passage(done.answer_id, bus.chunk_id, right=True)
    with engine.store.transaction() as db:
        db.execute("UPDATE chunks SET text = 'Buses were cancelled.' WHERE id = ?", (bus.chunk_id,))
    assert ask(engine)[0][0].path.endswith("tea.txt")
    engine.close()


def test_a_passage_marked_wrong_is_not_given_nor_cited_for_that_question_again(tmp_path, docs):
    engine = engine_for(tmp_path)
    engine.index([docs])
    sources, done = ask(engine)
    tea = sources[0]
    assert tea.path.endswith("tea.txt") and tea in done.cited
    engine.review.mark_passage(done.answer_id, tea.chunk_id, right=False)
    again, after = ask(engine, "how hot should the water be for green tea")
    assert tea.chunk_id not in {h.chunk_id for h in again} and tea.chunk_id not in {h.chunk_id for h in after.cited}
    assert again, "the other passages are still given"
    assert tea.chunk_id in {h.chunk_id for h in ask(engine, "What is green tea brewed with?")[0]}, "other question"
    engine.close()
    engine = engine_for(tmp_path, feedback=False)
    assert ask(engine)[0][0].chunk_id == tea.chunk_id
    engine.close()
