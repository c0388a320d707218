"""The library's language flags (store/languages.py): set by index runs, read by status and the default model.
A status read racing a new library's first index run must never remember "no Chinese" over the run's flag."""

from __future__ import annotations

import sqlite3

from desktop_rag.engine.store.languages import library_has_cjk, library_languages, note_chunk_texts
from desktop_rag.engine.store.values import ChunkDraft
from desktop_rag.engine.store.sqlite.store import SqliteStore as Store

ZH = "冲泡绿茶的水温一般在八十度左右。"
EN = "Green tea is brewed at about eighty degrees."


def _index(store: Store, folder, name: str, text: str) -> None:
    """What an index run does for one file: its chunks committed, then the library's flags noted."""
    source = store.add_source(str(folder), "folder")
    store.replace_file_chunks(source, str(folder / name), 1, 1, name, [ChunkDraft(0, text, None, "", 0, len(text))])
    note_chunk_texts(store, [text])


def test_flags_follow_what_was_indexed(tmp_path):
    store = Store(tmp_path / "lib.db")
    assert not library_has_cjk(store) and store.get_meta("has_cjk") is None  # empty: nothing remembered yet
    _index(store, tmp_path, "en.txt", EN)
    assert library_languages(store) == {"en"}
    _index(store, tmp_path, "zh.txt", ZH)
    assert library_has_cjk(store) and library_languages(store) == {"zh", "en"}
    store.close()


def test_a_library_from_before_the_flags_is_scanned_once_and_remembered(tmp_path):
    store = Store(tmp_path / "lib.db")
    _index(store, tmp_path, "zh.txt", ZH)
    store.db.execute("DELETE FROM meta WHERE key IN ('has_cjk', 'has_latin')")
    assert library_has_cjk(store) and store.get_meta("has_cjk") == "1"
    assert library_languages(store) == {"zh"} and store.get_meta("has_latin") == "0"
    store.close()


def test_a_status_read_racing_the_first_index_run_keeps_its_chinese(tmp_path):
    """The index run commits its Chinese chunk and flag just after the status read scanned an empty library
    (on the reader's next statement); once both are done the library must say it holds Chinese."""
    path = tmp_path / "lib.db"
    reader, indexer = Store(path), Store(path)
    indexer.db.execute("PRAGMA busy_timeout=0")  # a writer blocked by the reader's transaction gives up at once
    scanned, deferred = [], []

    def index_run() -> None:
        try:
            _index(indexer, tmp_path, "绿茶.md", ZH)
        except sqlite3.OperationalError as exc:  # the reader holds the write lock: the run commits after it
            assert "locked" in str(exc)
            deferred.append(True)

    def trace(sql: str) -> None:
        if scanned == [True] and "GLOB" not in sql:  # the statement right after the reader's scan
            scanned.append(False)
            index_run()
        elif "GLOB" in sql and not scanned:
            scanned.append(True)

    reader.db.set_trace_callback(trace)
    first = library_has_cjk(reader)
    reader.db.set_trace_callback(None)
    assert scanned == [True, False]  # the race happened where it was meant to
    if deferred:
        assert not first
        index_run()
    assert library_has_cjk(reader) and library_has_cjk(indexer)
    reader.close()
    indexer.close()
