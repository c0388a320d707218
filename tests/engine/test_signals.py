"""A search signal is declared in one place (issue 47): its evidence, its weight in fusion and its part of the
result-cache key all come from its `Signal` in search/signals.py, so a signal added there moves the app's search
and its cache with nothing else touched."""

from __future__ import annotations

import dataclasses

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.search import signals
from tests.support.review_docs import three_docs


def test_the_shipped_signals_are_the_three_retrievers_and_topic_precision():
    assert [s.name for s in signals.SIGNALS] == ["dense", "keyword", "gloss", "topic"]
    assert all(s.finds is not None for s in signals.SIGNALS[:3])
    assert signals.SIGNALS[3].finds is None and signals.SIGNALS[3].settle is not None  # it scores and orders only


def test_a_signal_added_to_the_declaration_moves_the_search_and_its_cache_key(tmp_path, monkeypatch):
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64", translate_queries=False))
    engine.index([three_docs(tmp_path / "docs")])
    question = "green tea in two minutes"  # "minutes": the bus timetable is a candidate too
    retrievers = tuple(s for s in signals.SIGNALS if s.finds is not None)  # (the topic rule rescales the sum)
    monkeypatch.setattr(signals, "SIGNALS", retrievers)
    before = {h.path[-7:]: h.score for h in engine.search(question, 3)}
    assert list(before)[:2] == ["tea.txt", "bus.txt"]
    favoured = {"name": "bus.txt"}

    def evidence(pool: signals.Pool) -> dict[int, float]:  # a scorer: 1.0 for the favoured file's passages
        return {cid: 1.0 for cid, hit in pool.hits.items() if hit.path.endswith(favoured["name"])}

    extra = signals.Signal("favour", evidence, lambda pool, cid: 1.0, key=lambda keyed: favoured["name"])
    monkeypatch.setattr(signals, "SIGNALS", (*retrievers, extra))
    first = engine.search(question, 3)
    assert first[0].path.endswith("bus.txt") and first[0].score == pytest.approx(before["bus.txt"] + 1.0)  # 1 x 1
    favoured["name"] = "tea.txt"  # its key changed: the stored result is not served again
    again = engine.search(question, 3)
    assert again[0].path.endswith("tea.txt") and again[0].score == pytest.approx(before["tea.txt"] + 1.0)
    favoured["name"] = "bus.txt"
    silent = dataclasses.replace(extra, weight=lambda pool, cid: 0.0)
    monkeypatch.setattr(signals, "SIGNALS", (*signals.SIGNALS[:-1], silent))
    assert engine.search(question, 2)[0].path.endswith("tea.txt")  # its weight alone decides its say
    engine.close()
