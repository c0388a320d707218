"""A blank question or search (`ask ""`, `search "   "`, `context " "`, as an unset shell variable gives) is refused
with a message. `ask ""` answered by quoting whatever ranked first (with a model configured it sent the model an
empty question), and `search "   "` listed passages scored 1.000."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import Engine

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "DESKTOP_RAG_EMBEDDING_MODEL": "hash:64", "PYTHONPATH": str(REPO)}


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("blank")
    (root / "docs").mkdir()
    (root / "docs" / "tea.txt").write_text("Green tea is brewed at 80 degrees.\n", encoding="utf-8")
    engine = Engine(resolve_paths(root / "home"), Settings(embedding_model="hash:64"))
    try:
        engine.index([root / "docs"])
    finally:
        engine.close()
    return root / "home"


@pytest.mark.parametrize("args", [("ask", ""), ("ask", " \t\n"), ("search", "   "), ("context", " ")])
def test_a_blank_question_or_search_is_refused(home: Path, args: tuple[str, ...]):
    run = subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args], cwd=REPO, env=ENV,
                         capture_output=True, text=True, timeout=300)
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == "error: The question or search is empty: type what to look for in your documents.\n"
