"""A blank question or search (`ask ""`, `search "   "`, `context " "`, as an unset shell variable gives) is refused
with a message. `ask ""` answered by quoting whatever ranked first (with a model configured it sent the model an
empty question), and `search "   "` listed passages scored 1.000."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.hash_cli import indexed_home, run_cli


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return indexed_home(tmp_path_factory.mktemp("blank"), {"tea.txt": "Green tea is brewed at 80 degrees.\n"})


@pytest.mark.parametrize("args", [("ask", ""), ("ask", " \t\n"), ("search", "   "), ("context", " ")])
def test_a_blank_question_or_search_is_refused(home: Path, args: tuple[str, ...]):
    run = run_cli(home, *args)
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == "error: The question or search is empty: type what to look for in your documents.\n"
