"""What an MCP client writes to the server's stdin, checked line by line before the SDK reads it.

The SDK's stdio transport reads lines of any length (a 50 MB line took 600 MB) and parses each with pydantic's JSON
parser, which refuses a lone surrogate escape (`"\\ud800"`: valid JSON, which Python reads) and nesting deeper than
about 200 levels; a line it cannot read is dropped without an answer, so the client waits forever for its request.
Here each line is bounded (`MAX_LINE_BYTES`: the rest of a longer one is skipped, never held), read with Python's
parser, its lone surrogates made U+FFFD (`valid_text`, the engine's rule for a question) and its nesting bounded;
a line that is still not a JSON-RPC message is answered with a JSON-RPC error (with the request's id when it has
one) and never reaches the SDK, so the client gets an answer to every line and the server reads the next.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import logging
import os
import threading
from collections.abc import Iterator
from typing import Any, BinaryIO, NamedTuple, Protocol

import anyio
import anyio.from_thread
import anyio.lowlevel
from mcp.shared.message import SessionMessage
from anyio.streams.memory import MemoryObjectReceiveStream
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError, JSONRPCResponse, jsonrpc_message_adapter

from desktop_rag.engine import valid_text

log = logging.getLogger(__name__)

MAX_LINE_BYTES = 1 << 20  # a tool call is a question of at most 4,000 characters and a few paths
MAX_DEPTH = 64  # objects and arrays inside each other: the tools' arguments are flat
_PIECE = 1 << 16  # the rest of an over-long line is read (and dropped) this much at a time


class _Refused(ValueError):
    """A line that is JSON but not a message the server takes (too deep, not JSON-RPC)."""


class Forwarded(NamedTuple):
    """A line for the SDK: its text, the id of the answer it asks for (a request), the id of the request it cancels
    (a cancellation: no answer follows)."""

    text: str
    asks: int | str | None = None
    cancels: int | str | None = None


def read_line(wire: BinaryIO, limit: int = MAX_LINE_BYTES) -> bytes | None:
    """The next non-blank line without its newline, None at the end of the input; a line over `limit` bytes comes
    as its first `limit` + 1 bytes (the rest is read to its end in pieces and dropped, never held)."""
    while True:
        line = wire.readline(limit + 1)
        if not line:
            return None
        if len(line) > limit and not line.endswith(b"\n"):
            while (piece := wire.readline(_PIECE)) and not piece.endswith(b"\n"):
                pass
            return line
        if line.strip():
            return line.rstrip(b"\r\n")


def checked(line: bytes) -> Forwarded | JSONRPCError:
    """The line as the SDK can read it (valid text, re-serialised), or the error that answers it."""
    if len(line) > MAX_LINE_BYTES:
        return _error(None, INVALID_REQUEST, f"Invalid request: a line of more than {MAX_LINE_BYTES:,} bytes.")
    try:
        message = json.loads(line.decode("utf-8", "replace"), parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return _error(None, PARSE_ERROR, "Parse error: the line is not one JSON value.")
    request_id = _usable_id(message.get("id") if isinstance(message, dict) else None)
    if request_id is None and isinstance(message, dict) and message.get("id") is not None:
        return _error(None, INVALID_REQUEST, "Invalid request: an id is an integer or a string.")  # not a notification
    try:
        text = json.dumps(_valid(message, 0), ensure_ascii=False)
        jsonrpc_message_adapter.validate_json(text, by_name=False)  # the SDK's own reading of the line
    except ValueError as exc:  # pydantic's ValidationError is a ValueError too
        why = str(exc) if isinstance(exc, _Refused) else "not a JSON-RPC 2.0 message the server takes"
        return _error(request_id, INVALID_REQUEST, f"Invalid request: {why}.")
    method, params = message.get("method"), message.get("params")  # a dict: the SDK read it as a message
    cancels = params.get("requestId") if method == "notifications/cancelled" and isinstance(params, dict) else None
    return Forwarded(text, request_id if method is not None else None, _usable_id(cancels))


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _usable_id(found: Any) -> int | str | None:
    """A request's id when it is a usable one (an integer or a string), else None (JSON-RPC's null id)."""
    if isinstance(found, str):
        return valid_text(found)
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def _valid(value: Any, depth: int) -> Any:
    """`value` with every string (keys too) valid text; refused past MAX_DEPTH levels of nesting."""
    if isinstance(value, str):
        return valid_text(value)
    if not isinstance(value, dict | list):
        return value
    if depth >= MAX_DEPTH:
        raise _Refused(f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, list):
        return [_valid(v, depth + 1) for v in value]
    return {valid_text(k): _valid(v, depth + 1) for k, v in value.items()}


def _error(request_id: int | str | None, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))


class Replies(Protocol):
    """Where the transport's messages to the client go (its write stream)."""

    async def send(self, item: SessionMessage, /) -> None: ...

    async def aclose(self) -> None: ...


_LOOP_GONE = (anyio.BrokenResourceError, anyio.ClosedResourceError, anyio.RunFinishedError,
              concurrent.futures.CancelledError)  # the server stopped taking lines: the reader stops too


class InFlight:
    """The ids of the requests handed to the SDK and neither answered nor cancelled yet (on the event loop)."""

    def __init__(self) -> None:
        self._ids: set[int | str] = set()
        self._none = anyio.Event()
        self._none.set()

    def add(self, request_id: int | str) -> None:
        self._ids.add(request_id)
        if self._none.is_set():
            self._none = anyio.Event()

    def discard(self, request_id: int | str | None) -> None:
        self._ids.discard(request_id)  # type: ignore[arg-type]
        if not self._ids:
            self._none.set()

    async def settled(self) -> None:
        await self._none.wait()


class CheckedLines:
    """The client's lines for the SDK's stdio transport (`stdio_server(stdin=...)`), each checked; a line refused
    is answered on the transport's write stream, given once the transport has made it (`answer_on`).

    The lines are read on a daemon thread that owns (and at the end closes) `wire`: a client that closes the
    server's stdout but keeps its stdin open leaves that thread blocked in a read, which must not keep the
    process alive once the server can no longer answer (an anyio worker thread did). At the end of the input the
    requests still in flight are answered first (`pass_answers` sees their answers): the SDK stops serving when its
    input ends and dropped them, so `echo REQUEST | desktop-rag mcp` got no answer."""

    def __init__(self, wire: BinaryIO) -> None:
        self._wire = wire
        self._replies: Replies | None = None
        self._ready = anyio.Event()
        self._sent, self._received = anyio.create_memory_object_stream[Forwarded | JSONRPCError](0)
        self._reader: threading.Thread | None = None
        self._in_flight = InFlight()

    def answer_on(self, write_stream: Replies) -> None:
        self._replies = write_stream
        self._ready.set()

    async def pass_answers(self, answers: MemoryObjectReceiveStream[SessionMessage]) -> None:
        """The SDK's messages to the client, on to the transport's write stream (closed after the last: that ends
        the transport); an answer settles its request."""
        await self._ready.wait()
        assert self._replies is not None
        try:
            async with answers:
                async for item in answers:
                    await self._replies.send(item)
                    if isinstance(item.message, JSONRPCResponse | JSONRPCError):
                        self._in_flight.discard(item.message.id)
        finally:
            await self._replies.aclose()

    def __aiter__(self) -> CheckedLines:
        return self

    async def __anext__(self) -> str:
        if self._reader is None:
            self._reader = threading.Thread(target=self._read, args=(anyio.lowlevel.current_token(),),
                                            name="MCP stdin", daemon=True)
            self._reader.start()
        while True:
            try:
                result = await self._received.receive()
            except anyio.EndOfStream:
                await self._in_flight.settled()
                raise StopAsyncIteration from None
            if isinstance(result, Forwarded):
                if result.asks is not None:
                    self._in_flight.add(result.asks)
                self._in_flight.discard(result.cancels)
                return result.text
            await self._ready.wait()
            assert self._replies is not None
            await self._replies.send(SessionMessage(result))

    def _read(self, loop: anyio.lowlevel.EventLoopToken) -> None:
        """Each line, checked, handed to the event loop until the input or the loop ends (reading and parsing
        off the loop, one line at a time)."""
        with contextlib.suppress(*_LOOP_GONE), self._wire:
            try:
                while (line := read_line(self._wire)) is not None:
                    anyio.from_thread.run(self._sent.send, checked(line), token=loop)
            except OSError as exc:  # an unreadable stdin ends the input as its end does
                log.info("MCP client's stdin could not be read: %s", exc)
            anyio.from_thread.run_sync(self._sent.close, token=loop)


@contextlib.contextmanager
def claimed_stdin() -> Iterator[BinaryIO]:
    """The client's stdin on a private descriptor, for the reader to own and close; descriptor 0 reads the null
    device while the server runs (a stray read or a child process never takes a request), and is the client's
    again after."""
    saved = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        yield os.fdopen(os.dup(saved), "rb")
    finally:
        os.dup2(saved, 0)
        os.close(saved)
