"""An edited file keeps the vectors of its passages that did not change (store/kept_vectors.py): through the real
bundled models, only new and changed passages reach the Embedder; the search finds the unchanged and the new
passages with their own vectors; the FAISS cache stays the stored vectors'; a model switch in progress stays
unmixed; a re-read that fails leaves the old file whole. The same edit on a server: tests/postgres."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from desktop_rag.config import BUNDLED_MODEL, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import DiskFullError
from desktop_rag.engine.models.embedding import embedding_text
from desktop_rag.engine.store.sqlite.store import SqliteStore
from desktop_rag.engine.store.sqlite.vector_index import VectorIndex
from tests.support.kept_vectors import (
    CHANGED, NEW_TEXT, PARAGRAPHS, SETTINGS, assert_vectors_of, chunks, edit_one_paragraph, switch_half_staged, watch,
    write,
)


@pytest.fixture
def seen(monkeypatch) -> dict[str, list[str]]:
    return watch(monkeypatch)


@pytest.fixture
def engine(tmp_path):
    engine = Engine(resolve_paths(tmp_path / "home"), SETTINGS)
    yield engine
    engine.close()


def _cache_is_the_store(engine: Engine) -> None:
    """The loaded FAISS cache and the one saved on disk hold exactly the stored vectors' ids, at their generation."""
    stored = engine.store.vector_ids()
    assert np.array_equal(engine.runtime.vectors().ids(), stored)
    saved, generation = VectorIndex.load(engine.paths.vector_index)
    assert generation == engine.store.vectors_generation() and np.array_equal(saved.ids(), stored)


def test_one_edited_paragraph_is_the_only_passage_embedded_again(engine, tmp_path, seen):
    folder = tmp_path / "docs"
    folder.mkdir()
    edit_one_paragraph(engine, folder, seen, _cache_is_the_store)


def test_repeated_texts_take_a_vector_each_and_a_heading_is_part_of_the_embedded_text(engine, tmp_path, seen):
    doc = tmp_path / "docs" / "guide.md"
    doc.parent.mkdir()
    a, b, c = (" ".join([p] * 3) for p in (PARAGRAPHS[0], PARAGRAPHS[5], PARAGRAPHS[9]))
    doc.write_text(f"# Guide\n\n{a}\n\n{a}\n\n{b}\n\n## Coffee\n\n{c}\n\n{b}\n", encoding="utf-8")
    engine.index([doc.parent])
    seen.clear()
    # the repeated paragraph once more; the last section renamed: its passages are embedded under their new heading,
    # the one whose text is unchanged too (the same text under another heading is another embedded text)
    doc.write_text(f"# Guide\n\n{a}\n\n{a}\n\n{a}\n\n{b}\n\n## Tea\n\n{c}\n\n{b}\n", encoding="utf-8")
    report = engine.index()
    renamed = [embedding_text(h, t) for _, h, t in chunks(engine) if h.endswith("Tea")]
    assert len(renamed) == 2 and sorted(seen[BUNDLED_MODEL]) == sorted(renamed) and report.embedded == 2
    assert [t for _, _, t in chunks(engine)].count(a) == 2
    assert_vectors_of(engine, BUNDLED_MODEL)
    _cache_is_the_store(engine)


def test_a_model_switch_in_progress_stays_unmixed(engine, tmp_path, seen):
    folder = tmp_path / "docs"
    folder.mkdir()
    switching = switch_half_staged(engine, lambda settings: Engine(resolve_paths(tmp_path / "home"), settings),
                                   folder, seen)
    try:
        assert np.array_equal(switching.runtime.vectors().ids(), switching.store.vector_ids())
    finally:
        switching.close()


def test_a_reread_that_fails_leaves_the_old_file_whole(engine, tmp_path, seen, monkeypatch):
    folder = tmp_path / "docs"
    folder.mkdir()
    doc = folder / "notes.md"
    write(doc, PARAGRAPHS)
    engine.index([folder])
    before, vectors = chunks(engine), engine.store.stored_vectors([r[0] for r in chunks(engine)])
    edited = list(PARAGRAPHS)
    edited[CHANGED] = NEW_TEXT
    write(doc, edited)
    copy = SqliteStore.copy_vectors

    def full(self, table, pairs):  # the disk fills while the old vectors are copied to the new passages
        copy(self, table, pairs)
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(SqliteStore, "copy_vectors", full)
    with pytest.raises(DiskFullError):
        engine.index()
    assert chunks(engine) == before and engine.store.file_by_path(str(doc)).status == "indexed"
    kept = engine.store.stored_vectors([r[0] for r in before])
    assert sorted(kept) == sorted(vectors) and all(np.array_equal(kept[i], vectors[i]) for i in vectors)
    assert np.array_equal(engine.runtime.vectors().ids(), engine.store.vector_ids())
    monkeypatch.setattr(SqliteStore, "copy_vectors", copy)
    seen.clear()
    report = engine.index()
    assert report.updated == 1 and report.embedded == len(seen[BUNDLED_MODEL]) == 1
