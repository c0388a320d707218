"""An empty path is refused, not read as the current folder: `desktop-rag index "$DIR"` with DIR unset added the
folder the command ran in (a home folder, say) as a source and indexed all of it; `link SOURCE ""` linked there.

The hashing embedder (`hash:64`): these tests are about which sources exist, not about meaning.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import UsageError

FAST = Settings(embedding_model="hash:64")


@pytest.fixture()
def in_a_folder_of_documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    (cwd / "private.txt").write_text("Nothing here was chosen for the library.", encoding="utf-8")
    monkeypatch.chdir(cwd)
    return cwd


@pytest.mark.parametrize("blank", ["", "   "])
def test_index_of_an_empty_path_adds_no_source(in_a_folder_of_documents, tmp_path: Path, blank: str):
    engine = Engine(resolve_paths(tmp_path / "home"), FAST)
    try:
        with pytest.raises(UsageError, match="empty path"):
            engine.index([blank])
        assert engine.status().sources == () and engine.status().files_total == 0
    finally:
        engine.close()


def test_a_not_linked_source_is_not_linked_to_an_empty_path(in_a_folder_of_documents, tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text("Pumped hydro stores energy.", encoding="utf-8")
    source = Engine(resolve_paths(tmp_path / "source"), FAST)
    try:
        source.index([docs])
        source.export_collection(source.collection_id("Default"), tmp_path / "a.zip")
    finally:
        source.close()
    engine = Engine(resolve_paths(tmp_path / "home"), FAST)
    try:
        engine.import_archive(tmp_path / "a.zip", name="Imported")
        with pytest.raises(UsageError, match="empty path"):
            engine.relink_source(str(docs), "")
        assert engine.status().not_linked == (str(docs),)
    finally:
        engine.close()
