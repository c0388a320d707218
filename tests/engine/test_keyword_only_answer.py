"""An answer asked while the vectors still load in the background (Engine.warm_up on a thread of its own) does not wait for
them: its SourcesEvent says `keyword_only`, and the extractive answer's cross-language step (which needs the
model) is skipped instead of waiting. Once loaded, answers are dense again and not flagged.

Real engine and store; the deterministic hashing embedder (this is about waiting, not meaning). The load is held
back by taking the engine's own lock before it starts, as a slow disk or a large cache rebuild would hold it.
"""

from __future__ import annotations

import threading
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent

SETTINGS = Settings(embedding_model="hash:64")
QUESTION = "What speed does the centrifuge run at?"  # English; the only passage that has the word is Chinese
ANSWER_BOUND_S = 10.0


def _library(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "zh.md").write_text("# 离心机\n\n离心机（centrifuge）的转速是每分钟四千转，使用前必须盖好盖子。\n",
                                encoding="utf-8")
    (docs / "en.md").write_text("# Gardening\n\nTomatoes need six hours of sun a day.\n", encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), SETTINGS)
    report = engine.index([docs])
    assert report.added == 2 and engine.store.count_vectors() > 0
    engine.close()
    return tmp_path / "home"


def _ask_within_bound(engine: Engine) -> list:
    """The answer's events, asked on another thread (as the GUI does); fails if it waits past the bound."""
    events: list = []
    asker = threading.Thread(target=lambda: events.extend(engine.ask(QUESTION)), daemon=True)
    asker.start()
    asker.join(ANSWER_BOUND_S)
    assert not asker.is_alive(), "the answer waited for the vectors to load"
    return events


def test_an_answer_during_the_background_load_is_flagged_and_does_not_wait(tmp_path: Path) -> None:
    engine = Engine(resolve_paths(_library(tmp_path)), SETTINGS)  # the app reopens the library
    engine.runtime._lock.acquire()  # the background load (warm_up) waits here; searches and answers must not
    try:
        loader = threading.Thread(target=engine.warm_up, daemon=True)  # as the GUI's index worker does
        loader.start()
        while not engine.runtime.loading():  # the load has begun
            loader.join(0.01)
        events = _ask_within_bound(engine)
    finally:
        engine.runtime._lock.release()
    sources = next(e for e in events if isinstance(e, SourcesEvent))
    done = next(e for e in events if isinstance(e, DoneEvent))
    assert sources.keyword_only and [h.path.endswith("zh.md") for h in sources.hits] == [True]
    assert done.mode == "extractive" and "四千转" in done.answer

    loader.join(30)
    assert not loader.is_alive() and engine.runtime.dense_ready()
    events = _ask_within_bound(engine)
    sources = next(e for e in events if isinstance(e, SourcesEvent))
    assert not sources.keyword_only and sources.hits
    engine.close()
