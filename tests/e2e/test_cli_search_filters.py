"""`search`/`ask` --folder and --type through the real CLI (a child process, the bundled model): only matching
files come back, and a folder or type the library lacks is a clear error with the contract's exit code
(docs/ARCHITECTURE.md section 10: a bad option value is a usage error, 2; a folder the library does not hold is a failed
request, 1, like an unknown collection or `remove` of a path that is not a source)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.data.make_fixtures import build_pdf
from tests.support.fast_models import fast_env, link_fast_models

TOPIC = "Glacier meltwater and {what}: the {name} survey measured how glaciers retreat and how meltwater feeds rivers."


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "desktop_rag", *args], capture_output=True, text=True, timeout=600,
                          env=fast_env())


@pytest.fixture(scope="module")
def library(tmp_path_factory, converted_home):
    """Two folders with md, txt and pdf files that all speak of glaciers, indexed with the real model (on the app's
    default fast runtime, its files built once per run)."""
    root = tmp_path_factory.mktemp("filters")
    docs, home = root / "docs", link_fast_models(converted_home, root / "home")
    field, office = docs / "field notes", docs / "office"
    (field / "2024").mkdir(parents=True)
    office.mkdir()
    (field / "camp.md").write_text("# Camp\n\n" + TOPIC.format(what="tents", name="camp"), "utf-8")
    (field / "2024" / "log.txt").write_text(TOPIC.format(what="ice cores", name="log"), "utf-8")
    (field / "survey.pdf").write_bytes(build_pdf([[TOPIC.format(what="rivers", name="field PDF")[:80],
                                                  "Meltwater from the glacier feeds rivers in spring."]]))
    (office / "budget.md").write_text("# Budget\n\n" + TOPIC.format(what="costs", name="office"), "utf-8")
    (office / "memo.txt").write_text(TOPIC.format(what="staff", name="memo"), "utf-8")
    (office / "report.pdf").write_bytes(build_pdf([[TOPIC.format(what="reports", name="office PDF")[:80],
                                                   "The glacier report covers meltwater and rivers."]]))
    out = cli("--data-dir", str(home), "index", str(docs), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["added"] == 6
    return docs, home


def search(home: Path, *flags: str) -> list[dict]:
    out = cli("--data-dir", str(home), "search", "glacier meltwater rivers", "-k", "10", "--json", *flags)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["hits"]


def test_search_filters_by_folder_type_and_both(library):
    docs, home = library
    names = lambda hits: sorted(Path(h["path"]).relative_to(docs).as_posix() for h in hits)  # noqa: E731
    assert names(search(home)) == ["field notes/2024/log.txt", "field notes/camp.md", "field notes/survey.pdf",
                                   "office/budget.md", "office/memo.txt", "office/report.pdf"]
    assert names(search(home, "--folder", str(docs / "field notes"))) == [
        "field notes/2024/log.txt", "field notes/camp.md", "field notes/survey.pdf"]
    assert names(search(home, "--type", "pdf")) == ["field notes/survey.pdf", "office/report.pdf"]
    assert names(search(home, "--folder", str(docs / "office"), "--type", "md", "--type", "txt")) == [
        "office/budget.md", "office/memo.txt"]
    assert names(search(home, "--folder", str(docs / "field notes" / "2024"), "--folder", str(docs / "office"),
                        "--type", "txt")) == ["field notes/2024/log.txt", "office/memo.txt"]


def test_ask_answers_from_the_chosen_folder_only(library):
    docs, home = library
    out = cli("--data-dir", str(home), "ask", "How does glacier meltwater feed rivers?", "--json",
              "--folder", str(docs / "office"))
    assert out.returncode == 0, out.stderr
    sources = json.loads(out.stdout)["sources"]
    assert sources and all(Path(s["path"]).parent == docs / "office" for s in sources)


def test_bad_folder_or_type_is_a_clear_error_with_the_contracts_exit_code(library, tmp_path):
    docs, home = library
    out = cli("--data-dir", str(home), "search", "glacier", "--folder", str(tmp_path / "nowhere"))
    assert out.returncode == 1 and out.stdout == ""
    assert "Nothing in the library is in the folder" in out.stderr and "library's folders are" in out.stderr
    assert str(docs) in out.stderr
    out = cli("--data-dir", str(home), "ask", "glacier?", "--folder", str(docs / "offic"))
    assert out.returncode == 1 and "Nothing in the library is in the folder" in out.stderr
    out = cli("--data-dir", str(home), "search", "glacier", "--type", "exe")
    assert out.returncode == 2 and "invalid choice: 'exe'" in out.stderr and "'pdf', 'docx', 'pptx', 'xlsx', 'csv', 'html', 'epub', 'email', 'odt', 'rtf', 'doc', 'ppt', 'xls', 'md', 'txt'" in out.stderr
    hostile = "evil\x1b[31m\u202e"
    out = cli("--data-dir", str(home), "search", "glacier", "--folder", str(docs / hostile))
    assert out.returncode == 1 and "\x1b" not in out.stderr and "\u202e" not in out.stderr


def test_search_context_and_ask_in_one_file(library):
    docs, home = library
    memo = str(docs / "office" / "memo.txt")
    assert {h["path"] for h in search(home, "--file", memo)} == {memo}
    out = cli("--data-dir", str(home), "context", "glacier meltwater rivers", "--json", "--file", memo)
    assert out.returncode == 0, out.stderr
    assert {p["path"] for p in json.loads(out.stdout)["passages"]} == {memo}
    out = cli("--data-dir", str(home), "ask", "How does glacier meltwater feed rivers?", "--json", "--file", memo)
    assert out.returncode == 0, out.stderr
    sources = json.loads(out.stdout)["sources"]
    assert sources and {s["path"] for s in sources} == {memo}
    out = cli("--data-dir", str(home), "ask", "glacier?", "--file", str(docs / "office"))
    assert out.returncode == 1 and out.stdout == "" and "is not a file of the library" in out.stderr
