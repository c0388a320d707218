"""A read-only engine (the MCP server) never writes the word list into the data folder: it opens a good one there
read-only, or builds a private copy elsewhere (removed when it closes); its searches still use it."""

from __future__ import annotations

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine

SETTINGS = Settings(embedding_model="hash:64")


def _library(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "火车票.txt").write_text("学生购买火车票可以享受半价优惠，需要出示学生证。", encoding="utf-8")
    (docs / "bus.txt").write_text("City buses run every ten minutes during the day.", encoding="utf-8")
    paths = resolve_paths(tmp_path / "home")
    writer = Engine(paths, SETTINGS)
    writer.index([docs])
    writer.close()
    return paths


def _word_lists(folder) -> set[str]:
    """The word list's files in the data folder (its temporary build files too)."""
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if "lexicon" in p.name}


def test_a_read_only_engine_builds_no_word_list_in_the_data_folder(tmp_path):
    paths = _library(tmp_path)
    assert _word_lists(paths.data_dir) == set()
    reader = Engine(paths, SETTINGS, read_only=True)
    try:
        reader.search("Which ticket discount do students get?", 3)  # a bilingual library: the gloss is used
        lexicon = reader.runtime.lexicon()
        assert lexicon is not None and lexicon.chinese("ticket")
        assert not lexicon.path.is_relative_to(paths.data_dir)
        assert _word_lists(paths.data_dir) == set()
    finally:
        reader.close()
    assert not lexicon.path.exists(), "the private copy goes when the engine closes"


def test_a_read_only_engine_reads_the_data_folders_word_list(tmp_path):
    paths = _library(tmp_path)
    writer = Engine(paths, SETTINGS)
    built = writer.runtime.lexicon().path
    writer.close()
    reader = Engine(paths, SETTINGS, read_only=True)
    try:
        assert reader.runtime.lexicon().path == built == paths.data_dir / "lexicon.sqlite3"
    finally:
        reader.close()
