"""The operating system's and the network's reasons in the user's language: an `OSError` worded by its errno, its
type (a timeout), its resolver (gaierror) code or its certificate check, as a text of the table
(`error_texts/system.py`), so that a Chinese message never ends in "Name or service not known"; a library's failure
(SQLite's result code, http.client's type; a program's, its error output's last line) likewise (`foreign_reason`).
A reason the table does not know is said with the system's own words, bounded to one line."""

from __future__ import annotations

import errno
import http.client
import socket
import sqlite3
import ssl
import subprocess

from desktop_rag.engine.messages import Phrase

MAX_DETAIL = 300  # the system's own words, when the table has none
MAX_DEPTH = 10  # causes followed from an error to the system's behind it

_ERRNOS = {getattr(errno, name): text for name, text in (  # by name: not every system has each one
    ("ENOENT", "no_such_file"), ("EACCES", "permission"), ("EPERM", "not_permitted"), ("ENOSPC", "disk_full"),
    ("EDQUOT", "quota"), ("EROFS", "read_only"), ("EISDIR", "is_folder"), ("ENOTDIR", "not_folder"),
    ("EEXIST", "exists"), ("EIO", "io"), ("ENAMETOOLONG", "name_too_long"), ("ELOOP", "link_loop"),
    ("EMFILE", "too_many_open"), ("ENFILE", "too_many_open"), ("EBUSY", "busy"), ("ENODEV", "no_device"),
    ("ENXIO", "no_device"), ("ESTALE", "stale"), ("EPIPE", "broken_pipe"), ("ENOMEM", "no_memory"),
    ("ECONNREFUSED", "refused"), ("ECONNRESET", "reset"), ("ECONNABORTED", "aborted"),
    ("ENETUNREACH", "network_unreachable"), ("ENETDOWN", "network_down"), ("EHOSTUNREACH", "host_unreachable"),
    ("EADDRNOTAVAIL", "address_unavailable"), ("ETIMEDOUT", "timed_out"),
) if hasattr(errno, name)}
_RESOLVER = {getattr(socket, name): text for name, text in (
    ("EAI_NONAME", "no_such_host"), ("EAI_NODATA", "no_such_host"), ("EAI_AGAIN", "name_lookup_again"),
    ("EAI_FAIL", "name_lookup_failed"),
) if hasattr(socket, name)}
_CERTIFICATE = {  # OpenSSL's X509_V_ERR_* codes
    10: "certificate_expired", 18: "certificate_self_signed", 19: "certificate_self_signed",
    20: "certificate_unknown_issuer", 21: "certificate_unknown_issuer", 62: "certificate_wrong_host",
    64: "certificate_wrong_host",
}
_SQLITE = {  # SQLite's primary result codes (`sqlite3.Error.sqlite_errorcode & 0xff`); SQLITE_ERROR (1) is free-form
    3: "not_permitted", 5: "database_locked", 6: "database_locked", 7: "no_memory", 8: "read_only", 10: "io",
    11: "database_corrupt", 13: "disk_full", 14: "database_unopenable", 23: "permission", 26: "not_a_database",
}
_HTTP = (  # http.client's failures by type, the first that fits (RemoteDisconnected is an OSError too)
    (http.client.RemoteDisconnected, "closed_without_reply"), (http.client.IncompleteRead, "reply_cut_short"),
    (http.client.LineTooLong, "reply_line_too_long"), (http.client.BadStatusLine, "not_http"),
    (http.client.UnknownProtocol, "not_http"), (http.client.InvalidURL, "bad_address"),
)
_NOT_TLS = {"WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "PACKET_LENGTH_TOO_LONG", "UNKNOWN_PROTOCOL"}


def os_reason(exc: OSError) -> Phrase:
    """What the system said in `exc`, as a text of the table (the system's own words, bounded, when it has none)."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        return Phrase(f"phrase.system.{_CERTIFICATE.get(exc.verify_code, 'certificate_untrusted')}")
    if isinstance(exc, ssl.SSLError):  # (its errno is OpenSSL's, not the system's)
        if exc.reason in _NOT_TLS:
            return Phrase("phrase.system.not_tls")
        return Phrase("phrase.system.tls_failed", detail=_words(exc.reason or exc.strerror or str(exc)))
    if isinstance(exc, socket.gaierror):  # (its errno is the resolver's code, which may equal another errno)
        name = _RESOLVER.get(exc.errno)  # type: ignore[arg-type]
    elif isinstance(exc, TimeoutError):
        name = "timed_out"
    else:
        name = _ERRNOS.get(exc.errno)  # type: ignore[arg-type]
    if name is not None:
        return Phrase(f"phrase.system.{name}")
    return Phrase("phrase.system.other", detail=_words(exc.strerror or str(exc) or type(exc).__name__))


def foreign_reason(exc: BaseException) -> Phrase:
    """What a library or the system said in `exc`, as a text of the table: http.client's failure by its type, SQLite's
    by its result code, an `OSError` by `os_reason`, a program that failed (`CalledProcessError`) by its error
    output's last line; any other (csv's, zipfile's: no code) in its own words, bounded and said to be the system's
    ("phrase.system.other")."""
    name = next((text for kind, text in _HTTP if isinstance(exc, kind)), None)
    if name is None and isinstance(exc, sqlite3.Error):
        name = _SQLITE.get((getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF)
    if name is not None:
        return Phrase(f"phrase.system.{name}")
    if isinstance(exc, OSError):
        return os_reason(exc)
    said = _last_line(exc.stderr or "") if isinstance(exc, subprocess.CalledProcessError) else ""
    if said:  # a program that failed: its own last words
        return Phrase("phrase.system.other", detail=_words(said))
    return Phrase("phrase.system.other", detail=_words(str(exc) or type(exc).__name__))


def system_reason(exc: BaseException | None) -> Phrase | None:
    """The system's reason behind `exc` (itself or one of its causes: a driver's or an HTTP library's error wraps
    it), worded by `os_reason`; None when no `OSError` is behind it."""
    seen = 0
    while exc is not None and seen < MAX_DEPTH:
        if isinstance(exc, OSError):
            return os_reason(exc)
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return None


def _last_line(output: bytes | str) -> str:
    """A program's output's last line that says something, its unprintable characters dropped."""
    text = output.decode("utf-8", "replace") if isinstance(output, bytes) else output
    lines = ["".join(ch for ch in line if ch.isprintable()).strip() for line in text[-10_000:].splitlines()]
    return next((line for line in reversed(lines) if line), "")


def _words(text: str) -> str:
    """The system's words on one line, at most MAX_DETAIL characters, without a closing full stop."""
    return " ".join(text.split())[:MAX_DETAIL].rstrip(". ")
