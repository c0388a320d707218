"""Attack: an MCP client writes lines the SDK's stdio transport cannot read: a lone surrogate escape (`"\\ud800"`,
valid JSON) in an argument, the tool's name, the method, the id or the handshake; a line that is not JSON, not a
JSON-RPC message, nested 100 levels deep; a 30 MB line; or it closes its end of stdout while the server answers
(with its stdin closed or still open), or closes stdin with requests in flight.

Before `mcp_server/wire.py` the SDK dropped each unreadable line without an answer (the client waited forever),
held a whole line in memory (a 50 MB line took 600 MB), and a closed stdout ended the server with a traceback
(or, with stdin left open, never ended it: its stdin reader was a non-daemon thread); requests still in flight
when the input ended were dropped. The server here is a real `desktop-rag mcp` child written to as raw bytes: the
SDK's own client cannot send these.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import Engine
from desktop_rag.mcp_server.wire import MAX_LINE_BYTES, read_line
from tests.support.mcp_raw import HANDSHAKE, RawClient


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("mcp-wire")
    (root / "docs").mkdir()
    (root / "docs" / "bread.txt").write_text("Sourdough bread\n\nA sourdough loaf needs a ripe starter and salt.\n",
                                             encoding="utf-8")
    engine = Engine(resolve_paths(root / "data"), Settings(embedding_model="hash:64"))
    try:
        engine.index([root / "docs"])
    finally:
        engine.close()
    return root / "data"


@pytest.fixture(scope="module")
def client(library: Path):
    raw = RawClient(library)
    raw.handshake()
    yield raw
    raw.close()


def _still_serving(client: RawClient) -> None:
    client.request(99, "tools/call", {"name": "search", "arguments": {"query": "sourdough starter"}})
    answer = client.answer()
    assert answer["id"] == 99 and not answer["result"]["isError"]


def test_a_lone_surrogate_in_a_question_is_answered_as_u_fffd(client: RawClient):
    client.send('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", '
                '"params": {"name": "search", "arguments": {"query": "\\ud800sourdough"}}}')
    found = client.answer()
    assert found["id"] == 1 and not found["result"]["isError"]
    assert found["result"]["structuredContent"]["query"] == "\ufffdsourdough"
    assert found["result"]["structuredContent"]["passages"][0]["file"].endswith("bread.txt")
    client.send('{"jsonrpc": "2.0", "id": 2, "method": "tools/call", '
                '"params": {"name": "ask", "arguments": {"question": "What does \\udfff sourdough need?"}}}')
    answered = client.answer()
    assert answered["id"] == 2 and not answered["result"]["isError"], answered
    assert answered["result"]["structuredContent"]["question"].startswith("What does \ufffd")
    _still_serving(client)


@pytest.mark.parametrize("params, expected", [
    ('{"name": "search", "arguments": {"query": "bread", "collection": "\\ud800"}}', "no collection called “\ufffd”"),
    ('{"name": "search\\udc00", "arguments": {"query": "bread"}}', "Unknown tool: search\ufffd"),
])
def test_a_lone_surrogate_in_a_name_gets_a_clear_error(client: RawClient, params: str, expected: str):
    client.send('{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": ' + params + "}")
    answer = client.answer()
    assert answer["id"] == 3 and answer["result"]["isError"]
    assert expected in answer["result"]["content"][0]["text"]
    _still_serving(client)


def test_a_lone_surrogate_in_the_method_or_the_id_is_answered(client: RawClient):
    client.send('{"jsonrpc": "2.0", "id": 4, "method": "tools/list\\ud800"}')
    assert client.answer()["error"]["code"] == -32601  # method not found, for this request
    client.send('{"jsonrpc": "2.0", "id": "a\\udc00", "method": "tools/list"}')
    listed = client.answer()
    assert listed["id"] == "a\ufffd" and len(listed["result"]["tools"]) == 4
    _still_serving(client)


def test_a_lone_surrogate_in_the_handshake_is_answered(library: Path):
    raw = RawClient(library)
    try:
        hello = raw.handshake(json.dumps(HANDSHAKE).replace("hostile", "\\ud800hostile"))
        assert hello["id"] == "hello" and hello["result"]["serverInfo"]["name"] == "desktop-rag"
        _still_serving(raw)
    finally:
        raw.close()


@pytest.mark.parametrize("line, request_id, code", [
    ("not json at all", None, -32700),
    ('{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "search", "arguments": '
     '{"query": "bread", "k": NaN}}}', None, -32700),  # Python reads NaN, JSON has none
    ('{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": [1, 2]}', 6, -32600),  # params not an object
    ('{"jsonrpc": "2.0", "id": true, "method": "tools/list"}', None, -32600),  # the SDK took it for a notification
    ('{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "search", "arguments": '
     '{"query": "bread", "k": ' + "[" * 100 + "]" * 100 + "}}}", 7, -32600),
    ('{"jsonrpc": "2.0", "id": 8, "method": "tools/list", "params": {"x": ' + "[" * 5000 + "]" * 5000 + "}}",
     None, -32700),  # deeper than Python's parser goes
])
def test_a_line_that_is_no_message_gets_a_json_rpc_error(client: RawClient, line: str, request_id, code: int):
    client.send(line)
    answer = client.answer()
    assert answer["id"] == request_id and answer["error"]["code"] == code, answer
    assert "Traceback" not in answer["error"]["message"]
    _still_serving(client)


def test_a_huge_line_is_refused_without_being_held(client: RawClient):
    query = b"sourdough " * 3_000_000  # 30 MB: the SDK alone held it, parsed, several times over
    client.send(b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "search", '
                b'"arguments": {"query": "' + query + b'"}}}\n')
    answer = client.answer()
    assert answer["id"] is None and answer["error"]["code"] == -32600
    assert f"{MAX_LINE_BYTES:,} bytes" in answer["error"]["message"]
    _still_serving(client)
    status = Path(f"/proc/{client.process.pid}/status")
    if status.exists():  # Linux: the server's peak memory stayed far below the line's size
        peak_kb = int(next(line for line in status.read_text().splitlines() if line.startswith("VmHWM")).split()[1])
        assert peak_kb < 250_000, peak_kb


def test_read_line_bounds_each_line_and_skips_blank_ones():
    wire = io.BytesIO(b"\n  \r\n" + b"x" * 100 + b"\n{\"a\": 1}\r\n" + b"y" * 10)
    assert read_line(wire, limit=40) == b"x" * 41  # over the limit: its first limit + 1 bytes, the rest skipped
    assert read_line(wire, limit=40) == b'{"a": 1}'
    assert read_line(wire, limit=40) == b"y" * 10  # the last line needs no newline
    assert read_line(wire, limit=40) is None


def test_a_client_that_closes_stdout_ends_the_server_quietly(library: Path):
    raw = RawClient(library)
    raw.handshake()
    raw.process.stdout.close()
    raw.request(10, "tools/list", {})  # its answer meets a closed pipe
    time.sleep(2)
    code, stderr = raw.close()
    assert (code, stderr) == (0, "")


def test_a_client_that_closes_stdout_but_keeps_stdin_open_does_not_keep_the_server_alive(library: Path):
    raw = RawClient(library)
    raw.handshake()
    raw.process.stdout.close()
    raw.request(11, "tools/list", {})  # its answer meets a closed pipe; stdin stays open
    try:
        code = raw.process.wait(timeout=30)  # the stdin reader, blocked on the open pipe, kept it alive
    finally:
        raw.process.kill()
    assert (code, raw.process.stderr.read().decode(errors="replace")) == (0, "")
    raw.process.stdin.close()


def test_requests_in_flight_when_the_input_ends_are_answered_before_the_server_stops(library: Path):
    """`echo REQUEST | desktop-rag mcp`: the SDK stopped serving at the end of its input and dropped the requests it
    had not answered; a cancelled one needs no answer, so the server still ends."""
    raw = RawClient(library)
    raw.handshake()
    raw.request(20, "tools/call", {"name": "search", "arguments": {"query": "sourdough starter"}})
    raw.request(21, "tools/call", {"name": "ask", "arguments": {"question": "What does sourdough need?"}})
    raw.request(22, "tools/call", {"name": "ask", "arguments": {"question": "And bread?"}})
    raw.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 22}}))
    raw.process.stdin.close()
    try:
        code = raw.process.wait(timeout=60)
    finally:
        raw.process.kill()
    answers = [json.loads(line) for line in raw.process.stdout.read().splitlines()]
    assert {a["id"] for a in answers} >= {20, 21} and all(not a["result"]["isError"] for a in answers), answers
    assert (code, raw.process.stderr.read().decode(errors="replace")) == (0, "")
