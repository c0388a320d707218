"""The command line of a library on a server, as a person runs it: `local-server` (its URL first on stdout, stopped
cleanly by SIGTERM), `--library` on any command, `move-library` there and back (nothing embedded again), and
`collections grant` where it makes sense and a clear message where it does not."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.support import REPO
from tests.support.hash_cli import ENV, run_cli, use_locale


def _run(home: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """`run_cli`, its exit status checked unless `check` is false."""
    result = run_cli(home, *args)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def _docs(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "tea.txt").write_text("Green tea\n\nBrew green tea at 80 degrees for two minutes.\n", "utf-8")
    (folder / "coffee.txt").write_text("Coffee\n\nA French press steeps for four minutes.\n", "utf-8")
    return folder


def test_local_server_prints_its_url_serves_and_stops_on_sigterm(tmp_path):
    folder = Path(tempfile.mkdtemp(prefix="desktop-rag-cli-server-"))
    home = tmp_path / "home"
    server = subprocess.Popen([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "local-server",
                               str(folder / "db")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              cwd=REPO, env=ENV)
    try:
        url = server.stdout.readline().strip()
        assert url.startswith("postgresql://postgres@/desktop_rag?host=") and ":" not in url.split("@")[0][13:]
        password = (folder / "db" / "admin-password").read_text().strip()
        docs = _docs(tmp_path / "docs")
        _run(home, "--library", url, "index", str(docs))  # the password: saved for this user by local-server
        status = json.loads(_run(home, "--library", url, "status", "--json").stdout)
        assert status["files"]["indexed"] == 2 and status["chunks_pending_embedding"] == 0
        found = json.loads(_run(home, "--library", url, "search", "green tea temperature", "--json").stdout)
        assert Path(found["hits"][0]["path"]).name == "tea.txt"
        pid = int((folder / "db" / "pgdata" / "postmaster.pid").read_text().split()[0])
        server.send_signal(signal.SIGTERM)
        assert server.wait(60) == 0
        time.sleep(0.5)
        assert not (folder / "db" / "pgdata" / "postmaster.pid").exists()
        try:
            os.kill(pid, 0)
            alive = True
        except OSError:
            alive = False
        assert not alive, "PostgreSQL outlived its local-server"
        stderr = server.stderr.read()
        assert password not in stderr and "Ctrl+C" in stderr
    finally:
        if server.poll() is None:
            server.kill()
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


def test_a_library_moves_to_the_server_and_back(pg_server, tmp_path):
    url = pg_server.url(pg_server.new_database("move_cli"))
    home, other = tmp_path / "home", tmp_path / "other"
    _run(home, "index", str(_docs(tmp_path / "docs")))
    moved = json.loads(_run(home, "move-library", url, "--json").stdout)
    assert moved["collections"] == 1 and moved["vectors"] == moved["chunks"] > 0 and "@" in moved["to"]
    assert pg_server.password not in moved["to"]
    status = json.loads(_run(home, "status", "--json").stdout)  # this computer now uses the server's library
    assert status["files"]["indexed"] == 2 and status["chunks_pending_embedding"] == 0
    back = _run(other, "--library", url, "move-library", "local").stdout
    assert back.startswith(f"Copied 1 collection (2 files, {moved['chunks']} passages, {moved['vectors']} vectors; "
                           "nothing embedded again) to ")
    here = json.loads(_run(other, "status", "--json").stdout)
    assert here["chunks"] == moved["chunks"] and here["chunks_pending_embedding"] == 0
    found = json.loads(_run(other, "search", "French press minutes", "--json").stdout)
    assert Path(found["hits"][0]["path"]).name == "coffee.txt"


def test_granting_needs_a_server_library_and_its_administrator(pg_server, tmp_path, monkeypatch):
    local = _run(tmp_path / "local", "collections", "grant", "Default", "alice", check=False)
    assert local.returncode == 1 and "PostgreSQL server" in local.stderr
    url = pg_server.url(pg_server.new_database("grant_cli"))
    pg_server.role("dave", "dave-password-4")
    _run(tmp_path / "admin", "--library", url, "collections", "create", "Team")
    out = _run(tmp_path / "admin", "--library", url, "collections", "grant", "Team", "dave").stdout
    assert "dave" in out and "Team" in out
    listed = json.loads(_run(tmp_path / "admin", "--library", url, "collections", "--json").stdout)
    assert {"collection": "Team", "role": "dave"} in listed["grants"]
    theirs = pg_server.url(url.split("/")[3].split("?")[0], "dave", "dave-password-4")
    seen = json.loads(_run(tmp_path / "dave", "--library", theirs, "collections", "--json").stdout)
    assert [c["name"] for c in seen["collections"]] == ["Team"]
    refused = _run(tmp_path / "dave", "--library", theirs, "collections", "grant", "Team", "dave", check=False)
    assert refused.returncode == 1 and "administrator" in refused.stderr
    use_locale(monkeypatch, "zh_CN.UTF-8", ENV)
    zh = _run(tmp_path / "dave", "--library", theirs, "collections", "grant", "Team", "dave", check=False)
    assert zh.returncode == 1 and "管理员" in zh.stderr


def test_a_server_folder_that_is_a_file_is_a_clear_error(tmp_path):
    """`local-server FILE` ended with a FileExistsError traceback (and `local-server FILE/sub` NotADirectoryError)."""
    afile = tmp_path / "notes.txt"
    afile.write_text("not a folder", "utf-8")
    for folder in (afile, afile / "db"):
        run = _run(tmp_path / "home", "local-server", str(folder), check=False)
        assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
        assert run.stderr.startswith(f"error: The server's folder {folder} cannot be made ("), run.stderr
    assert afile.read_text("utf-8") == "not a folder"


def test_a_mistyped_library_address_is_refused_not_taken_as_this_computers(tmp_path):
    """`--library 'not a url'` (or `mysql://…`, `postgresq://…` in DESKTOP_RAG_LIBRARY) opened this computer's library
    without a word: a person who meant the team's library indexed into a private one. Now: an error saying how an
    address is written, and nothing made in the data folder; `local` is still this computer's."""
    home = tmp_path / "home"
    docs = _docs(tmp_path / "docs")
    for library in ("not a url", "mysql://anna@db.example:5432/team", "postgresq://anna@db.example/team"):
        for args, env in ((["--library", library], ENV), ([], {**ENV, "DESKTOP_RAG_LIBRARY": library})):
            run = subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args, "index",
                                  str(docs)], capture_output=True, text=True, cwd=REPO, env=env, timeout=300)
            assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
            assert run.stderr == ("error: This is not a library address. A library on a PostgreSQL server is "
                                  "written postgresql://USER@HOST:PORT/DATABASE; this computer's library needs none "
                                  "(on the command line: --library local).\n"), run.stderr
    assert not (home / "library.sqlite3").exists()
    _run(home, "--library", "local", "index", str(docs))
    assert json.loads(_run(home, "--library", "LOCAL", "status", "--json").stdout)["files"]["indexed"] == 2
