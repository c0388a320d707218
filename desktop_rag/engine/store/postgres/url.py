"""A library's `postgresql://` URL: what to connect to, shown only without its password.

Accepted: `postgresql://[user[:password]@][host][:port]/database[?host=/socket/dir&port=N&sslmode=MODE]` (also
`postgres://`). The password, when the URL holds one, never leaves this object: `display` and `repr` leave it out,
and `password_for` looks it up elsewhere first when the URL has none (the environment's
DESKTOP_RAG_LIBRARY_PASSWORD, which `.env` in the config folder may set, then the OS keyring).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from urllib.parse import parse_qs, unquote, urlsplit

from desktop_rag.engine.errors import UsageError

PASSWORD_VARIABLE = "DESKTOP_RAG_LIBRARY_PASSWORD"
KEYRING_SERVICE = "desktop-rag"
SSL_MODES = ("disable", "prefer", "require", "verify-ca", "verify-full")
_MAX_URL = 2048


def is_server_url(text: str | None) -> bool:
    """Whether a library location names a PostgreSQL server (else it is a data folder of this computer)."""
    return bool(text) and text.strip().lower().startswith(("postgresql://", "postgres://"))


@dataclass(frozen=True)
class ServerUrl:
    user: str
    host: str  # a host name or address, or an absolute folder holding the server's Unix socket
    port: int
    database: str
    sslmode: str = "prefer"
    password: str = field(default="", repr=False, compare=False)

    @property
    def socket(self) -> str | None:
        """The Unix socket's path when `host` is a folder, else None."""
        return f"{self.host.rstrip('/')}/.s.PGSQL.{self.port}" if self.host.startswith("/") else None

    @property
    def display(self) -> str:
        """The URL as shown in the window, the logs and errors: never the password."""
        where = f"{self.host}:{self.port}" if not self.socket else f"{self.host} (socket, port {self.port})"
        return f"postgresql://{self.user}@{where}/{self.database}"

    @property
    def keyring_account(self) -> str:
        return f"{self.user}@{self.host}:{self.port}/{self.database}"

    def __str__(self) -> str:
        return self.display


def parse_server_url(text: str) -> ServerUrl:
    """The URL's parts (UsageError naming what is wrong, never echoing a password)."""
    text = text.strip()
    if len(text) > _MAX_URL or not is_server_url(text) or any(ord(c) < 32 for c in text):
        raise UsageError.coded("server_bad_url", detail=_shape(text))
    try:
        parts = urlsplit(text)
        port_in_netloc = parts.port
    except ValueError:
        raise UsageError.coded("server_bad_url", detail=_shape(text)) from None
    query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    host = unquote(query.get("host") or parts.hostname or "localhost")
    try:
        port = int(query.get("port") or port_in_netloc or 5432)
    except ValueError:
        raise UsageError.coded("server_bad_url", detail="port") from None
    database = unquote(parts.path.lstrip("/")) or "desktop_rag"
    sslmode = query.get("sslmode") or ("disable" if host.startswith("/") else "prefer")
    if not 0 < port < 65536 or sslmode not in SSL_MODES or "/" in database:
        raise UsageError.coded("server_bad_url", detail="port, sslmode or database")
    user = unquote(parts.username or "") or os.environ.get("PGUSER") or _login_name()
    return ServerUrl(user, host, port, database, sslmode, unquote(parts.password or ""))


def password_for(url: ServerUrl) -> str:
    """The password to connect with: the URL's own, else DESKTOP_RAG_LIBRARY_PASSWORD, else the OS keyring's entry
    for this user, server and database; "" when none is known (the server may not ask for one)."""
    if url.password:
        return url.password
    if os.environ.get(PASSWORD_VARIABLE):
        return os.environ[PASSWORD_VARIABLE]
    return keyring_password(url) or ""


def keyring_password(url: ServerUrl) -> str | None:
    """The OS keyring's password for this account, or None (no keyring on this system is not an error)."""
    try:
        import keyring

        return keyring.get_password(KEYRING_SERVICE, url.keyring_account)
    except Exception:  # noqa: BLE001 - no keyring package, no backend (a headless Linux), a locked keyring
        return None


def save_keyring_password(url: ServerUrl, password: str) -> bool:
    """Keep the password in the OS keyring; False when this system has none (then `.env` is the place)."""
    try:
        import keyring

        keyring.set_password(KEYRING_SERVICE, url.keyring_account, password)
        return True
    except Exception:  # noqa: BLE001 - as above
        return False


def _shape(text: str) -> str:
    """What kind of text was given, without repeating it (it may hold a password)."""
    return f"{len(text)} characters, starting “{text[:13]}”" if is_server_url(text) else "not a postgresql:// URL"


def _login_name() -> str:
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name (a container without a passwd entry)
        return "postgres"
