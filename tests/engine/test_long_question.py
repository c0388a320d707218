"""A pasted page as a question is searched by its beginning: the model never embeds more than SEARCHED_CHARS of
it (a 120,000-character question took the bundled model 55 s), in the search and in the answer's sentence choice."""

from __future__ import annotations

import pytest

from desktop_rag.engine import DoneEvent
from desktop_rag.engine.search.question import SEARCHED_CHARS
from tests.support.tea_and_buses import tea_and_buses

FILLER = "lorem ipsum dolor sit amet consectetur " * 3000  # about 117,000 characters


@pytest.fixture
def engine(tmp_path):
    with tea_and_buses(tmp_path) as opened:
        yield opened


@pytest.fixture
def embedded(engine, monkeypatch) -> list[str]:
    """Every question text the model is asked to embed."""
    embedder, _ = engine.runtime.dense_pair()
    inner = type(embedder._embedder)
    real = inner.embed_queries
    texts: list[str] = []

    def recording(self, batch):
        texts.extend(batch)
        return real(self, batch)

    monkeypatch.setattr(inner, "embed_queries", recording)
    return texts


def test_a_long_question_is_searched_and_answered_by_its_beginning(engine, embedded):
    question = "How often do the city buses run? " + FILLER
    assert engine.search(question, 2)
    assert [e for e in engine.ask(question) if isinstance(e, DoneEvent)]
    asked = [t for t in embedded if t.startswith("How often")]
    assert asked, "the question was never embedded"
    assert max(len(t) for t in asked) == SEARCHED_CHARS


def test_a_short_question_is_embedded_whole(engine, embedded):
    engine.search("How often do the city buses run?", 2)
    assert "How often do the city buses run?" in embedded
