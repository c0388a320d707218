"""A library's postgresql:// address read into its parts, without a server: what is accepted, what is refused with
which part is wrong, and that the password never shows (display, repr, the refusal's text)."""

from __future__ import annotations

import sys
import types

import pytest

from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.store.postgres import url as server_url
from desktop_rag.engine.store.postgres.url import PASSWORD_VARIABLE, ServerUrl, is_server_url, parse_server_url


@pytest.mark.parametrize(("text", "expected"), [
    ("postgresql://anna@db.example:6543/team", ("anna", "db.example", 6543, "team", "prefer", "")),
    ("  POSTGRES://anna:s%40cret@db.example/team  ", ("anna", "db.example", 5432, "team", "prefer", "s@cret")),
    ("postgresql://anna@db.example/team?sslmode=verify-full", ("anna", "db.example", 5432, "team", "verify-full", "")),
    ("postgresql://anna@/team?host=/run/pg&port=5433", ("anna", "/run/pg", 5433, "team", "disable", "")),
    ("postgresql://anna@/team?host=%2Frun%2Fpg", ("anna", "/run/pg", 5432, "team", "disable", "")),
    ("postgresql://anna@db.example:5432/t%C3%A9am?port=7000", ("anna", "db.example", 7000, "téam", "prefer", "")),
    ("postgresql://anna@db.example", ("anna", "db.example", 5432, "desktop_rag", "prefer", "")),
    ("postgresql://anna@/team", ("anna", "localhost", 5432, "team", "prefer", "")),
    ("postgresql://anna@db.example/my team", ("anna", "db.example", 5432, "my team", "prefer", "")),  # a space: text
    ("postgresql://anna@db.example/team?sslmode=require&sslmode=disable",
     ("anna", "db.example", 5432, "team", "disable", "")),  # the last value of a repeated option
])
def test_an_address_is_read_into_its_parts(text, expected):
    found = parse_server_url(text)
    assert (found.user, found.host, found.port, found.database, found.sslmode, found.password) == expected


def test_without_a_user_the_environment_then_the_login_name(monkeypatch):
    monkeypatch.setenv("PGUSER", "pguser")
    assert parse_server_url("postgresql://db.example/team").user == "pguser"
    monkeypatch.delenv("PGUSER")
    monkeypatch.setattr(server_url, "_login_name", lambda: "login")
    assert parse_server_url("postgresql://db.example/team").user == "login"
    assert parse_server_url("postgresql://@db.example/team").user == "login"


@pytest.mark.parametrize(("text", "detail"), [
    ("mysql://anna@db.example/team", "not a postgresql:// URL"),
    ("postgresql://anna@db.example/te\nam", None),  # None: its shape, "N characters, starting …"
    ("postgresql://anna@db.example:99999/team", None),  # urlsplit's own refusal
    ("postgresql://anna@db.example/team?port=x1", "port"),
    ("postgresql://anna@db.example/team?port=0", "port, sslmode or database"),
    ("postgresql://anna@db.example/team?port=65536", "port, sslmode or database"),
    ("postgresql://anna@db.example/team?sslmode=sometimes", "port, sslmode or database"),
    ("postgresql://anna@db.example/team/more", "port, sslmode or database"),
    ("postgresql://anna@db.example/" + "x" * 2048, None),
])
def test_an_unusable_address_says_which_part_without_repeating_it(text, detail):
    with pytest.raises(UsageError) as caught:
        parse_server_url(text)
    shape = f"{len(text)} characters, starting “postgresql://”"
    assert caught.value.code == "server_bad_url" and caught.value.values == {"detail": detail or shape}


def test_the_edges_of_what_is_accepted():
    assert parse_server_url("postgresql://a@h/d?port=65535").port == 65535
    assert parse_server_url("postgresql://a@h/d?port=1").port == 1
    assert parse_server_url("postgresql://a@h/" + "x" * (2048 - len("postgresql://a@h/"))).database.startswith("xx")
    assert all(parse_server_url(f"postgresql://a@h/d?sslmode={mode}").sslmode == mode
               for mode in ("disable", "prefer", "require", "verify-ca", "verify-full"))


def test_the_password_never_shows():
    found = parse_server_url("postgresql://anna:hunter2-secret@db.example:6543/team")
    assert found.password == "hunter2-secret"
    assert found.display == str(found) == "postgresql://anna@db.example:6543/team"
    assert "hunter2" not in repr(found) and found.keyring_account == "anna@db.example:6543/team"
    assert found == parse_server_url("postgresql://anna@db.example:6543/team")  # the password is not compared
    with pytest.raises(UsageError) as caught:
        parse_server_url("postgresql://anna:hunter2-secret@db.example:6543/team?sslmode=no")
    assert "hunter2" not in str(caught.value)


def test_a_socket_folder_is_shown_as_one():
    found = parse_server_url("postgresql://anna@/team?host=/run/pg/&port=5433")
    assert found.socket == "/run/pg/.s.PGSQL.5433"
    assert found.display == "postgresql://anna@/run/pg/ (socket, port 5433)/team"
    assert parse_server_url("postgresql://anna@db.example/team").socket is None


@pytest.mark.parametrize(("text", "expected"), [
    ("postgresql://h/d", True), (" Postgres://h/d", True), ("POSTGRESQL://h/d", True),
    ("", False), (None, False), ("local", False), ("postgresq://h/d", False), ("mysql://h/d", False),
])
def test_which_locations_name_a_server(text, expected):
    assert is_server_url(text) is expected


def test_without_a_login_name_the_user_is_postgres(monkeypatch):
    import getpass

    def no_name() -> str:
        raise KeyError("no passwd entry")  # a container's user without a name

    monkeypatch.setattr(getpass, "getuser", no_name)
    assert server_url._login_name() == "postgres"


class FakeKeyring(types.ModuleType):
    """The `keyring` package's two calls, on a dict; `broken` raises as a locked or missing keyring does."""

    def __init__(self, broken: bool = False) -> None:
        super().__init__("keyring")
        self.saved: dict[tuple[str, str], str] = {}
        self.broken = broken

    def get_password(self, service: str, account: str) -> str | None:
        if self.broken:
            raise RuntimeError("no keyring backend")
        return self.saved.get((service, account))

    def set_password(self, service: str, account: str, password: str) -> None:
        if self.broken:
            raise RuntimeError("no keyring backend")
        self.saved[(service, account)] = password


def test_a_password_is_kept_in_the_keyring_under_its_account(monkeypatch):
    keyring = FakeKeyring()
    monkeypatch.setitem(sys.modules, "keyring", keyring)
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    team = parse_server_url("postgresql://anna@db.example/team")
    assert server_url.save_keyring_password(team, "s3cret") is True
    assert keyring.saved == {("desktop-rag", "anna@db.example:5432/team"): "s3cret"}
    assert server_url.keyring_password(team) == server_url.password_for(team) == "s3cret"
    assert server_url.password_for(parse_server_url("postgresql://anna@db.example/other")) == ""

    monkeypatch.setitem(sys.modules, "keyring", FakeKeyring(broken=True))  # no keyring here: .env is the place
    assert server_url.save_keyring_password(team, "s3cret") is False
    assert server_url.keyring_password(team) is None and server_url.password_for(team) == ""


def test_the_password_comes_from_the_address_then_the_environment_then_the_keyring(monkeypatch):
    monkeypatch.setattr(server_url, "keyring_password", lambda url: url and "from-keyring")
    monkeypatch.setenv(PASSWORD_VARIABLE, "from-env")
    assert server_url.password_for(ServerUrl("a", "h", 5432, "d", password="in-url")) == "in-url"
    assert server_url.password_for(ServerUrl("a", "h", 5432, "d")) == "from-env"
    monkeypatch.delenv(PASSWORD_VARIABLE)
    assert server_url.password_for(ServerUrl("a", "h", 5432, "d")) == "from-keyring"
    monkeypatch.setattr(server_url, "keyring_password", lambda url: None)
    assert server_url.password_for(ServerUrl("a", "h", 5432, "d")) == ""
