"""Marks on an edited file's unchanged passages follow them to their new chunk ids on a library on a server as on
this computer's (store/carried_references.py; tests/engine/test_carried_references.py): the same edit, a real
PostgreSQL server with pgvector, no stand-in."""

from __future__ import annotations

import pytest

from desktop_rag.config import resolve_paths
from desktop_rag.engine.engine import Engine
from tests.support.carried_marks import HASHED, marked_right_stays_first, marked_wrong_stays_out


@pytest.mark.parametrize("scenario", [marked_wrong_stays_out, marked_right_stays_first])
def test_marks_follow_the_unchanged_passages_of_an_edited_file(pg_library, tmp_path, scenario):
    engine = Engine(resolve_paths(tmp_path / "home"), HASHED, library=pg_library)
    try:
        scenario(engine, tmp_path / "docs")
    finally:
        engine.close()
