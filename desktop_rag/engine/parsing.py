"""Crash- and hang-safe parsing: PDF and Word files are read in a long-lived child process."""

from __future__ import annotations

import importlib
import multiprocessing
import os
import threading
from multiprocessing.connection import Connection
from pathlib import Path

from desktop_rag.engine import loaders
from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.types import ParsedDocument

STARTUP_TIMEOUT_S = 60.0
CHILD_SUFFIXES: frozenset[str] = loaders.SUPPORTED_SUFFIXES - loaders.TEXT_SUFFIXES
CRASHED = "The reader crashed on this file (it may be damaged); it was skipped"


def parse_in_process(path: str | os.PathLike[str], max_bytes: int) -> ParsedDocument:
    """Parse a file in this process (no time limit, no crash isolation)."""
    return loaders.load(Path(path), max_bytes=max_bytes)


def _child_main(conn: Connection, init_hook: str | None) -> None:
    """Child loop: receive (path, max_bytes), reply ('ok', doc) or ('error', message)."""
    import logging
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's business
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    for name in ("pypdf", "docx"):  # import now so the first file's time limit is fair
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    if init_hook:
        module, _, func = init_hook.partition(":")
        getattr(importlib.import_module(module), func)()
    conn.send(("ready", None))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        path, max_bytes = request
        try:
            reply = ("ok", parse_in_process(Path(path), max_bytes))
        except LoadError as exc:
            reply = ("error", str(exc))
        except BaseException as exc:  # noqa: BLE001 - report, keep serving
            reply = ("error", f"The reader failed on this file ({type(exc).__name__}: {exc})")
        conn.send(reply)


class SafeParser:
    """Parse files with a time limit and crash isolation.

    PDF and Word files go to one long-lived child process started with the 'spawn' method;
    a child that exceeds `timeout_s` is killed and replaced, a child that dies is replaced.
    Text and Markdown are parsed in-process (fast, and their reader cannot hang or crash).
    `init_hook` ("module:function") runs first in each new child (tests use it).
    """

    def __init__(
        self,
        timeout_s: float = 120.0,
        max_bytes: int = 100 * 1024 * 1024,
        *,
        child_suffixes: frozenset[str] = CHILD_SUFFIXES,
        init_hook: str | None = None,
    ) -> None:
        self.timeout_s = timeout_s
        self.max_bytes = max_bytes
        self.child_suffixes = frozenset(s.lower() for s in child_suffixes)
        self.init_hook = init_hook
        self.restarts = 0
        self._ctx = multiprocessing.get_context("spawn")
        self._proc: multiprocessing.process.BaseProcess | None = None
        self._conn: Connection | None = None
        self._ready = False
        self._lock = threading.Lock()

    def __enter__(self) -> "SafeParser":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def parse(self, path: str | os.PathLike[str]) -> ParsedDocument:
        """Parse one file or raise LoadError with a message for the user."""
        path = Path(path)
        loaders.check_file(path, self.max_bytes)
        if path.suffix.lower() not in self.child_suffixes:
            return parse_in_process(path, self.max_bytes)
        with self._lock:
            return self._parse_in_child(path)

    def start(self) -> None:
        """Start the child now (otherwise on first use) and wait until it is ready."""
        with self._lock:
            self._ensure_child()

    def close(self) -> None:
        """Ask the child to exit; kill it if it does not."""
        with self._lock:
            self._stop_child(graceful=True)

    @property
    def child_pid(self) -> int | None:
        """The current child's process id (None before it starts)."""
        return self._proc.pid if self._proc is not None else None

    # ---- child management ----

    def _spawn(self) -> None:
        """Start a child without waiting for it to be ready."""
        parent_conn, child_conn = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(
            target=_child_main, args=(child_conn, self.init_hook), name="desktop-rag-parser", daemon=True
        )
        proc.start()
        child_conn.close()
        self._proc, self._conn, self._ready = proc, parent_conn, False

    def _ensure_child(self) -> Connection:
        """A live, ready child's connection."""
        if self._proc is None or not self._proc.is_alive() or self._conn is None:
            self._stop_child(graceful=False)
            self._spawn()
        assert self._conn is not None
        if not self._ready:
            try:
                ok = self._conn.poll(STARTUP_TIMEOUT_S) and self._conn.recv()[0] == "ready"
            except (EOFError, OSError):
                ok = False
            if not ok:
                self._stop_child(graceful=False)
                raise LoadError("The document reader could not be started")
            self._ready = True
        return self._conn

    def _stop_child(self, *, graceful: bool) -> None:
        proc, conn = self._proc, self._conn
        self._proc, self._conn, self._ready = None, None, False
        if conn is not None:
            try:
                if graceful and proc is not None and proc.is_alive():
                    conn.send(None)
            except (OSError, ValueError):
                pass
            conn.close()
        if proc is not None:
            proc.join(timeout=2.0 if graceful else 0.0)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=5.0)
            proc.close()

    def _replace_child(self) -> None:
        """Kill the current child and start a fresh one in the background."""
        self.restarts += 1
        self._stop_child(graceful=False)
        self._spawn()

    def _parse_in_child(self, path: Path) -> ParsedDocument:
        conn = self._ensure_child()
        try:
            conn.send((str(path), self.max_bytes))
        except (OSError, ValueError):  # the child died while idle
            self._replace_child()
            conn = self._ensure_child()
            conn.send((str(path), self.max_bytes))
        if not conn.poll(self.timeout_s):
            self._replace_child()
            raise LoadError(f"Reading this file took longer than {self.timeout_s:g} s; it was skipped")
        try:
            status, payload = conn.recv()
        except (EOFError, OSError, ValueError) as exc:
            self._replace_child()
            raise LoadError(CRASHED) from exc
        if status == "ok":
            return payload
        raise LoadError(payload)
