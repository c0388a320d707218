"""The rules of store/kept_vectors.py, one at a time on the store itself (no model: vectors written by the test, so
each one can be told apart): a new chunk takes the vector, and the staged vector, of an old chunk of its file with
its embedded text (heading and text), each from its own table; the old chunks go, however many; the report says
which vectors went and which new chunks took one, and the cache's stamp moves only then. The whole edit through
the real models: test_kept_vectors.py (the mutation row `kept_vectors` runs this file: seconds, not minutes)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store import staged_vectors
from desktop_rag.engine.store.values import ChunkDraft, ReplacedChunks

DIM = 8


@pytest.fixture
def lib(tmp_path: Path):
    folder = tmp_path / "docs"
    folder.mkdir()
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model=f"hash:{DIM}"))
    source = engine.add_sources([folder])[0]
    yield engine.store, source.id, str(folder / "notes.md")
    engine.close()


def _drafts(*parts: tuple[str, str]) -> list[ChunkDraft]:
    """Chunks of (heading, text), in order."""
    return [ChunkDraft(n, text, None, heading, 10 * n, 10 * n + len(text)) for n, (heading, text) in enumerate(parts)]


def _put(store, source: int, path: str, *parts: tuple[str, str]) -> ReplacedChunks:
    return store.replace_file_chunks(source, path, 1, 1, "sha", _drafts(*parts), Reason())


def _ids(store) -> list[int]:
    return [r[0] for r in store.db.execute("SELECT id FROM chunks ORDER BY ordinal")]


def _vector(n: float) -> np.ndarray:
    return np.full(DIM, n, np.float32)


def _give(store, ids: list[int], values: list[float], staged: bool = False) -> None:
    """Each chunk of `ids` the vector full of its value (a staged one if `staged`)."""
    store.add_vectors(ids, np.stack([_vector(v) for v in values]), staged=staged)


def _table(store, table: str) -> dict[int, float]:
    """{chunk id: the value its row of `table` is full of}."""
    return {r[0]: float(np.frombuffer(r[1], np.float32)[0])
            for r in store.db.execute(f"SELECT chunk_id, vector FROM {table}")}


def test_an_unchanged_passage_keeps_its_vector_and_a_changed_one_waits(lib):
    store, source, path = lib
    _put(store, source, path, ("A", "one"), ("A", "two"), ("B", "three"))
    old = _ids(store)
    _give(store, old, [1, 2, 3])
    replaced = _put(store, source, path, ("A", "one"), ("A", "changed"), ("B", "three"), ("B", "new"))
    new = _ids(store)
    assert not set(new) & set(old) and store.db.execute("SELECT count(*) FROM chunks").fetchone()[0] == 4
    assert _table(store, "vectors") == {new[0]: 1, new[2]: 3}
    assert replaced.dropped == old and replaced.reused == [new[0], new[2]]
    assert [r[0] for r in store.db.execute("SELECT c.id FROM chunks c LEFT JOIN vectors v ON v.chunk_id = c.id "
                                           "WHERE v.chunk_id IS NULL ORDER BY c.id")] == [new[1], new[3]]


def test_the_heading_is_part_of_the_embedded_text(lib):
    store, source, path = lib
    _put(store, source, path, ("A", "one"), ("A", "two"))
    _give(store, _ids(store), [1, 2])
    replaced = _put(store, source, path, ("Other", "one"), ("A", "two"))
    new = _ids(store)
    assert _table(store, "vectors") == {new[1]: 2} and replaced.reused == [new[1]]


def test_a_repeated_text_gives_every_copy_the_first_old_ones_vector(lib):
    store, source, path = lib
    _put(store, source, path, ("A", "same"), ("A", "same"), ("A", "other"))
    _give(store, _ids(store), [1, 2, 3])
    _put(store, source, path, ("A", "same"), ("A", "same"), ("A", "same"))
    assert sorted(_table(store, "vectors").values()) == [1, 1, 1]


def test_each_table_gives_its_own_rows_during_a_switch(lib):
    """A chunk with a vector and a staged vector passes on both; one with only one of them passes on that one:
    the other table's queue embeds the new chunk, nothing is mixed."""
    store, source, path = lib
    _put(store, source, path, ("A", "both"), ("A", "vector only"), ("A", "staged only"), ("A", "neither"))
    old = _ids(store)
    _give(store, old[:2], [1, 2])
    staged_vectors.begin(store, "hash:4")
    _give(store, [old[0], old[2]], [10, 30], staged=True)
    replaced = _put(store, source, path, ("A", "neither"), ("A", "staged only"), ("A", "vector only"), ("A", "both"))
    new = _ids(store)
    assert _table(store, "vectors") == {new[3]: 1, new[2]: 2}
    assert _table(store, "staged_vectors") == {new[3]: 10, new[1]: 30}
    assert replaced.dropped == old[:2] and sorted(replaced.reused) == sorted([new[3], new[2]])


def test_no_vector_kept_nor_dropped_leaves_the_cache_stamp(lib):
    store, source, path = lib
    _put(store, source, path, ("A", "one"))
    before = store.vectors_generation()
    assert _put(store, source, path, ("A", "one")) == ReplacedChunks([], [])  # it had no vector: nothing moved
    assert store.vectors_generation() == before
    _give(store, _ids(store), [1])
    given = store.vectors_generation()
    assert _put(store, source, path, ("A", "one")).reused and store.vectors_generation() > given
    kept = store.vectors_generation()
    assert _put(store, source, path, ("A", "two")).dropped and store.vectors_generation() > kept


def test_a_file_of_more_chunks_than_one_statement_takes_is_replaced_whole(lib):
    store, source, path = lib
    parts = [("A", f"passage {i}") for i in range(1234)]
    _put(store, source, path, *parts)
    _give(store, _ids(store), list(range(1234)))
    replaced = _put(store, source, path, *parts[1:], ("A", "new"))
    assert store.db.execute("SELECT count(*) FROM chunks").fetchone()[0] == 1234
    assert len(replaced.dropped) == 1234 and len(replaced.reused) == 1233
    assert sorted(_table(store, "vectors").values()) == list(range(1, 1234))
