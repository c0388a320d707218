"""Places that cannot be reached, for real network failures in tests: a closed loopback port (refused), a host
name under .invalid (the resolver's "no such name")."""

from __future__ import annotations

import socket

import pytest

UNRESOLVABLE = "nosuch.invalid"  # RFC 6761: never resolves


def closed_port() -> int:
    """A loopback port nothing listens on (just bound and closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def closed_port_url() -> str:
    """An OpenAI-compatible base URL on a closed loopback port: a connection to it is refused."""
    return f"http://127.0.0.1:{closed_port()}/v1"


def resolver_words() -> str:
    """What this computer's resolver says of a name under .invalid ("Name or service not known"); skips the test
    where it says something else (no resolver at all: "Temporary failure in name resolution")."""
    try:
        socket.getaddrinfo(UNRESOLVABLE, 80)
    except socket.gaierror as exc:
        if exc.errno != socket.EAI_NONAME:
            pytest.skip(f"this resolver says {exc.strerror!r} for a name under .invalid")
        return exc.strerror
    pytest.skip("a name under .invalid resolves here")
