"""The passage marked right stays inside the scope it was marked in (issue 49, item 4): once its file moves to
another folder or collection, is renamed to another type, or another file takes its path, the same question asked
in the first scope neither returns nor cites it; one test per part of a scope (collection, folders, files,
types). Before the move each test checks that the rule does put the marked passage first there."""

from __future__ import annotations

import os
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.paths import normalise_path
from tests.support.review_docs import TEA

TEA_TEXT = "Green tea is brewed with water at about eighty degrees for two minutes."
BUS_TEXT = "City buses run every ten minutes during the day and every half hour at night."


def engine_for(tmp_path: Path) -> Engine:
    return Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64", translate_queries=False))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def answered(engine: Engine, **scope) -> tuple[list, DoneEvent]:
    events = list(engine.ask(TEA, **scope))
    return list(next(e.hits for e in events if isinstance(e, SourcesEvent))), events[-1]


def marked(engine: Engine, path: Path, **scope) -> int:
    """Ask TEA in `scope`, mark the passage of `path` right, check that it now comes first there; its chunk id."""
    sources, done = answered(engine, **scope)
    chunk = next(h.chunk_id for h in engine.search(BUS_TEXT, 5) if h.path == normalise_path(path))
    engine.review.mark_passage(done.answer_id, chunk, right=True)
    assert answered(engine, **scope)[0][0].chunk_id == chunk, "the rule does not apply in the scope it was marked in"
    return chunk


def moved(engine: Engine, source: Path, target: Path, chunk: int) -> None:
    """Move the file on disk and re-index: the same content under the new path keeps its passages."""
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(source, target)
    engine.index()
    assert engine.search(BUS_TEXT, 1)[0].chunk_id == chunk and engine.search(BUS_TEXT, 1)[0].path == str(target)


def assert_not_given(engine: Engine, gone: Path, **scope) -> None:
    sources, done = answered(engine, **scope)
    assert str(gone) not in {h.path for h in sources}, "a passage from outside the scope was given"
    assert str(gone) not in {h.path for h in done.cited}, "a passage from outside the scope was cited"


def test_a_passage_moved_to_another_collection_is_not_given_in_the_first(tmp_path):
    work, home = tmp_path / "docs" / "a", tmp_path / "docs" / "b"
    write(work / "tea.md", TEA_TEXT)
    bus = write(work / "x.md", BUS_TEXT)
    write(home / "note.md", "The office moves to the fifth floor on Monday.")
    engine = engine_for(tmp_path)
    work_id, home_id = engine.create_collection("Work"), engine.create_collection("Home")
    engine.index([work], collection=work_id)
    engine.index([home], collection=home_id)
    chunk = marked(engine, bus, collection=work_id)
    moved(engine, bus, home / "x.md", chunk)
    assert_not_given(engine, home / "x.md", collection=work_id)
    engine.close()


def test_a_passage_moved_to_another_folder_is_not_given_in_the_first(tmp_path):
    root = tmp_path / "docs"
    write(root / "a" / "tea.md", TEA_TEXT)
    bus = write(root / "a" / "x.md", BUS_TEXT)
    write(root / "b" / "note.md", "The office moves to the fifth floor on Monday.")
    engine = engine_for(tmp_path)
    engine.index([root])
    chunk = marked(engine, bus, folders=[str(root / "a")])
    moved(engine, bus, root / "b" / "x.md", chunk)
    assert_not_given(engine, root / "b" / "x.md", folders=[str(root / "a")])
    engine.close()


def test_a_passage_whose_file_left_the_asked_files_is_not_given_for_them(tmp_path):
    root = tmp_path / "docs"
    bus = write(root / "a" / "x.md", BUS_TEXT)
    write(root / "a" / "tea.md", TEA_TEXT)
    engine = engine_for(tmp_path)
    engine.index([root])
    chunk = marked(engine, bus, files=[str(bus)])
    moved(engine, bus, root / "b" / "x.md", chunk)
    write(bus, TEA_TEXT + " Another file now has this path.")  # the question's file exists again: the scope is valid
    engine.index()
    assert_not_given(engine, root / "b" / "x.md", files=[str(bus)])
    engine.close()


def test_a_passage_renamed_to_another_type_is_not_given_for_the_first_type(tmp_path):
    root = tmp_path / "docs"
    write(root / "tea.md", TEA_TEXT)
    bus = write(root / "x.md", BUS_TEXT)
    engine = engine_for(tmp_path)
    engine.index([root])
    chunk = marked(engine, bus, types=["md"])
    moved(engine, bus, root / "x.txt", chunk)
    assert_not_given(engine, root / "x.txt", types=["md"])
    engine.close()
