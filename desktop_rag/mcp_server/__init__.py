"""`desktop-rag mcp`: the library served read-only over the Model Context Protocol (stdio, official SDK).

Tools: search, ask, list_collections, status. The library is opened read-only (SQLite mode=ro, the
vector cache rebuilt in memory if stale, never saved), so the server works while the app indexes the
same library and can never add, change or delete anything. Only the protocol goes to stdout: the SDK's
stdio transport moves file descriptor 1 to stderr for the session, and logs go to stderr/the log file.
"""

from __future__ import annotations

import itertools
import logging
import sqlite3
import threading
from typing import Any

import anyio

from desktop_rag import __version__
from desktop_rag.config import AppPaths
from desktop_rag.engine import (ConfirmationNeeded, DesktopRagError, DoneEvent, Engine, ErrorEvent, Hit, Reason,
                                 SourcesEvent, contain_panics, location_text)

log = logging.getLogger(__name__)

MAX_K = 50
MAX_QUERY_CHARS = 4000


def instructions() -> str:
    """What the server offers; the document formats come from the engine's reader registry."""
    from desktop_rag.engine import READERS, supported_types

    ocr = "; images and scanned PDF pages are read with OCR" if any(r.kind == "image" for r in READERS) else ""
    return (f"Desktop RAG: search the user's own documents ({supported_types()}{ocr}) on this computer and "
            "get passages with their file, page and heading. Use "
            "`search` for passages, `ask` for a short answer with cited sources, `list_collections` to see "
            "the separate knowledge bases, `status` for what is indexed. Read-only.")


def search_description() -> str:
    """The `search` tool's description; its `file_type` values are the search filter's type names."""
    from desktop_rag.engine import TYPE_NAMES

    names = ", ".join(TYPE_NAMES[:-1]) + " or " + TYPE_NAMES[-1]
    return ("Find passages in the user's documents. `collection`: one knowledge base by name (default: all); "
            "`folder`: only files inside this folder of the library (absolute path); `file`: only this one "
            f"document of the library (absolute path); `file_type`: only {names} files. Returns passages with "
            "file, page, heading, score and text, best first.")


class LibraryTools:
    """The tools' work, on one read-only engine opened on first use (so the handshake is immediate)."""

    def __init__(self, paths: AppPaths) -> None:
        self.paths = paths
        self._engine: Engine | None = None
        self._lock = threading.Lock()

    @property
    def engine(self) -> Engine:
        with self._lock:
            if self._engine is None:
                self._engine = Engine(self.paths, read_only=True)
            return self._engine

    def close(self) -> None:
        with self._lock:
            if self._engine is not None:
                self._engine.close()
                self._engine = None

    def search(self, query: str, k: int = 5, collection: str | None = None, folder: str | None = None,
               file_type: str | None = None, file: str | None = None) -> dict[str, Any]:
        query = _checked_query(query)
        engine = self.engine
        folders, types = _filters(folder, file_type)
        hits = engine.search(query, max(1, min(int(k), MAX_K)), engine.collection_id(collection), folders, types,
                             files=_one(file, 4096))
        return {"query": query, "collection": collection, "folder": folder, "file": file, "file_type": file_type,
                "passages": [_passage(h, n) for n, h in enumerate(hits, 1)]}

    def ask(self, question: str, collection: str | None = None, folder: str | None = None,
            file_type: str | None = None, file: str | None = None, confirm_cost: bool = False) -> dict[str, Any]:
        """An answer, or a document's summary for a summary question: one over the request limit only with
        `confirm_cost` (else the error says its cost; nothing is sent)."""
        question = _checked_query(question)
        engine = self.engine
        passages: tuple[Hit, ...] = ()
        folders, types = _filters(folder, file_type)
        events = engine.ask(question, collection=engine.collection_id(collection), folders=folders, types=types,
                            files=_one(file, 4096), confirm_cost=confirm_cost is True)  # strictly true
        try:
            first = next(events, None)  # the checks run before anything is yielded
        except ConfirmationNeeded as exc:
            raise DesktopRagError.coded("summary_confirm_cost", cost=Reason.of(exc)) from exc
        for event in itertools.chain(() if first is None else (first,), events):
            if isinstance(event, SourcesEvent):
                passages = event.hits
            elif isinstance(event, ErrorEvent):  # the model failed: why, what it said, and the passages it was sent
                return {"question": question, "answer": event.partial, "mode": "llm", "notice": "",
                        "error": str(event.message), "code": event.message.code,
                        "sources": [_passage(h, n) for n, h in enumerate(passages, 1)]}
            elif isinstance(event, DoneEvent):
                cited = [(passages.index(h) + 1 if h in passages else n, h)
                         for n, h in enumerate(event.cited or passages, 1)]
                return {"question": question, "answer": event.answer, "mode": event.mode, "notice": str(event.notice),
                        "sources": [_passage(h, n) for n, h in cited]}
        raise DesktopRagError("No answer was produced.")

    def list_collections(self) -> dict[str, Any]:
        return {"collections": [c.to_json() for c in self.engine.collections()]}

    def status(self, collection: str | None = None) -> dict[str, Any]:
        engine = self.engine
        return {**engine.status(engine.collection_id(collection)).to_json(), "collection": collection}


def build_server(tools: LibraryTools):
    """The MCP server with the four read-only tools."""
    from mcp.types import ToolAnnotations

    from desktop_rag.mcp_server.arguments import PlainArgumentsServer

    server = PlainArgumentsServer("desktop-rag", version=__version__, instructions=instructions(), log_level="WARNING")
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)

    @server.tool(annotations=read_only, description=search_description())
    def search(query: str, k: int = 5, collection: str | None = None, folder: str | None = None,
               file_type: str | None = None, file: str | None = None) -> dict[str, Any]:
        return _guarded(tools.search, query, k, collection, folder, file_type, file)

    @server.tool(annotations=read_only)
    def ask(question: str, collection: str | None = None, folder: str | None = None,
            file_type: str | None = None, file: str | None = None, confirm_cost: bool = False) -> dict[str, Any]:
        """Answer a question from the user's documents with numbered sources (an extractive answer of quoted
        sentences, or the configured language model's answer); `folder`, `file` (one document) and `file_type`
        limit the documents as in `search`. A question asking for a document's summary ("summarise report.pdf")
        gets that summary; one that takes more model requests than the user's limit is refused with its cost
        unless `confirm_cost` is true (ask the user first). When the language model fails, `error` says why, `answer`
        holds what it wrote before, and `sources` the passages it was sent (answer from them yourself)."""
        return _guarded(tools.ask, question, collection, folder, file_type, file, confirm_cost)

    @server.tool(annotations=read_only)
    def list_collections() -> dict[str, Any]:
        """The knowledge bases (collections) in the library, with their sizes."""
        return _guarded(tools.list_collections)

    @server.tool(annotations=read_only)
    def status(collection: str | None = None) -> dict[str, Any]:
        """What is indexed: embedding model, files, chunks, failures (of one collection, or all)."""
        return _guarded(tools.status, collection)

    return server


def _guarded(fn, *args):
    """Run a tool; a user-facing failure becomes the tool's error text (no traceback, no internals)."""
    from mcp.server.mcpserver.exceptions import ToolError

    try:
        with contain_panics("The tool"):  # a native library's panic would end the server: the tool fails instead
            return fn(*args)
    except DesktopRagError as exc:
        raise ToolError(str(exc)) from None
    except sqlite3.OperationalError as exc:
        log.warning("MCP tool failed on the library: %s", exc)
        raise ToolError(f"The library could not be read ({exc}); open it once in the app, then try again.") from None


def _filters(folder: str | None, file_type: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(folders, types) for the engine from the tools' optional single values (checked by the engine)."""
    return _one(folder, 4096), _one(file_type, 32)


def _one(value: str | None, limit: int) -> tuple[str, ...]:
    """An optional tool argument as the engine's tuple (empty when absent or blank; bounded)."""
    return (str(value)[:limit],) if value is not None and str(value).strip() else ()


def _checked_query(text: str) -> str:
    text = " ".join(str(text).split())
    if not text:
        raise DesktopRagError("The query is empty.")
    return text[:MAX_QUERY_CHARS]


def _passage(hit: Hit, rank: int) -> dict[str, Any]:
    return {"rank": rank, "file": hit.path, "page": hit.page, "location": location_text(hit.path, hit.page),
            "heading": hit.heading,
            "score": round(float(hit.score), 6), "text": hit.text, "chunk_id": hit.chunk_id, "ocr": hit.ocr}


def serve(paths: AppPaths) -> int:
    """Run until the client closes stdin (or its end of stdout)."""
    tools = LibraryTools(paths)
    log.info("MCP server on stdio for %s (read-only)", paths.data_dir)
    try:
        anyio.run(_serve_stdio, build_server(tools))
    except* (BrokenPipeError, ConnectionResetError) as gone:
        log.info("MCP client closed its end: %s", gone.exceptions[0])
    finally:
        tools.close()
    return 0


async def _serve_stdio(server) -> None:
    """The SDK's `MCPServer.run_stdio_async`, with every line the client sends checked first and its answers passed
    on by `wire.CheckedLines` (which sees the requests in flight answered before the input's end ends the server)."""
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

    from desktop_rag.mcp_server.wire import CheckedLines, claimed_stdin

    lowlevel = server._lowlevel_server  # noqa: SLF001 - what run_stdio_async runs (mcp 2.x), given other stdin
    with claimed_stdin() as stdin:
        lines = CheckedLines(stdin)
        async with stdio_server(stdin=lines) as (read_stream, write_stream), anyio.create_task_group() as group:
            lines.answer_on(write_stream)
            answers, passed = anyio.create_memory_object_stream[SessionMessage](0)
            group.start_soon(lines.pass_answers, passed)
            async with answers:  # its end ends pass_answers
                await lowlevel.run(read_stream, answers, lowlevel.create_initialization_options())
