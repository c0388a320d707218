"""Links inside a source are not followed: nothing outside the chosen folders is read, nothing is read twice.

Bookkeeping, not semantics: the deterministic hashing embedder keeps it fast.
"""

from __future__ import annotations

import sys

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="creating symlinks needs privileges on Windows")


def test_links_to_outside_are_skipped_with_a_reason_and_inside_links_index_once(tmp_path):
    secret = tmp_path / "private"
    secret.mkdir()
    (secret / "diary.txt").write_text("The vault combination is marmalade.", encoding="utf-8")
    (tmp_path / "alone.txt").write_text("Payroll figures: marmalade bonus.", encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "real.txt").write_text("Meeting notes about the harbour project.", encoding="utf-8")
    (docs / "private_link").symlink_to(secret, target_is_directory=True)  # a folder outside the source
    (docs / "payroll.txt").symlink_to(tmp_path / "alone.txt")  # a file outside the source
    (docs / "again.txt").symlink_to(docs / "real.txt")  # a file inside the source

    events = []
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    try:
        report = engine.index([docs], on_file=events.append)
        assert report.added == 1 and not report.failed
        assert [f.path for f in engine.files()] == [str(docs / "real.txt")]
        assert not [h for h in engine.search("marmalade") if "marmalade" in h.text], "text outside the source was read"
        assert engine.status().chunks == 1, "a linked file was indexed twice"
        skipped = {e.path: str(e.error) for e in events if e.state == "skipped"}
        assert set(skipped) == {str(docs / "private_link"), str(docs / "payroll.txt")}
        assert all("outside the folder you chose" in why and "not followed" in why for why in skipped.values())
    finally:
        engine.close()


def test_a_source_that_is_itself_a_link_is_read_where_it_points(tmp_path):
    """Choosing a linked folder is an explicit choice: it is stored under its real path and indexed."""
    real = tmp_path / "real_docs"
    real.mkdir()
    (real / "a.txt").write_text("Lighthouse maintenance schedule.", encoding="utf-8")
    (tmp_path / "shortcut").symlink_to(real, target_is_directory=True)
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    try:
        engine.index([tmp_path / "shortcut"])
        assert [s.path for s in engine.sources()] == [str(real)]
        assert [f.path for f in engine.files()] == [str(real / "a.txt")]
    finally:
        engine.close()



@pytest.mark.parametrize("args", [("index", "{loop}"), ("import", "{archive}", "--documents-dir", "{loop}")])
def test_a_symlink_loop_given_as_a_path_is_a_clear_error_not_a_traceback(tmp_path, args):
    """`Path.resolve` raised RuntimeError("Symlink loop ...") through `index LOOP` and `import --documents-dir LOOP`
    (and was caught one by one elsewhere)."""
    import os
    import subprocess

    from tests.support import REPO

    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tea.txt").write_text("Green tea is brewed at 80 degrees.", encoding="utf-8")
    env = {**os.environ, "DESKTOP_RAG_EMBEDDING_MODEL": "hash:64"}
    command = [sys.executable, "-m", "desktop_rag", "--data-dir"]
    archive = tmp_path / "tea.zip"
    for step in (("index", str(docs)), ("export", str(archive), "--with-documents")):
        assert subprocess.run([*command, str(tmp_path / "home"), *step], cwd=REPO, env=env).returncode == 0
    filled = [a.format(loop=tmp_path / "a", archive=archive) for a in args]
    run = subprocess.run([*command, str(tmp_path / "other"), *filled], cwd=REPO, env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.startswith("error: ") and str(tmp_path / "a") in run.stderr, run.stderr
