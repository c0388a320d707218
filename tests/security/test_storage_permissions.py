"""Attack: another local user reads the library. Under the usual umask 022 the data folder was 0755 and
`library.sqlite3` and the logs 0644, while the database holds the text of every document (decrypted text of
password-protected PDFs included). On POSIX the app's folders are now 0700 and its files 0600 whatever the umask,
and a folder left 0755 by an older version is tightened when the app next runs."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths, save_settings

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_library_folders_and_files_are_owner_only_under_umask_022(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir(mode=0o755)  # as an older version left it
    os.chmod(home, 0o755)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "diary.txt").write_text("Diary\n\nWhat only I should read.", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    code = ("import os, sys; os.umask(0o022)\n"
            "from desktop_rag.config import Settings, resolve_paths, save_settings\n"
            "save_settings(resolve_paths(sys.argv[1]).ensure(), Settings(embedding_model='hash:64'))\n"
            "from desktop_rag.cli.main import main\n"
            "sys.exit(main(['--data-dir', sys.argv[1], 'index', sys.argv[2]]))\n")
    done = subprocess.run([sys.executable, "-c", code, str(home), str(docs)], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    paths = resolve_paths(home)
    expected = [paths.database, paths.settings_file, paths.log_dir / "desktop-rag.log", home / "vectors.faiss"]
    assert all(p.exists() for p in expected), [p for p in expected if not p.exists()]
    folders = [home, *[p for p in home.rglob("*") if p.is_dir()]]
    files = [p for p in home.rglob("*") if p.is_file()]
    assert {str(p.relative_to(tmp_path)): oct(_mode(p)) for p in folders if _mode(p) != 0o700} == {}
    assert {str(p.relative_to(tmp_path)): oct(_mode(p)) for p in files if _mode(p) & 0o077} == {}


def test_a_rolled_over_log_file_is_owner_only_too(tmp_path: Path):
    from desktop_rag import logs

    old = os.umask(0o022)
    try:
        handler = logs._open_handler(tmp_path / "logs" / "app.log")
        try:
            handler.stream.write("x")
            handler.doRollover()
        finally:
            handler.close()
    finally:
        os.umask(old)
    assert _mode(tmp_path / "logs") == 0o700
    assert {p.name: oct(_mode(p)) for p in (tmp_path / "logs").iterdir() if _mode(p) & 0o077} == {}
    assert (tmp_path / "logs" / "app.log.1").exists()


def test_saved_settings_are_owner_only(tmp_path: Path):
    old = os.umask(0o022)
    try:
        paths = resolve_paths(tmp_path / "home")
        save_settings(paths, Settings(top_k=7))
    finally:
        os.umask(old)
    assert _mode(paths.settings_file) == 0o600 and _mode(paths.config_dir) == 0o700
