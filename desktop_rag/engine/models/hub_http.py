"""HTTP to a model hub with http.client: redirects, Range, proxies, and a socket the canceller can shut."""

from __future__ import annotations

import errno
import http.client
import os
import select
import socket
import ssl
import threading
import time
import urllib.parse
import urllib.request

from desktop_rag.engine.models.download_types import DownloadCancelled, DownloadError

MAX_REDIRECTS = 5


class Canceller:
    """Shuts the current socket when `cancel` is set, so a blocked connect/recv returns at once."""

    def __init__(self, cancel: threading.Event | None) -> None:
        self.cancel = cancel or threading.Event()
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="model-download-cancel", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._done.is_set():
            if self.cancel.wait(0.05):
                self._shut()
                return

    def _shut(self) -> None:
        with self._lock:
            sock = self._sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def register(self, sock: socket.socket | None) -> None:
        with self._lock:
            self._sock = sock
        if sock is not None and self.cancel.is_set():
            self._shut()

    def check(self, repo_id: str) -> None:
        if self.cancel.is_set():
            raise DownloadCancelled(repo_id)

    def close(self) -> None:
        self._done.set()
        self._thread.join(1.0)


def _connect(address: tuple[str, int], timeout: float, canceller: Canceller) -> socket.socket:
    """A TCP connection that gives up within ~0.1 s of a cancel."""
    host, port = address
    last: OSError | None = None
    for family, kind, proto, _, addr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        sock = socket.socket(family, kind, proto)
        try:
            sock.setblocking(False)
            code = sock.connect_ex(addr)
            deadline = time.monotonic() + timeout
            while code in (errno.EINPROGRESS, errno.EWOULDBLOCK, errno.EALREADY, getattr(errno, "WSAEWOULDBLOCK", -1)):
                if canceller.cancel.is_set():
                    raise OSError(errno.ECANCELED, "cancelled")
                if time.monotonic() > deadline:
                    raise socket.timeout("connection timed out")
                _, writable, failed = select.select([], [sock], [sock], 0.1)
                if writable or failed:
                    code = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    break
            if code not in (0, errno.EISCONN):
                raise OSError(code, os.strerror(code))
            sock.settimeout(timeout)
            canceller.register(sock)
            return sock
        except OSError as exc:
            sock.close()
            last = exc
            if canceller.cancel.is_set():
                break
    raise last or OSError(f"cannot resolve {host}")


def _ssl_context() -> ssl.SSLContext:
    try:
        import certifi

        return ssl.create_default_context(cafile=certifi.where())
    except ImportError:
        return ssl.create_default_context()


class HubClient:
    """GET with manual redirects (http/https only, Range kept), proxy support and cancellation."""

    def __init__(self, canceller: Canceller, timeout: float, user_agent: str) -> None:
        self.canceller = canceller
        self.timeout = timeout
        self.user_agent = user_agent
        self._ssl: ssl.SSLContext | None = None

    def get(self, url: str, headers: dict[str, str] | None = None) -> tuple[http.client.HTTPResponse, str]:
        """The final response (after redirects) and its URL; the caller closes the response."""
        for _ in range(MAX_REDIRECTS + 1):
            response = self._request(url, headers or {})
            if response.status in (301, 302, 303, 307, 308):
                location = response.getheader("Location") or ""
                response.close()
                allowed = ("https",) if urllib.parse.urlsplit(url).scheme == "https" else ("http", "https")
                url = urllib.parse.urljoin(url, location)
                if urllib.parse.urlsplit(url).scheme not in allowed:  # no file:, no https -> http downgrade
                    raise DownloadError.coded("bad_redirect", "protocol")
                continue
            return response, url
        raise DownloadError.coded("too_many_redirects", "protocol")

    def _request(self, url: str, headers: dict[str, str]) -> http.client.HTTPResponse:
        parts = urllib.parse.urlsplit(url)
        host, https = parts.hostname or "", parts.scheme == "https"
        port = parts.port or (443 if https else 80)
        proxy = None if is_loopback(host) or urllib.request.proxy_bypass(host) else \
            urllib.request.getproxies().get(parts.scheme)
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        conn = self._connection(host, port, https, proxy)
        if proxy and not https:
            target = url  # a plain-HTTP proxy takes the absolute URL
        conn.putrequest("GET", target, skip_accept_encoding=True)
        for name, value in {"User-Agent": self.user_agent, "Accept-Encoding": "identity",
                                             "Connection": "close", **headers}.items():
            conn.putheader(name, value)
        conn.endheaders()
        return conn.getresponse()

    def _connection(self, host: str, port: int, https: bool, proxy: str | None) -> http.client.HTTPConnection:
        connect_to = (host, port)
        if proxy:
            p = urllib.parse.urlsplit(proxy if "://" in proxy else "http://" + proxy)
            connect_to = (p.hostname or "", p.port or 80)
        if https:
            self._ssl = self._ssl or _ssl_context()
            conn: http.client.HTTPConnection = http.client.HTTPSConnection(
                *connect_to, timeout=self.timeout, context=self._ssl)
            if proxy:
                conn.set_tunnel(host, port)
        else:
            conn = http.client.HTTPConnection(*connect_to, timeout=self.timeout)
        conn._create_connection = lambda address, timeout, source=None: _connect(  # type: ignore[attr-defined]
            address, self.timeout, self.canceller)
        return conn


def is_loopback(host: str) -> bool:
    return host in ("localhost", "127.0.0.1", "::1") or host.startswith("127.")


def read_bounded(response: http.client.HTTPResponse, limit: int) -> bytes:
    data = response.read(limit + 1)
    if len(data) > limit:
        raise DownloadError.coded("answer_too_large", "too_large")
    return data
