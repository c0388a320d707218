"""The feedback rules on marked passages (search/feedback.py) where the plain cases of test_feedback_rules.py do not
reach: the passage marked right is added at the top when the repeated question's search no longer returns it (at
the best remaining score, the list no longer than before), moved and not repeated when it does; a passage marked
wrong is dropped also when it comes back inside a merged passage of several chunks; what the search said of
itself (keyword only, translations) reaches the answer through the rules.

The hashing embedder (hash:64) and extractive answers: these tests are about which passages are given, not meaning."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.answer.events import SourcesEvent
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.values import Hit
from tests.support.review_docs import TEA, three_docs

TASTING = ("Notes from the tasting. Leaves were rolled by hand in the old way. "
           "The kettle sat on the stove all afternoon long. "
           "Green tea needs water at about eighty degrees, not boiling water. "
           "How hot should the water be for green tea? Eighty degrees is right for green tea.")
LONG_TEA = ("Green tea water. Brew green tea with water at about eighty degrees. "
            "Water that boils makes green tea bitter, so let the water cool first. "
            "For green tea the water should be hot but never boiling. "
            "Hot water for green tea should rest a minute after the kettle. "
            "The water for green tea should be hot, about eighty degrees.")
BUS = "City buses run every ten minutes"


@pytest.fixture
def library(tmp_path) -> Callable[..., Engine]:
    """open(write, **settings): an engine (hash:64, no translation) over the folder `write` fills; closed after."""
    engines: list[Engine] = []

    def open_(write: Callable[[Path], Path], **changes) -> Engine:
        engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64", translate_queries=False,
                                                                    **changes))
        engines.append(engine)
        engine.index([write(tmp_path / "docs")])
        return engine

    yield open_
    for engine in engines:
        engine.close()


def _ask(engine: Engine, question: str = TEA) -> tuple[list[Hit], int]:
    events = list(engine.ask(question))
    return list(next(e.hits for e in events if isinstance(e, SourcesEvent))), events[-1].answer_id


def _ids(hits) -> list[int]:
    return [h.chunk_id for h in hits]


def _four_docs(folder: Path) -> Path:
    three_docs(folder)
    (folder / "garden.txt").write_text("Tomatoes need six hours of sun and water every morning.", encoding="utf-8")
    return folder


def _texts(files: dict[str, str]) -> Callable[[Path], Path]:
    def write(folder: Path) -> Path:
        folder.mkdir()
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        return folder
    return write


# ---- the passage marked right ----

def test_the_passage_marked_right_is_added_at_the_top_when_the_search_no_longer_returns_it(library):
    engine = library(three_docs, top_k=1)  # the search returns one passage: the tea one
    sources, answer = _ask(engine)
    assert [Path(h.path).name for h in sources] == ["tea.txt"]
    bus = engine.search(BUS, 1)[0]
    engine.review.mark_passage(answer, bus.chunk_id, right=True)
    assert [Path(h.path).name for h in engine.search(TEA, 1)] == ["tea.txt"]  # the search alone: still tea
    again, _ = _ask(engine)
    assert _ids(again) == [bus.chunk_id]  # added at the top, the list as long as before
    assert again[0].score == sources[0].score  # at the score of the search's best passage


def test_the_passage_marked_right_is_added_when_every_passage_found_was_marked_wrong(library):
    engine = library(three_docs, top_k=1)
    sources, answer = _ask(engine)
    bus = engine.search(BUS, 1)[0]
    engine.review.mark_passage(answer, sources[0].chunk_id, right=False)
    engine.review.mark_passage(answer, bus.chunk_id, right=True)
    again, _ = _ask(engine)
    assert _ids(again) == [bus.chunk_id] and again[0].score == 1.0


def test_a_passage_marked_right_inside_the_results_is_moved_not_repeated(library):
    engine = library(_four_docs, top_k=3)
    sources, answer = _ask(engine)
    assert len(sources) == 3
    engine.review.mark_passage(answer, sources[2].chunk_id, right=True)
    assert _ids(_ask(engine)[0]) == [sources[2].chunk_id, sources[0].chunk_id, sources[1].chunk_id]
    engine.review.mark_passage(answer, sources[1].chunk_id, right=True)  # the middle one: the last stays last
    assert _ids(_ask(engine)[0]) == [sources[1].chunk_id, sources[0].chunk_id, sources[2].chunk_id]


def test_an_added_passage_takes_the_best_remaining_score_and_the_list_grows_no_longer(library):
    engine = library(_four_docs, top_k=3)
    sources, answer = _ask(engine)
    outside = next(h for h in engine.store.hits_for([(i, 0.0) for i in range(1, 5)]) if h not in sources)
    engine.review.mark_passage(answer, sources[0].chunk_id, right=False)  # the best one goes: the next is best now
    engine.review.mark_passage(answer, outside.chunk_id, right=True)
    again, _ = _ask(engine)  # the wrong one dropped, the right one added in front of the last: two passages
    assert _ids(again) == [outside.chunk_id, sources[1].chunk_id]
    assert again[0].score == sources[1].score < 1.0


# ---- the passage marked wrong ----

def _inside(hit: Hit, chunk: Hit) -> bool:
    return hit.file_id == chunk.file_id and hit.char_start <= chunk.char_start and chunk.char_end <= hit.char_end


@pytest.mark.parametrize("edge", ["first", "last"])
def test_a_passage_marked_wrong_is_dropped_inside_a_merged_passage(library, edge):
    """The best passage is three chunks merged, its id the middle one's: the chunk at its start, or at its end, is
    marked wrong (each edge of the span is inside the passage)."""
    files = {"tasting.txt": TASTING, "bus.txt": BUS + " during the day."}
    engine = library(_texts(files), chunk_size=80, chunk_overlap=20)
    sources, answer = _ask(engine)
    merged = sources[0]
    assert Path(merged.path).name == "tasting.txt"
    chunks = [c for c in engine.store.hits_for([(merged.chunk_id + d, 0.0) for d in (-1, 1)]) if _inside(merged, c)]
    wrong = next(c for c in chunks if (c.char_start == merged.char_start if edge == "first"
                                       else c.char_end == merged.char_end))
    assert wrong.chunk_id != merged.chunk_id
    engine.review.mark_passage(answer, wrong.chunk_id, right=False)
    again, _ = _ask(engine)
    assert again, "the other passages are still given"
    assert not any(_inside(h, wrong) for h in again), "the wrong chunk came back inside a merged passage"
    assert any(_inside(h, wrong) for h in engine.search(TEA, 5))  # the search alone still finds it


def test_a_chunk_of_another_file_at_the_same_offsets_is_not_dropped(library):
    """Matching a merged passage compares the file too: the same character range of another file stays."""
    twin_text = LONG_TEA.replace("Green tea water.", "Green tea water!")
    engine = library(_texts({"tea-notes.txt": LONG_TEA, "tea-copy.txt": twin_text}), chunk_size=80, chunk_overlap=20)
    sources, answer = _ask(engine)
    first = sources[0]
    twin = next(h for h in sources if h.file_id != first.file_id)
    assert (twin.char_start, twin.char_end) == (first.char_start, first.char_end)  # the same offsets
    engine.review.mark_passage(answer, first.chunk_id, right=False)
    again, _ = _ask(engine)
    assert twin.chunk_id in _ids(again) and not any(_inside(h, first) for h in again)


# ---- what the search said of itself ----

def test_the_rules_keep_what_the_search_said_of_itself(tmp_path, monkeypatch):
    """Keyword-only (the vectors still loading) and the question's translations reach the answer's SourcesEvent
    through the rules."""
    from tests.support.openai_server import run_openai_server

    docs = _four_docs(tmp_path / "docs")
    (docs / "火车票.txt").write_text("学生购买火车票可以享受半价优惠，需要出示学生证。", encoding="utf-8")
    question, chinese = "Which ticket discount do students get?", "学生购买火车票有什么优惠？"
    with run_openai_server() as server:
        server.reply = "Half price [1]."
        server.reply_for = lambda body: chinese if not body.get("stream") else None
        engine = Engine(resolve_paths(tmp_path / "home"), Settings(
            embedding_model="hash:64", llm_base_url=server.base_url, llm_model="fake-model"))
        try:
            engine.index([docs])
            first = list(engine.ask(question))
            sources = next(e for e in first if isinstance(e, SourcesEvent))
            engine.review.mark_passage(first[-1].answer_id, sources.hits[0].chunk_id, right=False)
            again = next(e for e in engine.ask(question, refresh=True) if isinstance(e, SourcesEvent))
            assert sources.hits[0].chunk_id not in _ids(again.hits)  # the rules ran
            assert again.translations == (("zh", chinese),) and again.keyword_only is False
            monkeypatch.setattr(engine.runtime, "dense_now", lambda: False)  # as while a large library loads
            loading = next(e for e in engine.ask(question, refresh=True) if isinstance(e, SourcesEvent))
            assert loading.keyword_only is True and sources.hits[0].chunk_id not in _ids(loading.hits)
        finally:
            engine.close()
