"""The MCP server's search and ask tools take `folder` and `file_type` (a real `desktop-rag mcp` child process)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.mcp_session import run_mcp, two_collection_library


@pytest.fixture()
def library(tmp_path: Path) -> Path:
    return two_collection_library(tmp_path)


def test_search_and_ask_within_a_folder_or_type_and_clear_errors(library: Path):
    kitchen = str(library.parent / "docs" / "kitchen")

    async def calls(session):
        everywhere = await session.call_tool("search", {"query": "glacier sourdough", "k": 5})
        in_kitchen = await session.call_tool("search", {"query": "glacier sourdough", "k": 5, "folder": kitchen})
        txt = await session.call_tool("search", {"query": "glacier sourdough", "k": 5, "file_type": "txt"})
        pdf = await session.call_tool("search", {"query": "glacier sourdough", "k": 5, "file_type": "pdf"})
        asked = await session.call_tool("ask", {"question": "What does sourdough need?", "folder": kitchen})
        nowhere = await session.call_tool("search", {"query": "x", "folder": str(library / "nowhere")})
        exe = await session.call_tool("search", {"query": "x", "file_type": "exe"})
        return everywhere, in_kitchen, txt, pdf, asked, nowhere, exe

    everywhere, in_kitchen, txt, pdf, asked, nowhere, exe = run_mcp(library, calls)
    assert {Path(p["file"]).name for p in everywhere.structured_content["passages"]} == {"bread.txt", "glaciers.txt"}
    assert [Path(p["file"]).name for p in in_kitchen.structured_content["passages"]] == ["bread.txt"]
    assert len(txt.structured_content["passages"]) == 2 and pdf.structured_content["passages"] == []
    assert not asked.is_error
    assert [Path(s["file"]).name for s in asked.structured_content["sources"]] == ["bread.txt"]
    assert nowhere.is_error and "Nothing in the library is in the folder" in nowhere.content[0].text
    assert exe.is_error and "Unknown file type" in exe.content[0].text


def test_search_and_ask_within_one_file(library: Path):
    bread = str(library.parent / "docs" / "kitchen" / "bread.txt")

    async def calls(session):
        found = await session.call_tool("search", {"query": "glacier sourdough", "k": 5, "file": bread})
        asked = await session.call_tool("ask", {"question": "What do glaciers and sourdough need?", "file": bread})
        missing = await session.call_tool("search", {"query": "x", "file": bread + ".bak"})
        return found, asked, missing

    found, asked, missing = run_mcp(library, calls)
    assert [p["file"] for p in found.structured_content["passages"]] == [bread]
    assert found.structured_content["file"] == bread
    assert not asked.is_error and {s["file"] for s in asked.structured_content["sources"]} == {bread}
    assert missing.is_error and "is not a file of the library" in missing.content[0].text
