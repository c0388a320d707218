"""The feedback rules on marked passages (search/feedback.py) where the plain cases of test_feedback_rules.py do not
reach: the passage marked right is added at the top when the repeated question's search no longer returns it, and
a passage marked wrong is dropped also when it comes back inside a merged passage of several chunks.

The hashing embedder (hash:64) and extractive answers: these tests are about which passages are given, not meaning."""

from __future__ import annotations

from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.types import Hit, SourcesEvent
from tests.support.review_docs import TEA, three_docs

LONG_TEA = ("Green tea water. Brew green tea with water at about eighty degrees. "
            "Water that boils makes green tea bitter, so let the water cool first. "
            "For green tea the water should be hot but never boiling. "
            "Hot water for green tea should rest a minute after the kettle. "
            "The water for green tea should be hot, about eighty degrees.")


def _engine(tmp_path: Path, **changes) -> Engine:
    return Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64", translate_queries=False,
                                                             **changes))


def _ask(engine: Engine, question: str = TEA) -> tuple[list[Hit], int]:
    events = list(engine.ask(question))
    return list(next(e.hits for e in events if isinstance(e, SourcesEvent))), events[-1].answer_id


def test_the_passage_marked_right_is_added_at_the_top_when_the_search_no_longer_returns_it(tmp_path):
    engine = _engine(tmp_path, top_k=1)  # the search returns one passage: the tea one
    try:
        engine.index([three_docs(tmp_path / "docs")])
        sources, answer = _ask(engine)
        assert [Path(h.path).name for h in sources] == ["tea.txt"]
        bus = engine.search("City buses run every ten minutes", 1)[0]
        engine.mark_passage(answer, bus.chunk_id, right=True)
        assert [Path(h.path).name for h in engine.search(TEA, 1)] == ["tea.txt"]  # the search alone: still tea
        again, _ = _ask(engine)
        assert [h.chunk_id for h in again] == [bus.chunk_id]  # added at the top, the list as long as before
        assert again[0].score == sources[0].score  # at the score of the search's best passage
    finally:
        engine.close()


def test_the_passage_marked_right_is_added_when_every_passage_found_was_marked_wrong(tmp_path):
    engine = _engine(tmp_path, top_k=1)
    try:
        engine.index([three_docs(tmp_path / "docs")])
        sources, answer = _ask(engine)
        bus = engine.search("City buses run every ten minutes", 1)[0]
        engine.mark_passage(answer, sources[0].chunk_id, right=False)
        engine.mark_passage(answer, bus.chunk_id, right=True)
        again, _ = _ask(engine)
        assert [h.chunk_id for h in again] == [bus.chunk_id] and again[0].score == 1.0
    finally:
        engine.close()


def _inside(hit: Hit, chunk: Hit) -> bool:
    return hit.file_id == chunk.file_id and hit.char_start <= chunk.char_start and chunk.char_end <= hit.char_end


def test_a_passage_marked_wrong_is_dropped_inside_a_merged_passage(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tea-notes.txt").write_text(LONG_TEA, encoding="utf-8")
    (docs / "bus.txt").write_text("City buses run every ten minutes during the day.", encoding="utf-8")
    engine = _engine(tmp_path, chunk_size=80, chunk_overlap=20)
    try:
        engine.index([docs])
        sources, answer = _ask(engine)
        merged = sources[0]
        assert Path(merged.path).name == "tea-notes.txt"
        around = engine.store.hits_for([(merged.chunk_id - 1, 0.0), (merged.chunk_id + 1, 0.0)])
        inner = [c for c in around if _inside(merged, c)]
        assert inner, "the best passage is several chunks merged"
        wrong = inner[0]
        assert wrong.chunk_id != merged.chunk_id
        engine.mark_passage(answer, wrong.chunk_id, right=False)
        again, _ = _ask(engine)
        assert again, "the other passages are still given"
        assert not any(_inside(h, wrong) for h in again), "the wrong chunk came back inside a merged passage"
        assert any(_inside(h, wrong) for h in engine.search(TEA, 5))  # the search alone still finds it
    finally:
        engine.close()


def test_a_chunk_of_another_file_at_the_same_offsets_is_not_dropped(tmp_path):
    """Matching a merged passage compares the file too: the same character range of another file stays."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tea-notes.txt").write_text(LONG_TEA, encoding="utf-8")
    (docs / "tea-copy.txt").write_text(LONG_TEA.replace("Green tea water.", "Green tea water!"), encoding="utf-8")
    engine = _engine(tmp_path, chunk_size=80, chunk_overlap=20)
    try:
        engine.index([docs])
        sources, answer = _ask(engine)
        files = {h.file_id for h in sources}
        assert len(files) == 2
        first = sources[0]
        engine.mark_passage(answer, first.chunk_id, right=False)
        again, _ = _ask(engine)
        twin = next(h for h in sources if h.file_id != first.file_id)
        assert (twin.char_start, twin.char_end) == (first.char_start, first.char_end)  # the same offsets
        assert twin.chunk_id in {h.chunk_id for h in again}
        assert not any(_inside(h, first) for h in again)
    finally:
        engine.close()
