"""`desktop-rag summarise PATH` end to end (issue 40): a child process, the local chat server counting requests:
one for a bundled sample, map-reduce with the cost said first for a 50-page PDF, JSON with the sections; without a
model an extractive summary; a path the library lacks fails with exit code 1 and nothing on stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths, resource_path
from desktop_rag.engine.engine import Engine
from tests.support.long_document import write_long_pdf
from tests.support.openai_server import run_openai_server


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    root = tmp_path_factory.mktemp("summarise")
    report = write_long_pdf(root / "docs" / "report.pdf")
    engine = Engine(resolve_paths(root / "home"), Settings(embedding_model="hash:64"))
    assert not engine.index([resource_path("samples"), report.parent]).failed
    engine.close()
    return root / "home", report


@pytest.fixture
def server():
    with run_openai_server() as srv:
        srv.reply = "The guide explains brewing [1]."
        yield srv


def summarise(home: Path, path: Path, env_extra: dict, *flags: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(env_extra, DESKTOP_RAG_EMBEDDING_MODEL="hash:64")
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "summarise", str(path),
                           *flags], capture_output=True, text=True, timeout=300, env=env)


def test_one_request_for_a_sample_and_map_reduce_for_a_50_page_pdf(library, server):
    home, report = library
    env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_MODEL": "fake-model"}
    guide = resource_path("samples") / "coffee-brewing-guide.txt"
    out = summarise(home, guide, env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("The guide explains brewing [1].") and "Sections:\n[1]" in out.stdout
    assert len(server.chat_requests()) == 1 and out.stderr == ""
    out = summarise(home, report, env, "--json")
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    assert shown["plan"] == "map-reduce" and shown["mode"] == "llm" and not shown["cached"]
    assert len(server.chat_requests()) == 1 + shown["requests"] == 2 + len(shown["sections"])
    assert f"{len(shown['sections'])} sections" in out.stderr and f"{shown['requests']} requests" in out.stderr
    assert shown["summary"] == "The guide explains brewing [1]." and shown["sections"][0]["page"] == 1
    out = summarise(home, report, env, "--json")  # stored: no request at all
    assert json.loads(out.stdout)["cached"] and len(server.chat_requests()) == 2 + len(shown["sections"])


def test_extractive_without_a_model_and_a_clear_error_for_a_path_the_library_lacks(library, tmp_path):
    home, report = library
    out = summarise(home, resource_path("samples") / "getting-started.md", {}, "--json")
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    assert shown["mode"] == "extractive" and shown["summary"].startswith("- ") and "Extractive" in shown["notice"]
    out = summarise(home, tmp_path / "nowhere.pdf", {})
    assert out.returncode == 1 and out.stdout == "" and "is not a file of the library" in out.stderr


def test_ask_says_the_cost_first_when_a_question_becomes_a_long_summary(library, server):
    home, report = library
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(OPENAI_BASE_URL=server.base_url, OPENAI_MODEL="fake-model", DESKTOP_RAG_EMBEDDING_MODEL="hash:64")

    def ask(question: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "ask", question],
                              capture_output=True, text=True, timeout=300, env=env)

    out = ask("总结一下 report.pdf")  # in Chinese: not the stored English summary of the first test
    assert out.returncode == 0, out.stderr
    requests = len([r for r in server.chat_requests() if "Translate" not in r.body["messages"][0]["content"]])
    assert requests > 2 and f"report.pdf: {requests - 1} sections" in out.stderr
    assert f"{requests} requests to the model" in out.stderr and out.stdout.startswith("The guide explains")
    out = ask("How hot should the water be for coffee?")  # an ordinary question: no estimate
    assert out.returncode == 0 and "requests to the model" not in out.stderr
    assert len(server.chat_requests()) == requests + 1 + 1  # (its translation, and the answer)
