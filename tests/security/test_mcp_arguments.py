"""Attack: an MCP client calls a tool with arguments of the wrong type (`k: "abc"`, `query: ["x"]`, a collection
given as an object, a required one left out). The SDK answered with pydantic's report: "1 validation error for
searchArguments", the client's value echoed as `input_value=...`, and a URL to pydantic's documentation. The answer
now names each wrong argument and what it takes, in plain words. The server is a real `desktop-rag mcp` child.
"""

from __future__ import annotations

import pytest

from tests.support.hash_cli import indexed_home
from tests.support.mcp_raw import RawClient


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    home = indexed_home(tmp_path_factory.mktemp("mcp-arguments"), {"tea.txt": "Green tea\n\nGreen tea is brewed at 80 degrees.\n"})
    raw = RawClient(home)
    raw.handshake()
    yield raw
    assert raw.close() == (0, "")


@pytest.mark.parametrize("tool, arguments, expected", [
    ("search", {"query": "tea", "k": "abc"}, "Wrong arguments for search: k: a whole number from 1 to 50."),
    ("search", {"query": "tea", "k": 2.5}, "Wrong arguments for search: k: a whole number from 1 to 50."),
    ("search", {"query": ["tea"]}, "Wrong arguments for search: query: text."),
    ("search", {}, "Wrong arguments for search: query: text (required)."),
    ("ask", {"question": None, "folder": 7},
     "Wrong arguments for ask: question: text; folder: a folder's absolute path (text)."),
    ("status", {"collection": {"secret": "x" * 50}},
     "Wrong arguments for status: collection: a collection's name (text)."),
])
def test_a_wrong_argument_is_named_with_what_it_takes(client: RawClient, tool: str, arguments: dict, expected: str):
    client.request(1, "tools/call", {"name": tool, "arguments": arguments})
    result = client.answer()["result"]
    assert result["isError"] and result["content"][0]["text"] == expected


def test_a_right_call_after_a_wrong_one_is_answered(client: RawClient):
    client.request(2, "tools/call", {"name": "search", "arguments": {"query": "green tea", "k": "3"}})
    result = client.answer()["result"]
    assert not result["isError"] and result["structuredContent"]["passages"][0]["file"].endswith("tea.txt")
