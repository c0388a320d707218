"""Escape sequences in headings, file names, model tokens and server errors never reach the terminal raw.

Runs the real CLI in a child process on a real library; `--json` must still carry the text exactly.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from desktop_rag.config import Settings, resolve_paths, save_settings
from tests.support.openai_server import run_openai_server

KEY = "sk-test-SECRET1234567890abcdefXYZ"
TITLE_AND_CLEAR = "\x1b]0;pwned\x07\x1b[2J"
HEADING = f"Zebra budget {TITLE_AND_CLEAR}plan"
EVIL_NAME = "evil\x1b[2J\x07\u202ename.txt"
BROKEN_NAME = "broken\x1b]0;owned\x07.pdf"
# Anything a terminal acts on: C0 (but tab/newline), DEL, C1, bidi embeddings/overrides/isolates.
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def run(home, *args, env_extra=None):
    env = dict(os.environ, PYTHONIOENCODING="utf-8", **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args],
                          capture_output=True, text=True, encoding="utf-8", timeout=300, env=env)


def assert_clean(out: subprocess.CompletedProcess) -> None:
    for name, text in (("stdout", out.stdout), ("stderr", out.stderr)):
        found = CONTROL.findall(text)
        assert not found, f"{name} carries control characters {found!r}: {text!r}"


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    """A library with a hostile heading, a hostile file name and a broken file with a hostile name."""
    home = tmp_path_factory.mktemp("home")
    # These tests are about what reaches the terminal, not semantics: the hash embedder keeps each CLI run fast.
    save_settings(resolve_paths(home).ensure(), Settings(embedding_model="hash:64"))
    docs = tmp_path_factory.mktemp("docs")
    (docs / "notes.md").write_text(
        f"# {HEADING}\n\nThe zebra budget for 2024 is forty thousand dollars \x1b[31mred\x1b[0m.\n", encoding="utf-8")
    (docs / EVIL_NAME).write_text("Zebra herds migrate north every spring.\n", encoding="utf-8")
    (docs / BROKEN_NAME).write_bytes(b"%PDF-1.4 this is not really a pdf")
    INDEX_RUN.append(run(home, "index", str(docs)))
    return home


INDEX_RUN: list[subprocess.CompletedProcess] = []


def test_index_and_status_print_failed_names_without_escapes(library):
    (out,) = INDEX_RUN
    assert "failed: " in out.stdout and "broken" in out.stdout, out.stdout + out.stderr
    assert_clean(out)
    out = run(library, "status")
    assert "broken" in out.stdout and ".pdf" in out.stdout
    assert_clean(out)


def test_search_strips_escapes_from_headings_names_and_text(library):
    out = run(library, "search", "zebra budget", "-k", "5")
    assert out.returncode == 0, out.stderr
    assert "Zebra budget \ufffd\ufffdplan" in out.stdout and "evil\ufffd\ufffd\ufffdname.txt" in out.stdout
    assert_clean(out)


def test_search_json_keeps_the_text_exactly(library):
    out = run(library, "search", "zebra budget", "-k", "5", "--json")
    assert_clean(out)  # JSON escapes them: \u001b, \u202e ...
    hits = json.loads(out.stdout)["hits"]
    assert any(h["heading"] == HEADING for h in hits), [h["heading"] for h in hits]
    assert any(h["path"].endswith(EVIL_NAME) for h in hits)


def test_ask_strips_escapes_split_across_streamed_tokens(library):
    tokens = ["The zebra budget ", "\x1b]0;pw", "ned\x07is forty ", "thousand \x1b", "[2J", "dollars [1].",
              "\x9b31m\u202e"]
    with run_openai_server() as server:
        server.tokens = tokens
        env = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.base_url, "OPENAI_MODEL": "fake-model"}
        out = run(library, "ask", "What is the zebra budget?", env_extra=env)
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith("The zebra budget is forty thousand dollars [1].")
        assert_clean(out)
        out = run(library, "ask", "What is the zebra budget?", "--json", env_extra=env)
        assert_clean(out)
        assert json.loads(out.stdout)["answer"] == "".join(tokens)


def test_ask_strips_escapes_from_server_error_text(library):
    with run_openai_server() as server:
        server.fail_next(400, times=5, message=f"upstream {TITLE_AND_CLEAR}exploded")
        env = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.base_url, "OPENAI_MODEL": "fake-model"}
        out = run(library, "ask", "What is the zebra budget?", env_extra=env)
    assert out.returncode == 1
    assert "upstream \ufffd\ufffdexploded" in out.stderr
    assert_clean(out)


def test_an_error_stays_on_one_line_whatever_newlines_a_name_or_a_server_puts_in_it(library):
    out = run(library, "index", "/no/such\nerror: your library was deleted")
    assert out.returncode == 1
    assert out.stderr.splitlines() == ["error: No such file or folder: /no/such error: your library was deleted"]
    with run_openai_server() as server:
        server.fail_next(400, times=5, message="upstream exploded\nAnswer: transfer the budget to account 42")
        env = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.base_url, "OPENAI_MODEL": "fake-model"}
        out = run(library, "ask", "What is the zebra budget?", env_extra=env)
    assert out.returncode == 1 and "upstream exploded Answer: transfer" in out.stderr, out.stderr
    assert not any(line.startswith("Answer:") for line in out.stderr.splitlines())
