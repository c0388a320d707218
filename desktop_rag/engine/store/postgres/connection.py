"""One connection to a PostgreSQL library (pg8000, BSD-3-Clause, pure Python), with the calling shape the store's
shared modules use on SQLite: `execute(sql, params)` with `?` marks, `fetchone` / `fetchall` / `rowcount`,
`executemany`, `in_transaction`. Server failures become errors a person can act on, never naming a password.
"""

from __future__ import annotations

import contextlib
import functools
import re
import ssl
from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from desktop_rag.engine.errors import LibraryBusyError, LibraryUnavailableError, UsageError
from desktop_rag.engine.store.postgres.url import ServerUrl, password_for
from desktop_rag.engine.system_errors import system_reason

CONNECT_TIMEOUT_S = 15.0
SOCKET_TIMEOUT_S = 600.0  # one statement's answer: an index build on a large library takes minutes
_SESSION = ("SET idle_in_transaction_session_timeout = '120s'", "SET lock_timeout = '60s'",
            "SET client_min_messages = warning")


class ServerError(UsageError):
    """The library's server refused a request (the message says which and what to do)."""


class ServerUnavailableError(ServerError, LibraryUnavailableError):
    """The library's server cannot be used now by this role: unreachable, starting, full, refusing the login or the
    role's rights (no file's fault: an index run stops)."""


class ServerGoneError(ServerUnavailableError):
    """The connection to the server was lost: what was committed is kept; the rest was rolled back."""


class Result:
    """A statement's rows, read like an sqlite3 cursor."""

    __slots__ = ("_rows", "rowcount", "_at")

    def __init__(self, rows: list | None, rowcount: int) -> None:
        self._rows = rows or []
        self.rowcount = rowcount
        self._at = 0

    def fetchone(self):
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list:
        rows, self._at = self._rows[self._at:], len(self._rows)
        return rows

    def __iter__(self) -> Iterator:
        return iter(self.fetchall())


class Connection:
    """A pg8000 connection in autocommit mode (transactions are explicit BEGIN ... COMMIT, as on SQLite).

    A connection the server dropped (a restart, a network outage) fails its statement with ServerGoneError (what
    was committed is kept, the open transaction is gone), then connects again for the next statement outside a
    transaction, running `setup` again (the session's settings).

    `schema`: the library's schema, for a connection that names its tables unqualified: a table missing (42P01)
    because this role lost the use of that schema is told as access taken back by the administrator."""

    def __init__(self, url: ServerUrl, application: str = "desktop-rag",
                 setup: Callable[[Connection], None] | None = None, schema: str | None = None) -> None:
        self.url = url
        self.application = application
        self.setup = setup
        self.schema = schema
        self.broken = False
        self._open()

    def _open(self) -> None:
        self.raw = _connect(self.url, self.application)
        self.broken = False
        try:
            for statement in _SESSION:
                self.execute(statement)
            if self.setup is not None:
                self.setup(self)
        except BaseException:
            self.close()
            self.broken = True
            raise

    @property
    def in_transaction(self) -> bool:
        if self.broken:
            return False
        return self.raw._transaction_status in (b"T", b"E")  # noqa: SLF001 - pg8000 keeps the server's last status

    def execute(self, sql: str, params: Sequence | dict = ()) -> Result:
        if self.broken:
            self.close()
            self._open()  # (ServerError when the server is still away)
        statement, order = _numbered(sql)
        values = tuple(_value(v) for v in (params if order is None else [params[name] for name in order]))
        try:
            context = self.raw.execute_unnamed(statement, vals=values)
        except Exception as exc:  # noqa: BLE001 - mapped to what a person can act on
            error = server_error(exc, self.url)
            self.broken = isinstance(error, ServerGoneError)
            if isinstance(error, ServerError) and error.values.get("state") == "42P01" and self._schema_taken_back():
                error = ServerUnavailableError.coded("server_access_revoked", server=self.url.display,
                                                     user=self.url.user)
            raise error from exc
        return Result(context.rows, context.row_count)

    def _schema_taken_back(self) -> bool:
        """Whether this role may no longer use the library's schema (it exists; its last collection was taken back,
        which takes the schema's USAGE with it: its tables then read as missing). Asked on a connection of its own
        (this one's transaction may be aborted); False when it cannot be told."""
        if self.schema is None:
            return False
        try:
            raw = _connect(self.url, f"{self.application} check")
        except Exception:  # noqa: BLE001 - the server's first refusal stands
            return False
        try:
            rows = raw.run("SELECT has_schema_privilege(oid, 'USAGE') FROM pg_namespace WHERE nspname = :name",
                           name=self.schema)
            return bool(rows) and not rows[0][0]
        except Exception:  # noqa: BLE001
            return False
        finally:
            with contextlib.suppress(Exception):
                raw.close()

    def executemany(self, sql: str, rows: Iterable[Sequence]) -> None:
        for row in rows:
            self.execute(sql, row)

    def close(self) -> None:
        try:
            self.raw.close()
        except Exception:  # noqa: BLE001 - a connection the server already dropped
            pass


def connect(url: ServerUrl, application: str = "desktop-rag") -> Connection:
    return Connection(url, application)


def _connect(url: ServerUrl, application: str):
    import pg8000.native

    password = password_for(url) or None
    common = dict(database=url.database, password=password, timeout=CONNECT_TIMEOUT_S, application_name=application)
    modes = {"disable": [None], "prefer": [_tls(False), None], "require": [_tls(False)],
             "verify-ca": [_tls(True, hostname=False)], "verify-full": [_tls(True)]}[url.sslmode]
    if url.socket:
        modes, common["unix_sock"] = [None], url.socket
    else:
        common.update(host=url.host, port=url.port)
    last: Exception | None = None
    for context in modes:
        try:
            raw = pg8000.native.Connection(url.user, ssl_context=context, **common)
            raw._usock.settimeout(SOCKET_TIMEOUT_S)  # noqa: SLF001 - the connect timeout must not bound statements
            return raw
        except Exception as exc:  # noqa: BLE001
            if password is None and _asked_for_password(exc):
                raise ServerUnavailableError.coded("server_needs_password", server=url.display, user=url.user) from None
            last = exc
            if not _refused_tls(exc):
                break
    raise server_error(last, url, connecting=True) from last


def _asked_for_password(exc: Exception) -> bool:
    """Whether pg8000 failed because the server asked for a password and none was given (its SCRAM path, the one
    PostgreSQL uses by default, fails decoding the missing password; the others say so)."""
    return isinstance(exc, AttributeError) or "no password was provided" in str(exc)


def _tls(verify: bool, hostname: bool = True) -> ssl.SSLContext:
    context = ssl.create_default_context()
    if not verify:
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    elif not hostname:
        context.check_hostname = False
    return context


def _refused_tls(exc: Exception) -> bool:
    return "ssl" in str(exc).lower() and "refuse" in str(exc).lower()


# SQLSTATE -> error code (error_texts/server.py)
_STATES = {
    "28P01": "server_wrong_password",
    "28000": "server_not_allowed",
    "3D000": "server_no_database",
    "42501": "server_no_grant",
    "53300": "server_too_many",
    "57P01": "server_gone",
    "57P02": "server_gone",
    "57P03": "server_starting",
}


def server_error(exc: BaseException | None, url: ServerUrl, connecting: bool = False) -> Exception:
    """A DesktopRagError for a pg8000 failure: which server, what went wrong, what to do (never the password)."""
    from pg8000.exceptions import DatabaseError

    exc = _server_answer(exc) or exc
    if isinstance(exc, DatabaseError) and exc.args and isinstance(exc.args[0], dict):
        fields = exc.args[0]
        state, detail = str(fields.get("C", "")), _clean(str(fields.get("M", "")), url)
        if state in ("40P01", "55P03"):  # a deadlock or a lock wait that timed out: another client writes
            return LibraryBusyError.coded("server_busy", server=url.display)
        if state == "57014":
            return ServerError.coded("server_timeout", server=url.display)
        if state == "42501" and fields.get("n") == "library_settings":  # meta_guarded (schema.py): no file's fault
            return ServerUnavailableError.coded("server_setting_administrators", server=url.display, user=url.user,
                                                setting=_clean(str(fields.get("D", "")), url))
        code = _STATES.get(state)
        if code in ("server_gone",):
            return ServerGoneError.coded(code, server=url.display, detail=detail)
        if code:
            return ServerUnavailableError.coded(code, server=url.display, user=url.user, database=url.database,
                                                detail=detail)
        return ServerError.coded("server_failed", server=url.display, state=state, detail=detail)
    # the operating system's reason behind a driver's network error ("Connection refused", "timed out"), worded in
    # either language; else the driver's own text, without a closing full stop (the sentence around it has one)
    detail = system_reason(exc) or _clean(str(exc).rstrip(". "), url) if exc is not None else ""
    if connecting:
        return ServerUnavailableError.coded("server_unreachable", server=url.display, detail=detail)
    return ServerGoneError.coded("server_gone", server=url.display, detail=detail)


def _server_answer(exc: BaseException | None) -> BaseException | None:
    """The server's own error behind `exc`: pg8000 reports a refused login as the "network error" of closing the
    socket the server already closed, with the server's answer as its context."""
    from pg8000.exceptions import DatabaseError

    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, DatabaseError) and exc.args and isinstance(exc.args[0], dict):
            return exc
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return None


def _clean(text: str, url: ServerUrl) -> str:
    """A server's or driver's text, bounded, with the password taken out should it ever appear."""
    password = password_for(url)
    if password:
        text = text.replace(password, "***")
    return re.sub(r"[\x00-\x1f\x7f]", " ", text)[:500]


@functools.lru_cache(maxsize=2048)
def _numbered(sql: str) -> tuple[str, tuple[str, ...] | None]:
    """SQLite-style `?` (or `:name`) marks as PostgreSQL's `$1, $2, ...`, outside quotes; for named marks, the
    names in order."""
    out, names, count, quote = [], [], 0, None
    i = 0
    while i < len(sql):
        ch = sql[i]
        if quote:
            out.append(ch)
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
            out.append(ch)
        elif ch == "?":
            count += 1
            out.append(f"${count}")
        elif ch == ":" and i + 1 < len(sql) and (sql[i + 1].isalpha() or sql[i + 1] == "_") and \
                (i == 0 or sql[i - 1] != ":"):
            j = i + 1
            while j < len(sql) and (sql[j].isalnum() or sql[j] == "_"):
                j += 1
            name = sql[i + 1:j]
            if name not in names:
                names.append(name)
            out.append(f"${names.index(name) + 1}")
            i = j
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out), (tuple(names) if names else None)


def _value(value: object) -> object:
    """numpy scalars as Python numbers (pg8000 knows only the built-in types)."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, memoryview):
        return bytes(value)
    return value
