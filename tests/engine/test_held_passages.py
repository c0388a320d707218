"""`Engine.held_passages`: which cited passages the library still holds as they were cited (the viewer says a passage
is gone since the answer only for the others). After an edit: a changed passage is not held, an unchanged one is held
under its new chunk only; a chunk id that names another text now (an id freed and used again) is not the passage."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine

KEPT = "Herons build their nests of sticks in alder trees beside the lake, year after year. " * 4
CHANGED = "A sourdough loaf needs a ripe starter and a long cold rise overnight in the cellar. " * 4
EDITED = "A rye loaf wants flour, salt and water and a warm kitchen for the whole of the day. " * 4


def _chunks(engine) -> list:
    """The library's passages, one chunk each, in order."""
    ids = [row[0] for row in engine.store.db.execute("SELECT id FROM chunks ORDER BY file_id, ordinal")]
    return engine.store.hits_for([(i, 0.0) for i in ids])


def test_a_changed_passage_is_not_held_an_unchanged_one_is_under_its_new_chunk(tmp_path: Path):
    note = tmp_path / "docs" / "notes.md"
    note.parent.mkdir()
    note.write_text(f"# Herons\n\n{KEPT}\n\n# Bread\n\n{CHANGED}\n", encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:8"))
    try:
        engine.index([note.parent])
        heron, bread = _chunks(engine)
        merged = engine.search("sourdough starter", k=1)[0]  # both chunks as one passage, named by the second
        assert merged.chunk_id == bread.chunk_id and heron.text in merged.text and KEPT.strip() in heron.text
        assert engine.held_passages((heron, bread, merged)) == {heron.chunk_id, bread.chunk_id}
        assert engine.held_passages((replace(heron, text="Another passage now"),)) == frozenset()
        assert engine.held_passages((replace(heron, path="/elsewhere/notes.md"),)) == frozenset()

        note.write_text(f"# Herons\n\n{KEPT}\n\n# Bread\n\n{EDITED}\n", encoding="utf-8")
        engine.index([note.parent])
        now = _chunks(engine)[0]
        assert now.chunk_id != heron.chunk_id and now.text == heron.text  # the unchanged passage, on a new chunk
        assert engine.held_passages((heron, bread, merged, now)) == {now.chunk_id}
    finally:
        engine.close()
