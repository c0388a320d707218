"""Attack: the word list (`lexicon.sqlite3` in the data folder) damaged or replaced. With its tables dropped every
search of a bilingual library failed with an sqlite3.OperationalError traceback; with its tables replaced by
recursive views the search hung. Now the schema is checked when it is opened (three tables, no view; else it is
rebuilt), a lookup is bounded in time, and a lookup that fails is "no gloss", never a failed search."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from desktop_rag.engine.text.lexicon import Lexicon, open_lexicon

RECURSIVE = ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
             "SELECT 'x' || i AS {col}, 'y' AS {val} FROM n")  # per row: never folded away


def _replace_tables_with_views(path: Path) -> None:
    db = sqlite3.connect(path)
    with db:
        for table, col, val in (("zh_en", "word", "english"), ("en_zh", "phrase", "chinese")):
            db.execute(f"DROP TABLE {table}")
            db.execute(f"CREATE VIEW {table} AS " + RECURSIVE.format(col=col, val=val))
    db.close()


def _in_time(fn, seconds: float = 30.0):
    """fn() on a thread; its result, or a failure if it takes longer than `seconds` (a hang)."""
    out: list = []
    thread = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"hung for {seconds} s"
    return out[0]


@pytest.mark.parametrize("damage", ["views", "dropped"])
def test_a_replaced_word_list_is_rebuilt_when_opened(tmp_path: Path, built_lexicon: Path, damage: str):
    path = tmp_path / "lexicon.sqlite3"
    shutil.copy(built_lexicon, path)
    if damage == "views":
        _replace_tables_with_views(path)
    else:
        db = sqlite3.connect(path)
        db.execute("DROP TABLE en_zh")
        db.commit()
        db.close()
    lexicon = _in_time(lambda: open_lexicon(path))
    assert _in_time(lambda: lexicon.chinese("water")) and lexicon.english("水")


def test_a_word_list_damaged_while_open_gives_no_gloss_not_an_error(tmp_path: Path, built_lexicon: Path):
    path = tmp_path / "lexicon.sqlite3"
    shutil.copy(built_lexicon, path)
    lexicon = Lexicon(path)
    assert lexicon.chinese("water")
    _replace_tables_with_views(path)  # another process swaps the tables under the open connection
    assert _in_time(lambda: lexicon.chinese("glacier")) is None
    db = sqlite3.connect(path)
    db.execute("DROP VIEW en_zh")
    db.commit()
    db.close()
    assert _in_time(lambda: lexicon.chinese("water")) is None  # "no such table": no gloss


def test_a_bilingual_search_goes_on_with_a_replaced_word_list(tmp_path: Path, built_lexicon: Path):
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine.engine import Engine

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "en.txt").write_text("Glaciers\n\nThe glacier lost forty metres of ice.", encoding="utf-8")
    (docs / "zh.txt").write_text("冰川\n\n冰川在一个夏天失去了四十米的冰。", encoding="utf-8")
    paths = resolve_paths(tmp_path / "home")
    engine = Engine(paths, Settings(embedding_model="hash:64"))
    try:
        engine.index([docs])
        path = paths.data_dir / "lexicon.sqlite3"
        if path.exists():  # the suite's first-use build is a hard link to the run's word list: damage a copy
            shutil.copy(path, path.with_name("copy"))
            path.with_name("copy").replace(path)
        else:
            shutil.copy(built_lexicon, path)
        _replace_tables_with_views(path)
        hits = _in_time(lambda: engine.search("How much ice did the glacier lose?", 5))
        assert hits
    finally:
        engine.close()
