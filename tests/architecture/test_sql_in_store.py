"""All SQL on the library's database is in engine/store/ (docs/ARCHITECTURE.md); the word list keeps its own
database's SQL beside it (text/lexicon.py)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support import REPO

PACKAGE = REPO / "desktop_rag"
ALLOWED = ("engine/store/", "engine/text/lexicon.py")
CALL = re.compile(r"\.(?:execute|executemany|executescript)\(")


def sql_outside_the_store(package: Path) -> list[str]:
    """`file:line` of every statement run outside the allowed places."""
    found = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package).as_posix()
        if relative.startswith(ALLOWED):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CALL.search(line):
                found.append(f"{relative}:{number}")
    return found


def test_no_sql_outside_the_store():
    assert sql_outside_the_store(PACKAGE) == []


def test_a_statement_outside_the_store_is_found(tmp_path):
    module = tmp_path / "engine" / "search" / "sneaky.py"
    module.parent.mkdir(parents=True)
    module.write_text("def f(store):\n    return store.db.execute('SELECT 1')\n", encoding="utf-8")
    (tmp_path / "engine" / "store").mkdir()
    (tmp_path / "engine" / "store" / "fine.py").write_text("db.execute('SELECT 1')\n", encoding="utf-8")
    assert sql_outside_the_store(tmp_path) == ["engine/search/sneaky.py:2"]
