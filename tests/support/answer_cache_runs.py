"""The answer cache's runs against the local chat-completions server: an engine answering with it, a question asked,
and a file edited after its answer was stored, on this computer (tests/engine/test_answer_cache.py) or a server
library (tests/postgres/test_carried_references.py)."""

from __future__ import annotations

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from tests.support.kept_vectors import write

QUESTION = "How often do city buses run at night?"


def open_engine(tmp_path, server, library: str | None = None, **changes) -> Engine:
    """An engine on `tmp_path / "home"` (or the server library `library`) answering with `server`'s model."""
    values = dict(embedding_model="hash:64", llm_base_url=server.base_url, llm_model="fake-model",
                  translate_queries=False)
    values.update(changes)
    return Engine(resolve_paths(tmp_path / "home"), Settings(**values), library=library)


def ask(engine, question=QUESTION, **kwargs):
    """Every event of the answer, and the last."""
    events = list(engine.ask(question, **kwargs))
    done = events[-1]
    return events, done


def edited_elsewhere(tmp_path, server, library: str | None = None, edited: int = 5):
    """bus.md of six paragraphs, a chunk each; the question's one passage (top_k 1) is the night buses' (with
    the neighbours it merges). Its answer is stored; then paragraph `edited` (the last) is edited and indexed
    again: the engine, the file, the first answer's passage and that answer."""
    folder = tmp_path / "docs"
    folder.mkdir()
    paragraphs = ["At night the city buses run every half hour along the main lines.",
                  "Bicycles may be taken on trains outside the rush hours for a small fee.",
                  "A monthly pass costs forty euros and is valid on every line of the network.",
                  "The ferry to the island leaves from the north pier on weekdays only.",
                  "Lost property is kept at the central station office for three months.",
                  "Trams cross the old town every twelve minutes from six in the morning."]
    bus = folder / "bus.md"
    write(bus, paragraphs)
    engine = open_engine(tmp_path, server, library, top_k=1, chunk_size=400, chunk_overlap=0)
    engine.index([folder])
    first_events, first = ask(engine)
    assert not first.cached and "At night" in first_events[0].hits[0].text
    write(bus, [p + " (Edited.)" if n == edited else p for n, p in enumerate(paragraphs)])
    assert engine.index().updated == 1
    return engine, bus, first_events[0].hits[0], first


def replayed_after_an_edit(tmp_path, server, library: str | None = None) -> None:
    """Their texts, places in the request and order are those the answer was made from: the stored answer is
    replayed, its sources and citation naming the chunks the library holds now. Before, the edit dropped it (its
    key hashed the chunk ids) and the model was asked again. (Also on a server: tests/postgres/
    test_carried_references.py.)"""
    engine, _, was, first = edited_elsewhere(tmp_path, server, library)
    try:
        events, done = ask(engine)
        now = events[0].hits[0]
        assert done.cached and done.answer == first.answer and server.streamed() == 1
        assert now.text == was.text and now.chunk_id != was.chunk_id and engine.held_passages([now]) == {now.chunk_id}
        assert first.cited and done.cited == (now,)
    finally:
        engine.close()
