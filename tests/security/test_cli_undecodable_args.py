"""Arguments that are not valid text: a question or a path typed with bytes that are not UTF-8 (Python hands them
on as lone surrogates), a `--queries` line with a JSON escape of a lone surrogate. Each gets an answer or a clear
error, never a traceback.

Through the real CLI in a child process, with the hashing embedder (`hash:64`): bookkeeping, not semantics.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.support.hash_cli import run_cli

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="Windows arguments are UTF-16; no such bytes exist")


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("undecodable")
    folder, home = root / "docs", root / "home"
    folder.mkdir()
    (folder / "good.txt").write_text("The quarterly zeppelin report is ready.", encoding="utf-8")
    out = run_cli(home, "index", str(folder))
    assert out.returncode == 0, out.stderr
    return folder, home


@pytest.mark.parametrize("command", [["search"], ["search", "--json"], ["context"], ["ask"]])
def test_a_question_with_undecodable_bytes_is_answered(library, command):
    folder, home = library
    out = run_cli(home, *command, b"zeppelin \xff\xfe report")
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == 0, out.stderr
    assert "good.txt" in out.stdout


def test_a_queries_line_with_a_lone_surrogate_escape_is_searched(library, tmp_path):
    folder, home = library
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"_id": "1", "text": "zeppelin \\ud800 report"}\n', encoding="utf-8")
    for command in ("search", "context"):
        out = run_cli(home, command, "--queries", str(queries))
        assert "Traceback" not in out.stderr, out.stderr
        assert out.returncode == 0, out.stderr
        assert "good.txt" in json.loads(out.stdout.splitlines()[0])["hits" if command == "search" else "passages"][0][
            "path"]


def test_the_real_model_takes_a_question_with_lone_surrogates(fast_models_home, tmp_path):
    """The bundled model's tokenizer refuses a lone surrogate (UnicodeEncodeError): the engine makes the question
    valid text first (U+FFFD), for search, context and answers alike."""
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine import DoneEvent, Engine

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "good.txt").write_text("The quarterly zeppelin report is ready.", encoding="utf-8")
    engine = Engine(resolve_paths(fast_models_home), Settings())
    try:
        engine.index([folder])
        question = "zeppelin \udcff\ud800 report"
        assert engine.search(question, 3)[0].path == str(folder / "good.txt")
        assert engine.context(question)["passages"][0]["path"] == str(folder / "good.txt")
        done = [e for e in engine.ask(question) if isinstance(e, DoneEvent)]
        assert done and "zeppelin" in done[0].answer
    finally:
        engine.close()


@pytest.mark.parametrize("args", [
    ["search", "zeppelin", "--file", b"/tmp/nowhere\xff.txt"],
    ["search", "zeppelin", "--folder", b"/tmp/nowhere\xff"],
    ["context", "zeppelin", "--file", b"/tmp/nowhere\xff.txt"],
    ["remove", b"/tmp/nowhere\xff"],
    ["summarise", b"/tmp/nowhere\xff.txt"],
    ["link", b"/tmp/nowhere\xff", "/tmp"],
    ["status", "--collection", b"Thesis\xff"],
    ["collections", "delete", b"Thesis\xff", "--yes"],
])
def test_a_path_or_name_with_undecodable_bytes_is_not_found_with_a_message(library, args):
    folder, home = library
    out = run_cli(home, *args)
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == 1 and out.stderr.startswith("error: "), out.stderr


def test_a_failed_file_with_an_undecodable_name_is_found_by_that_name(tmp_path):
    folder, home = tmp_path / "docs", tmp_path / "home"
    folder.mkdir()
    (folder / "good.txt").write_text("The quarterly zeppelin report is ready.", encoding="utf-8")
    with open(bytes(folder) + b"/bad\xff.txt", "wb") as f:
        f.write(b"Text behind a broken name.")
    run_cli(home, "index", str(folder))
    out = run_cli(home, "summarise", bytes(folder) + b"/bad\xff.txt")  # stored as .../bad\xff.txt, failed
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == 1 and "not valid text (UTF-8)" in out.stderr, out.stderr


def test_eval_takes_a_queries_line_with_a_lone_surrogate_escape(library, tmp_path):
    folder, home = library
    queries, qrels = tmp_path / "q.jsonl", tmp_path / "q.tsv"
    queries.write_text('{"_id": "1", "text": "zeppelin \\ud800 report"}\n', encoding="utf-8")
    qrels.write_text("query-id\tcorpus-id\tscore\n1\tgone.txt\t1\n", encoding="utf-8")
    out = run_cli(home, "eval", "--queries", str(queries), "--qrels", str(qrels))
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == 0 and "zeppelin \ufffd report" in out.stdout, out.stdout
