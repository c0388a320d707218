"""Interruptible model calls: an HTTP client whose sockets any thread can shut down, run on a daemon thread."""

from __future__ import annotations

import logging
import queue
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

log = logging.getLogger(__name__)

POLL_S = 0.05  # how often a waiting consumer looks at cancel and the deadline
MAX_REPLY_BYTES = 32 * 1024 * 1024  # one reply's body, stream or not (a whole reply is read into memory)
JOIN_S = 1.0  # after a stop, how long to wait for the request thread (its sockets are shut: it ends at once)
_CURRENT = threading.local()  # .registry: where the sockets opened by this thread's request go


class SocketRegistry:
    """Duplicates of every socket one HTTP client opens, so a read blocked in another thread can be woken.

    `shutdown()` on a duplicate acts on the shared connection (unlike `close()`, which leaves a
    blocked `recv` waiting), and the duplicates are ours, so their numbers are never reused
    while we hold them.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socks: list[socket.socket] = []
        self._aborted = False
        self._closed = False

    def add(self, sock: Any) -> None:
        if not isinstance(sock, socket.socket):
            return
        try:
            dup = sock.dup()
        except OSError:
            return
        with self._lock:
            if self._closed:
                dup.close()
                return
            self._socks.append(dup)
            if self._aborted:
                _shutdown(dup)

    def abort(self) -> None:
        """Shut every connection down now (idempotent, any thread)."""
        with self._lock:
            self._aborted = True
            if not self._closed:
                for sock in self._socks:
                    _shutdown(sock)

    def close(self) -> None:
        """Release the duplicates (the client has finished with its connections)."""
        with self._lock:
            self._closed = True
            socks, self._socks = self._socks, []
        for sock in socks:
            sock.close()


def _shutdown(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed by the peer or by the client


class _TrackingBackend:
    """Wraps an httpcore network backend: each TCP connection goes to the registry of the request that opened it."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def connect_tcp(self, *args: Any, **kwargs: Any) -> Any:
        stream = self._inner.connect_tcp(*args, **kwargs)
        registry = getattr(_CURRENT, "registry", None)
        if registry is not None:
            registry.add(stream.get_extra_info("socket"))
        return stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class ReplyTooLarge(Exception):
    """A reply's body went past `cap` bytes (a server sending without end): it is not read further."""

    def __init__(self, cap: int) -> None:
        super().__init__(f"a reply over {cap} bytes")
        self.cap = cap


def _body_cap(httpx: Any) -> Callable[[Any], None]:
    """An httpx response hook, run before the body is read: the body is read at most MAX_REPLY_BYTES."""

    class CappedStream(httpx.SyncByteStream):
        def __init__(self, inner: Any) -> None:
            self._inner = inner

        def __iter__(self) -> Iterator[bytes]:
            seen = 0
            for chunk in self._inner:
                seen += len(chunk)
                if seen > MAX_REPLY_BYTES:
                    raise ReplyTooLarge(MAX_REPLY_BYTES)
                yield chunk

        def close(self) -> None:
            self._inner.close()

    def cap(response: Any) -> None:
        response.stream = CappedStream(response.stream)
    return cap


def abortable_http_client(timeout: float) -> Any:
    """An httpx client as the openai SDK makes it (env proxies kept) whose connections can be shut down.

    A reply's body is read at most MAX_REPLY_BYTES (`ReplyTooLarge`): the SDK reads a whole reply, and an error's,
    into memory. Each request gets a fresh connection (no keep-alive), opened on the `Exchange` thread that
    owns it, so the connection is in that exchange's registry. If the transport's internals are
    not as expected the client still works; only the early release of a blocked connection is
    lost (the consumer still stops waiting at once).
    """
    import openai

    try:
        import httpx2 as httpx
    except ImportError:  # older openai SDKs use httpx
        import httpx  # type: ignore[no-redef]

    limits = httpx.Limits(max_connections=100, max_keepalive_connections=0)
    client = openai.DefaultHttpxClient(timeout=timeout, limits=limits, event_hooks={"response": [_body_cap(httpx)]})
    transports = [getattr(client, "_transport", None), *getattr(client, "_mounts", {}).values()]
    for transport in transports:
        pool = getattr(transport, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        if backend is None:
            if transport is not None:
                log.debug("Cannot register the sockets of %r; cancel will not close them early", transport)
            continue
        pool._network_backend = _TrackingBackend(backend)
    return client


Work = Callable[[Callable[[], bool]], Iterable[Any]]


class Exchange:
    """One blocking request on a daemon thread; its items arrive through a queue.

    The consumer waits in short steps (see `get`), so it can leave at any moment; `stop()`
    then tells the worker to end and shuts its sockets, so a silent server does not keep the
    thread or the connection.
    """

    def __init__(self, work: Work, name: str = "llm-request") -> None:
        self._queue: queue.Queue[tuple[bool, Any]] = queue.Queue()
        self._stopped = threading.Event()
        self._registry = SocketRegistry()
        self._thread = threading.Thread(target=self._run, args=(work,), name=name, daemon=True)
        self._thread.start()

    def _run(self, work: Work) -> None:
        _CURRENT.registry = self._registry
        items = iter(work(self._stopped.is_set))
        try:
            for item in items:
                if self._stopped.is_set():
                    break
                self._queue.put((True, item))
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer, which maps it
            self._queue.put((False, exc))
            return
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                try:
                    close()  # the request's own cleanup (closing the response) runs here, now
                except Exception:  # noqa: BLE001 - the connection is going away anyway
                    log.debug("Closing an abandoned model request failed", exc_info=True)
            _CURRENT.registry = None
            self._registry.close()
        self._queue.put((False, None))

    def get(self, timeout: float) -> tuple[bool, Any] | None:
        """(True, item), (False, exception) on failure, (False, None) at the end; None if nothing came yet."""
        try:
            return self._queue.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None

    def stop(self) -> None:
        """End the request now: the worker stops and its connections are shut down."""
        self._stopped.set()
        self._registry.abort()

    def join(self, timeout: float) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()


def iterate(
    exchange: Exchange, stop_now: Callable[[], bool], on_deadline: Callable[[], float]
) -> Iterator[Any]:
    """Items of `exchange` until it ends or `stop_now()` is true; `on_deadline()` returns seconds left
    (and raises when none are). The exchange is always stopped, and its thread joined, on the way out
    (only a connection still being opened can outlast JOIN_S; it ends at its connect timeout)."""
    try:
        while True:
            if stop_now():
                return
            got = exchange.get(min(POLL_S, on_deadline()))
            if got is None:
                continue
            ok, value = got
            if ok:
                yield value
            elif value is None:
                return
            else:
                raise value
    finally:
        exchange.stop()
        exchange.join(JOIN_S)
