"""A cited PDF replaced by a hostile one (a 3.1 GB Flate bomb page) under the command line and the MCP server: no
command and no tool runs PDFium in its own process (`tests.support.pdfium_refused` ends it the moment pypdfium2 is
imported there); indexing reads it in the parser child, which fails on it, and says why in English and Chinese;
the commands and tools that cite it use the library's stored text; the MCP server answers the next request."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import Engine
from tests.support import pdf_build as build
from tests.support.hostile_pdfs import flate_bomb_pdf
from tests.support import REPO
from tests.support.hash_cli import ENV, environment
from tests.support.mcp_session import run_mcp
from tests.support.pdfium_refused import PDFIUM_HERE

LINE = "The lighthouse keeper recorded the storm."
REASONS = {"reader_crashed": ("The reader crashed on this file", "读取程序崩溃"),
           "out_of_memory": ("needs more memory than the limit", "所需的内存超过了")}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> tuple[Path, Path]:
    """(data folder, the PDF): indexed while it was a normal PDF, then replaced by a Flate bomb."""
    root = tmp_path_factory.mktemp("hostile")
    pdf = root / "docs" / "report.pdf"
    pdf.parent.mkdir()
    pdf.write_bytes(build.standard_pdf([[LINE]]))
    engine = Engine(resolve_paths(root / "data"), Settings(embedding_model="hash:64"))
    try:
        engine.index([pdf.parent])
    finally:
        engine.close()
    pdf.write_bytes(flate_bomb_pdf(3.1))
    return root / "data", pdf


@pytest.fixture
def library(indexed, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the library for one test (indexing writes to it), citing the same PDF."""
    data, pdf = indexed
    shutil.copytree(data, tmp_path / "data")
    return tmp_path / "data", pdf


def _cli(data: Path, *args: str, language: str = "en_US.UTF-8") -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "tests.support.pdfium_refused", "--data-dir", str(data), *args],
                          cwd=REPO, env=environment(language, ENV), capture_output=True, text=True, timeout=300)
    assert done.returncode != PDFIUM_HERE, done.stderr
    return done


def test_the_commands_citing_it_run_and_none_loads_pdfium(library) -> None:
    data, pdf = library
    for args in (["search", "lighthouse keeper"], ["context", "what did the lighthouse keeper record"],
                 ["ask", "what did the lighthouse keeper record"], ["summarise", str(pdf), "--extractive"],
                 ["status"]):
        done = _cli(data, *args)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.returncode, done.stderr[-800:])
        assert ("Files: 1 total" if args == ["status"] else LINE) in done.stdout, args


def test_indexing_it_fails_in_the_child_with_the_reason_in_both_languages(library) -> None:
    data, pdf = library
    for language, words in (("en_US.UTF-8", 0), ("zh_CN.UTF-8", 1)):
        done = _cli(data, "index", str(pdf.parent), "--reindex", language=language)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-800:]
        said = done.stdout + done.stderr
        assert str(pdf) in said and any(reason[words] in said for reason in REASONS.values()), (language, said)


async def _tool_calls(session) -> list:
    return [await session.call_tool(name, arguments) for name, arguments in (
        ("search", {"query": "lighthouse keeper"}),
        ("ask", {"question": "what did the lighthouse keeper record"}),
        ("ask", {"question": "summarise report.pdf"}),
        ("status", {}))]


def test_the_mcp_tools_citing_it_answer_and_the_server_serves_the_next_request(library) -> None:
    data, _pdf = library
    results = run_mcp(data, _tool_calls, module="tests.support.pdfium_refused")
    assert [r.is_error for r in results] == [False] * 4
    texts = [r.content[0].text for r in results]
    assert all("report.pdf" in text for text in texts[:3]) and json.loads(texts[3])["files"]["total"] == 1
