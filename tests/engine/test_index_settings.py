"""One list of the settings an index is built with: each chunking setting asks for a re-index, the model does not."""

from __future__ import annotations

import dataclasses

import pytest

from desktop_rag.config import CHUNKING_SETTINGS, INDEX_SETTINGS, Settings
from tests.support.index_runs import HASH, make_engine, write_docs

CHANGED = {"chunk_size": 300, "chunk_overlap": 20}


def test_the_lists_name_settings():
    fields = {f.name for f in dataclasses.fields(Settings)}
    assert set(INDEX_SETTINGS) <= fields and set(CHUNKING_SETTINGS) < set(INDEX_SETTINGS)
    assert set(CHANGED) == set(CHUNKING_SETTINGS)  # a new chunking setting gets a case below
    assert HASH.index_params == {name: getattr(HASH, name) for name in INDEX_SETTINGS}


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    root = tmp_path_factory.mktemp("index-settings")
    write_docs(root / "docs", 2)
    engine = make_engine(root / "home")
    engine.index([root / "docs"])
    yield engine
    engine.close()


@pytest.mark.parametrize("name", CHUNKING_SETTINGS)
def test_each_chunking_setting_needs_a_reindex_and_keeping_the_index_settings_undoes_it(engine, name):
    changed = HASH.replace(**{name: CHANGED[name]})
    assert engine.needs_reindex(changed)
    assert not engine.needs_reindex(changed.replace(**HASH.index_params))  # what the settings flow does on "No"


def test_other_settings_do_not_need_a_reindex(engine):
    assert not engine.needs_reindex(HASH.replace(embedding_model="hash:32"))  # re-embedded in the background
    assert not engine.needs_reindex(HASH.replace(top_k=9, ocr_enabled=False, max_file_mb=5.0))
