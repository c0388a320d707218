"""An edited file keeps the vectors of its unchanged passages on a library on a server as on this computer's
(store/kept_vectors.py; tests/engine/test_kept_vectors.py): the same edit through the real bundled models, the
passages the Embedder is asked for counted; a real PostgreSQL server with pgvector, no stand-in."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from tests.support.kept_vectors import (CHANGED, NEW_TEXT, PARAGRAPHS, SETTINGS, chunks, edit_one_paragraph,
                                        switch_half_staged, watch, write)


@pytest.fixture
def seen(monkeypatch) -> dict[str, list[str]]:
    return watch(monkeypatch)


def _open(home: Path, url: str, settings: Settings = SETTINGS) -> Engine:
    return Engine(resolve_paths(home), settings, library=url)


def test_one_edited_paragraph_is_the_only_passage_embedded_again(pg_library, tmp_path, seen):
    folder = tmp_path / "docs"
    folder.mkdir()
    engine = _open(tmp_path / "home", pg_library)
    try:
        edit_one_paragraph(engine, folder, seen)
    finally:
        engine.close()


def test_a_model_switch_in_progress_stays_unmixed(pg_library, tmp_path, seen):
    folder = tmp_path / "docs"
    folder.mkdir()
    engine = _open(tmp_path / "home", pg_library)
    try:
        switch_half_staged(engine, lambda settings: _open(tmp_path / "home", pg_library, settings), folder,
                           seen).close()
    finally:
        engine.close()



def test_passages_under_a_heading_holding_a_nul_character_keep_their_vectors(pg_library, tmp_path, monkeypatch):
    """PostgreSQL stores a NUL character as U+FFFD (a Markdown heading keeps one: a UTF-16 file may hold it, its BOM
    says it is text): the unchanged passages under such a heading are matched as stored, not embedded again with
    the paragraph edited beside them."""
    seen = watch(monkeypatch)
    folder, heading = tmp_path / "docs", "Notes\x00of the team"
    folder.mkdir()
    write(folder / "notes.md", PARAGRAPHS, heading, "utf-16")
    engine = _open(tmp_path / "home", pg_library, dataclasses.replace(SETTINGS, embedding_model="hash:64"))
    try:
        assert engine.index([folder]).embedded == len(PARAGRAPHS)
        assert {r[1] for r in chunks(engine)} == {"Notes\ufffdof the team"}
        seen.clear()
        write(folder / "notes.md", PARAGRAPHS[:CHANGED] + [NEW_TEXT] + PARAGRAPHS[CHANGED + 1:], heading, "utf-16")
        report = engine.index()
        assert report.updated == 1 and report.kept == len(PARAGRAPHS) - 1  # all 12 embedded again before
        assert len(seen["hash:64"]) == report.embedded == 1 and NEW_TEXT in seen["hash:64"][0]
    finally:
        engine.close()
