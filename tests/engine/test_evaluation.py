"""`Engine.review.evaluate` in process (issue 39): one collection's labelled questions, progress, cancel."""

from __future__ import annotations

import threading

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.answer.events import SourcesEvent


def test_one_collection_progress_and_cancel(tmp_path, monkeypatch):
    home, tea, bus = tmp_path / "home", tmp_path / "tea", tmp_path / "bus"
    for folder, name, text in ((tea, "tea.txt", "Green tea is brewed with water at about eighty degrees."),
                               (tea, "black.txt", "Black tea takes boiling water and four minutes."),
                               (bus, "bus.txt", "City buses run every half hour at night.")):
        folder.mkdir(exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    engine = Engine(resolve_paths(home), Settings(embedding_model="hash:64"))
    drinks, transport = engine.create_collection("Drinks"), engine.create_collection("Transport")
    engine.index([tea], collection=drinks)
    engine.index([bus], collection=transport)
    for question, name in (("How hot should the water be for green tea?", "tea.txt"),
                           ("How long does black tea steep?", "black.txt"),
                           ("When do buses run at night?", "bus.txt")):
        events = list(engine.ask(question))
        right = next(h for h in next(e.hits for e in events if isinstance(e, SourcesEvent)) if h.path.endswith(name))
        engine.review.mark_passage(events[-1].answer_id, right.chunk_id)
    seen = []
    report = engine.review.evaluate(drinks, progress=lambda done, total: seen.append((done, total)))
    assert report.main.queries == 2 and seen == [(1, 2), (2, 2)] and not report.cancelled
    assert report.main.recall_at_5 == 1.0 and report.main.precision_at_5 == 0.2  # only its two files searched
    assert engine.review.evaluate().main.queries == 3
    monkeypatch.setattr("desktop_rag.engine.review.evaluation.COMPRESSION_SAMPLE", 2)  # the slow modes: a sample
    sampled = {m.mode: m.queries for m in engine.review.evaluate().modes}
    assert sampled == {"hybrid": 3, "dense": 3, "keyword": 3, "compression off": 2, "compression on": 2}
    stop = threading.Event()
    stop.set()
    cancelled = engine.review.evaluate(cancel=stop)
    assert cancelled.cancelled and cancelled.main.queries == 0
    engine.close()


def test_a_marked_passage_survives_another_chunk_size_and_goes_stale_when_its_words_change(tmp_path):
    home, docs = tmp_path / "home", tmp_path / "docs"
    docs.mkdir()
    filler = " ".join(f"Note {n} is about nothing in particular." for n in range(12))
    (docs / "tea.txt").write_text(f"{filler}\n\nGreen tea is brewed with water at about eighty degrees. It steeps "
                                  f"for two minutes. {filler}", encoding="utf-8")
    (docs / "bus.txt").write_text("City buses run every half hour at night.", encoding="utf-8")
    engine = Engine(resolve_paths(home), Settings(embedding_model="hash:64", chunk_size=400, chunk_overlap=40))
    engine.index([docs])
    question = "How hot should the water be for green tea?"
    events = list(engine.ask(question))
    right = next(h for h in next(e.hits for e in events if isinstance(e, SourcesEvent)) if "eighty" in h.text)
    engine.review.mark_passage(events[-1].answer_id, right.chunk_id)
    engine.close()

    engine = Engine(resolve_paths(home), Settings(embedding_model="hash:64", chunk_size=150, chunk_overlap=20))
    engine.reindex()
    assert not engine.store.hits_for([(right.chunk_id, 0.0)]), "every chunk is new"
    report = engine.review.evaluate()
    assert report.stale == () and report.main.queries == 1 and report.main.recall_at_5 == 1.0
    eighty = next(cid for cid, text in engine.store.db.execute("SELECT id, text FROM chunks")
                  if "eighty" in text)
    with engine.store.transaction() as db:  # the words at the marked place change
        db.execute("UPDATE chunks SET text = replace(text, 'eighty', 'ninety') WHERE id = ?", (eighty,))
    report = engine.review.evaluate()
    assert report.main.queries == 0 and [(s.question, s.reason) for s in report.stale] == [(question, "changed")]
    engine.close()


def test_an_over_long_line_is_refused_without_being_read_whole(tmp_path) -> None:
    """Issue 49 item 9: `eval --queries` read a 300 MB line into memory (658 MB) before refusing it; now at most
    `labelled.MAX_LINE` characters of it are read."""
    import tracemalloc

    from desktop_rag.engine.errors import UsageError
    from desktop_rag.engine.review import labelled

    queries = tmp_path / "q.jsonl"
    with open(queries, "w", encoding="utf-8") as handle:
        handle.write('{"_id": "1", "text": "fine"}\n{"_id": "2", "text": "')
        for _ in range(30):
            handle.write("x" * (1 << 20))  # 30 MB on one line
        handle.write('"}\n')
    tracemalloc.start()
    try:
        with pytest.raises(UsageError, match=", line 2: line too long"):
            labelled._queries(queries)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20, f"{peak / 1e6:.1f} MB held for a line refused at {labelled.MAX_LINE:,} characters"
