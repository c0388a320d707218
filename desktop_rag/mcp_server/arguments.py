"""A tool call whose arguments do not fit the tool's input schema, answered in plain words.

The SDK answers such a call with pydantic's report ("1 validation error for searchArguments … input_value=…
For further information visit https://errors.pydantic.dev/…"): internals, the client's own values echoed back and
a URL. Here the answer names each wrong argument and what it takes ("k: a whole number from 1 to 50").
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from pydantic import ValidationError

from desktop_rag.engine import TYPE_NAMES
from desktop_rag.mcp_server import MAX_K

TAKES = {  # what each tool argument takes, in words (the same for every tool that has it)
    "query": "text", "question": "text", "k": f"a whole number from 1 to {MAX_K}",
    "collection": "a collection's name (text)", "folder": "a folder's absolute path (text)",
    "file": "a document's absolute path (text)", "file_type": "one of " + ", ".join(TYPE_NAMES),
    "confirm_cost": "true or false",
}


def plain_error(tool: str, error: ValidationError) -> str:
    """ "Wrong arguments for search: k: a whole number from 1 to 50." (a missing one "(required)")."""
    wrong: dict[str, str] = {}
    for problem in error.errors():
        name = str(problem["loc"][0]) if problem["loc"] else ""
        what = TAKES.get(name, "see the tool's input schema")
        wrong.setdefault(name, f"{what} (required)" if problem["type"] == "missing" else what)
    listed = "; ".join(f"{name}: {what}" if name else what for name, what in wrong.items())
    return f"Wrong arguments for {tool}: {listed}."


class PlainArgumentsServer(MCPServer):
    """The SDK's server, its answer to arguments that fail the input schema in plain words (`plain_error`)."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError) or not isinstance(exc.__cause__, ValidationError):
                raise
            raise ToolError(plain_error(name, exc.__cause__)) from exc.__cause__
