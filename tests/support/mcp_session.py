"""`desktop-rag mcp` as a real child process driven by the MCP SDK's own stdio client, and the small library of two
collections it serves in the MCP tests (the hashing embedder: these are about the protocol, not meaning)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

import anyio

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from tests.support import REPO
from tests.support.hash_cli import ENV

FAST = Settings(embedding_model="hash:64")


def two_collection_library(tmp_path: Path) -> Path:
    """A library (`tmp_path / "data"`) with two collections: "Default" (glaciers, docs/science) and "Recipes"
    (bread, docs/kitchen)."""
    docs = tmp_path / "docs"
    (docs / "science").mkdir(parents=True)
    (docs / "kitchen").mkdir(parents=True)
    (docs / "science" / "glaciers.txt").write_text(
        "Glacier retreat\n\nThe Rhone glacier lost forty metres of ice in one summer of record heat.\n", "utf-8")
    (docs / "kitchen" / "bread.txt").write_text(
        "Sourdough bread\n\nA sourdough loaf needs a ripe starter, flour, water, salt and a long cold rise.\n", "utf-8")
    data = tmp_path / "data"
    engine = Engine(resolve_paths(data), FAST)
    try:
        engine.index([docs / "science"])
        engine.index([docs / "kitchen"], collection=engine.create_collection("Recipes"))
    finally:
        engine.close()
    return data


async def _session_calls(data: Path, calls, env: Mapping[str, str], module: str):
    """`calls(session)` in an initialised session of `python -m MODULE --data-dir DATA mcp` run with `env`
    (five minutes at most)."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", module, "--data-dir", str(data), "mcp"],
                                   env=dict(env), cwd=str(REPO))
    with anyio.fail_after(300), open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await calls(session)


def run_mcp(data: Path, calls, env: Mapping[str, str] = ENV, module: str = "desktop_rag", **extra: str):
    """What `calls(session)` returns, from a session of its own with a server on `data`: `desktop-rag mcp` (or
    `module`'s) in `env` (the CLI tests' hashing environment unless given) with `extra` added."""
    return anyio.run(_session_calls, data, calls, {**env, **extra}, module)
