"""A summary's cost has a limit on the command line and over MCP (issue 49 item 3), end to end: child processes
and the local chat server counting requests. Over `summary_request_limit` (3 here; the 50-page report takes
12), `desktop-rag summarise` and `ask` with a summary question refuse without --yes (exit 1, the estimate said,
nothing sent), and the MCP `ask` tool refuses unless `confirm_cost` is true; a second MCP call in the same server
sends nothing (the read-only server keeps the summaries in memory)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from tests.support import REPO
from tests.support.hash_cli import environment, own_environment
from tests.support.mcp_session import run_mcp
from tests.support.summary_cost import SUMMARY_LIMIT, library, server  # noqa: F401 - fixtures used by name


def _requests(home: Path, report: Path, server) -> int:
    """How many requests the report's summary takes with this server's model (more than the limit)."""
    engine = Engine(resolve_paths(home), Settings(embedding_model="hash:64", llm_base_url=server.base_url,
                                                  llm_model="fake-model"))
    try:
        requests = engine.summary_plan(report).requests
    finally:
        engine.close()
    assert requests > SUMMARY_LIMIT and server.chat_requests() == []
    return requests


def _env(server, **extra: str) -> dict[str, str]:
    return environment(None, own_environment(), OPENAI_BASE_URL=server.base_url, OPENAI_MODEL="fake-model",
                       DESKTOP_RAG_EMBEDDING_MODEL="hash:64",
                       DESKTOP_RAG_SUMMARY_REQUEST_LIMIT=str(SUMMARY_LIMIT)) | extra


def _cli(home: Path, server, *args: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args], capture_output=True,
                          text=True, timeout=300, env=_env(server, **extra))


def test_the_command_line_needs_yes_past_the_limit(library, server) -> None:
    home, report = library
    requests = _requests(home, report, server)
    for args in (("summarise", str(report)), ("summarise", str(report), "--json"), ("ask", "Summarise report.pdf")):
        out = _cli(home, server, *args)
        assert out.returncode == 1 and out.stdout == "", (args, out.stdout)
        assert f"takes {requests} requests to the model" in out.stderr and "more than the 3" in out.stderr
        assert out.stderr.rstrip().endswith("Add --yes to go ahead.") and out.stderr.count("\n") == 1, out.stderr
    chinese = _cli(home, server, "ask", "总结 report.pdf", LANG="zh_CN.UTF-8")
    assert chinese.returncode == 1 and chinese.stderr.startswith("错误：总结“report.pdf”需要向模型发送")
    assert "加上 --yes 即可继续" in chinese.stderr
    assert server.chat_requests() == []  # nothing was sent

    out = _cli(home, server, "ask", "Summarise report.pdf", "--yes")
    assert out.returncode == 0 and out.stdout.startswith("The report surveys ten regions"), out.stderr
    assert f"{requests} requests to the model" in out.stderr and len(server.chat_requests()) == requests
    out = _cli(home, server, "summarise", str(report), "--json")  # stored now: nothing to confirm, nothing sent
    assert out.returncode == 0 and json.loads(out.stdout)["cached"] and len(server.chat_requests()) == requests


def test_summarise_with_yes_goes_ahead(library, server) -> None:
    home, report = library
    requests = _requests(home, report, server)
    out = _cli(home, server, "summarise", str(report), "--yes", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["requests"] == requests == len(server.chat_requests())


def test_mcp_ask_refuses_then_runs_when_confirmed_and_a_second_call_sends_nothing(library, server) -> None:
    home, report = library
    requests = _requests(home, report, server)
    seen: list[int] = []

    async def calls(session):
        tools = {t.name: t for t in (await session.list_tools()).tools}
        refused = await session.call_tool("ask", {"question": "summarise report.pdf"})
        seen.append(len(server.chat_requests()))
        confirmed = await session.call_tool("ask", {"question": "summarise report.pdf", "confirm_cost": True})
        seen.append(len(server.chat_requests()))
        again = await session.call_tool("ask", {"question": "summarise report.pdf"})
        seen.append(len(server.chat_requests()))
        return tools, refused, confirmed, again

    tools, refused, confirmed, again = run_mcp(home, calls, env=_env(server, PYTHONPATH=str(REPO)))
    assert "confirm_cost" in tools["ask"].input_schema["properties"]
    text = refused.content[0].text
    assert refused.is_error and f"takes {requests} requests to the model" in text and "more than the 3" in text
    assert text.endswith("Call the tool again with confirm_cost set to true to go ahead.")
    assert seen[0] == 0, "the refused call sent nothing"
    assert not confirmed.is_error and confirmed.structured_content["answer"].startswith("The report surveys")
    assert seen[1] == requests
    assert not again.is_error and again.structured_content["answer"] == confirmed.structured_content["answer"]
    assert seen[2] == requests, "the second call reuses the summaries the read-only server keeps in memory"
