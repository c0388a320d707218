"""`desktop-rag mcp` as a real child process, driven by the MCP SDK's own stdio client.

The library uses the hashing embedder (hash:64): these tests are about the protocol, read-only access and
collections, not about the meaning of the passages.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from desktop_rag.engine.store.sqlite.lock import WriterLock
from tests.support.mcp_session import run_mcp, two_collection_library


@pytest.fixture()
def library(tmp_path: Path) -> Path:
    return two_collection_library(tmp_path)


def _digest(data: Path) -> str:
    return hashlib.sha256((data / "library.sqlite3").read_bytes()).hexdigest()


def test_lists_tools_and_finds_the_passage_within_a_collection(library: Path):
    async def calls(session):
        tools = await session.list_tools()
        found = await session.call_tool("search", {"query": "sourdough starter", "k": 3})
        within = await session.call_tool("search", {"query": "sourdough starter", "k": 3, "collection": "Default"})
        listed = await session.call_tool("list_collections", {})
        status = await session.call_tool("status", {"collection": "Recipes"})
        return tools, found, within, listed, status

    tools, found, within, listed, status = run_mcp(library, calls)
    names = {t.name for t in tools.tools}
    assert names == {"search", "ask", "list_collections", "status"}
    assert all(t.annotations.read_only_hint for t in tools.tools)
    from desktop_rag.mcp_server import search_description  # made from the table of type names

    assert next(t for t in tools.tools if t.name == "search").description == search_description()
    assert not found.is_error
    top = found.structured_content["passages"][0]
    assert top["file"].endswith("bread.txt") and "ripe starter" in top["text"] and top["page"] is None
    assert top["heading"] == "Sourdough bread" and top["score"] > 0
    # Asked within "Default", the bread passage never appears.
    assert all(p["file"].endswith("glaciers.txt") for p in within.structured_content["passages"])
    assert [c["name"] for c in listed.structured_content["collections"]] == ["Default", "Recipes"]
    assert status.structured_content["sources"][0].endswith("kitchen")


def test_write_like_requests_are_refused_and_nothing_changes(library: Path):
    before = _digest(library)

    async def calls(session):
        index = await session.call_tool("index", {"paths": [str(library)]})
        remove = await session.call_tool("remove", {"path": str(library)})
        unknown = await session.call_tool("search", {"query": "x", "collection": "Nope"})
        return index, remove, unknown

    index, remove, unknown = run_mcp(library, calls)
    assert index.is_error and "index" in index.content[0].text
    assert remove.is_error
    assert unknown.is_error and "no collection called" in unknown.content[0].text
    assert _digest(library) == before


def test_works_while_another_process_writes_the_library(library: Path):
    """During an index run the app holds the writer lock and, at moments, an open SQLite write transaction;
    the read-only server needs neither (a server that opened the library for writing would wait here)."""
    lock = WriterLock(library / "library.lock")
    lock.acquire()
    writer = sqlite3.connect(library / "library.sqlite3", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE meta SET value = value WHERE key = 'schema_version'")
    try:
        async def calls(session):
            return await session.call_tool("ask", {"question": "What does a sourdough loaf need?"},
                                           read_timeout_seconds=20)

        answer = run_mcp(library, calls)
    finally:
        writer.execute("ROLLBACK")
        writer.close()
        lock.release()
    assert not answer.is_error, answer.content
    result = answer.structured_content
    assert result["mode"] == "extractive" and result["sources"][0]["file"].endswith("bread.txt")


def test_a_failed_model_still_gives_the_passages_it_was_sent(library: Path):
    """`ask` ended in a bare tool error when the model failed (a wrong key, a server down): the agent lost the
    passages it could answer from. Now the result says why, with the passages sent and what the model wrote."""
    from tests.support.openai_server import run_openai_server

    with run_openai_server() as server:
        server.api_key = "sk-the-right-key-1234567890"
        async def calls(session):
            return await session.call_tool("ask", {"question": "What does a sourdough loaf need?"},
                                           read_timeout_seconds=60)

        answer = run_mcp(library, calls, OPENAI_BASE_URL=server.base_url, OPENAI_MODEL="fake-model",
                      OPENAI_API_KEY="sk-a-wrong-key-0987654321")
    assert not answer.is_error, answer.content
    result = answer.structured_content
    assert result["mode"] == "llm" and result["code"] == "llm_auth" and "401" in result["error"]
    assert "sk-a-wrong-key" not in str(result) and result["answer"] == ""
    assert result["sources"][0]["file"].endswith("bread.txt") and result["sources"][0]["rank"] == 1
