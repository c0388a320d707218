"""Attack: an MCP client (an AI tool the user connected) asks for k=1000 passages, k=0 or k=-5, or sends a
megabyte-long query. The server clamps k to 1..50 and cuts the query to 4,000 characters; these assertions fail
if either guard is removed (the earlier suite stayed green without them)."""

from __future__ import annotations

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import Engine
from desktop_rag.mcp_server import MAX_K, MAX_QUERY_CHARS, LibraryTools


@pytest.fixture(scope="module")
def tools(tmp_path_factory) -> LibraryTools:
    root = tmp_path_factory.mktemp("mcp-limits")
    docs = root / "docs"
    docs.mkdir()
    for n in range(MAX_K + 15):  # more passages than the clamp allows
        (docs / f"note{n:03}.txt").write_text(f"Note {n}\n\nThe harbour ferry timetable, entry number {n}.",
                                              encoding="utf-8")
    paths = resolve_paths(root / "home")
    engine = Engine(paths, Settings(embedding_model="hash:64"))
    engine.index([docs])
    engine.close()
    paths.ensure()
    paths.settings_file.write_text('{"embedding_model": "hash:64"}', encoding="utf-8")
    library = LibraryTools(paths)
    yield library
    library.close()


@pytest.mark.parametrize("k, expected", [(1000, MAX_K), (MAX_K + 1, MAX_K), (0, 1), (-5, 1), (3, 3)])
def test_k_is_clamped(tools, k, expected):
    assert len(tools.search("harbour ferry timetable", k=k)["passages"]) == expected


def test_a_huge_query_is_cut_to_4000_characters(tools):
    query = "harbour ferry timetable " * 2000  # 48,000 characters
    result = tools.search(query, k=2)
    assert len(result["query"]) == MAX_QUERY_CHARS == 4000
    assert query.startswith(result["query"])
    answer = tools.ask(query)
    assert len(answer["question"]) == MAX_QUERY_CHARS
