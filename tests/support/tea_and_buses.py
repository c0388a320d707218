"""A library of two one-sentence documents (tea, city buses), indexed with the hashing embedder: for tests of what
happens around a search (caching, a question's length), not of ranking."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine


@contextmanager
def tea_and_buses(tmp_path: Path) -> Iterator[Engine]:
    """An engine on `tmp_path / "home"` that indexed `tmp_path / "docs"`: tea.txt and bus.txt; closed afterwards."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tea.txt").write_text("Green tea is brewed with water at about eighty degrees.", encoding="utf-8")
    (docs / "bus.txt").write_text("City buses run every ten minutes during the day.", encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    try:
        engine.index([docs])
        yield engine
    finally:
        engine.close()
