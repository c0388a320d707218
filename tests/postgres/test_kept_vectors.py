"""An edited file keeps the vectors of its unchanged passages on a library on a server as on this computer's
(store/kept_vectors.py; tests/engine/test_kept_vectors.py): the same edit through the real bundled models, the
passages the Embedder is asked for counted; a real PostgreSQL server with pgvector, no stand-in."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from tests.support.kept_vectors import SETTINGS, edit_one_paragraph, switch_half_staged, watch


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
