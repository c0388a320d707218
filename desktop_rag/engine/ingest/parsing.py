"""Crash- and hang-safe parsing: every format but plain text is read in a long-lived child process.

The child runs under a memory cap (RLIMIT_AS where the OS has it), a time budget that grows with the
number of pages it has to recognise (OCR; never past the file's OCR time limit) and with the parts that carry
budgets of their own (("time", seconds): an e-mail's attachments), and a cap on the text it may send back. While
it recognises text it streams ("page", done, total) messages, so the status panel can say "recognising text,
page 3 of 40"; a cancel kills it at once (the next file gets a fresh child). Each child writes its temporary files
into a scratch folder of its own, which the parent removes when the child ends, however it ends.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.messages import Phrase, message
from desktop_rag.engine.file_types import CHILD_SUFFIXES
from desktop_rag.engine.ingest import loaders, scratch
from desktop_rag.engine.ingest.documents import ParsedDocument
from desktop_rag.engine.ingest.loaders import OCR_MAX_PAGES, OCR_MAX_SECONDS, LoadContext
from desktop_rag.engine.ingest.parse_child import MAX_TEXT_CHARS, child_main, parse_in_process

if TYPE_CHECKING:
    from desktop_rag.config import Settings

STARTUP_TIMEOUT_S = 60.0
CRASHED = message("error.reader_crashed")
MAX_MEMORY_MB = 4096  # address space of the child: OCR peaks near 1.5 GB of it (bench/README.md)
OCR_PAGE_S = 60.0  # time budget added per page to recognise (a page takes 2-10 s on a slow laptop)
POLL_S = 0.1  # how often a waiting parse looks at its cancel flag

PageCallback = Callable[[int, int], None]


class ParseCancelled(Exception):
    """The index run was cancelled while a file was being read (no failure is recorded for it)."""


class SafeParser:
    """Parse files with a time limit, a memory cap and crash isolation.

    PDF, Word and image files go to one long-lived child process started with the 'spawn' method;
    a child that exceeds its time budget is killed and replaced, a child that dies is replaced.
    The budget is `timeout_s`, plus `ocr_page_s` for each page the child says it must recognise.
    Text and Markdown are parsed in-process (fast, and their reader cannot hang or crash).
    `init_hook` ("module:function") runs first in each new child (tests use it); `serve` ("module:function") makes
    the child answer other requests than files to parse (`ask`: the viewer's PDF pages, document/pdf_child.py).
    `passwords` maps a file path to its PDF password; `password` is tried on any PDF that needs one.
    """

    def __init__(
        self,
        timeout_s: float = 120.0,
        max_bytes: int = 100 * 1024 * 1024,
        *,
        child_suffixes: frozenset[str] = CHILD_SUFFIXES,
        init_hook: str | None = None,
        max_memory_mb: int = MAX_MEMORY_MB,
        max_text_chars: int = MAX_TEXT_CHARS,
        ocr: bool = True,
        ocr_page_s: float = OCR_PAGE_S,
        serve: str = "",
    ) -> None:
        self.timeout_s = timeout_s
        self.max_bytes = max_bytes
        self.child_suffixes = frozenset(s.lower() for s in child_suffixes)
        self.init_hook = init_hook
        self.serve = serve
        self.max_memory_mb = max_memory_mb
        self.max_text_chars = max_text_chars
        self.ocr = ocr
        self.ocr_page_s = ocr_page_s
        self.passwords: dict[str, str] = {}
        self.password = ""
        self.table_chars = 500  # the chunk size: tables are cut into row groups of at most this
        self.ocr_max_pages = OCR_MAX_PAGES  # pages one file may send to text recognition (Settings)
        self.ocr_max_seconds = OCR_MAX_SECONDS  # text recognition time of one file (Settings)
        self.restarts = 0
        self._scratch = ""
        self.memory_capped = False  # whether the current child runs under the memory cap
        self._ctx = multiprocessing.get_context("spawn")
        self._proc: multiprocessing.process.BaseProcess | None = None
        self._conn: Connection | None = None
        self._ready = False
        self._lock = threading.Lock()

    def __enter__(self) -> "SafeParser":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def parse(
        self,
        path: str | os.PathLike[str],
        *,
        on_page: PageCallback | None = None,
        cancel: threading.Event | None = None,
        part: str = "",
    ) -> ParsedDocument:
        """Parse one file or raise LoadError with a message for the user (ParseCancelled if `cancel` is set).

        `on_page(done, total)` hears about each page being recognised (OCR), from this thread. `part`: read only
        the e-mail attachment there in the file (`AttachedDocument.part`, as the viewer shows it), in the child.
        """
        path = Path(path)
        loaders.check_file(path, self.max_bytes)
        options = {"password": self.passwords.get(str(path), self.password), "ocr": self.ocr,
                   "max_text_chars": self.max_text_chars, "table_chars": self.table_chars,
                   "ocr_max_pages": self.ocr_max_pages, "ocr_max_seconds": self.ocr_max_seconds, "part": part}
        if not part and path.suffix.lower() not in self.child_suffixes:
            context = LoadContext(password=options["password"], ocr=self.ocr, page=on_page or _ignore_page,
                                  table_chars=self.table_chars, ocr_max_pages=self.ocr_max_pages,
                                  ocr_max_seconds=self.ocr_max_seconds)
            return parse_in_process(path, self.max_bytes, context)
        with self._lock:
            return self._parse_in_child(path, options, on_page or _ignore_page, cancel)

    def configure(self, settings: Settings) -> None:
        """Take the reading limits of `settings`: time budget, file size, OCR and its limits, the chunk size."""
        self.timeout_s = settings.parse_timeout_s
        self.max_bytes = int(settings.max_file_mb * 1024 * 1024)
        self.ocr = settings.ocr_enabled
        self.table_chars = settings.chunk_size
        self.ocr_max_pages = settings.ocr_max_pages
        self.ocr_max_seconds = settings.ocr_max_minutes * 60

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

    def ask(self, request: tuple, timeout_s: float, cancel: threading.Event | None = None):
        """Send `request` to a `serve` child and return its answer within `timeout_s`, or raise LoadError (a time-out,
        a crash, the memory cap: the child is replaced) or ParseCancelled once `cancel` is set (the child killed)."""
        with self._lock:
            if cancel is not None and cancel.is_set():  # cancelled while it waited: the child is not killed for it
                raise ParseCancelled()
            conn = self._ensure_child()
            try:
                conn.send(request)
            except (OSError, ValueError):  # the child died while idle
                self._replace_child()
                conn = self._ensure_child()
                conn.send(request)
            return self._answer(self._next_message(conn, time.monotonic() + timeout_s, cancel,
                                                   Phrase("phrase.seconds", n=f"{timeout_s:g}")))

    # ---- child management ----

    def _spawn(self) -> None:
        """Start a child without waiting for it to be ready, with a scratch folder of its own."""
        parent_conn, child_conn = self._ctx.Pipe(duplex=True)
        self._scratch = scratch.new_folder()
        proc = self._ctx.Process(
            target=child_main, args=(child_conn, self.init_hook, self.max_memory_mb, self._scratch, self.serve),
            name="desktop-rag-parser", daemon=True,
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
                message = self._conn.recv() if self._conn.poll(STARTUP_TIMEOUT_S) else None
                ok = message is not None and message[0] == "ready"
            except (EOFError, OSError):
                ok, message = False, None
            if not ok:
                self._stop_child(graceful=False)
                raise LoadError.coded("reader_not_started")
            self.memory_capped = bool(message[1])
            self._ready = True
        return self._conn

    def _stop_child(self, *, graceful: bool) -> None:
        proc, conn = self._proc, self._conn
        self._proc, self._conn, self._ready = None, None, False
        if not graceful and proc is not None and proc.is_alive():
            proc.kill()  # before closing the pipe, so a busy child never writes into a closed one
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
        folder, self._scratch = self._scratch, ""
        scratch.remove(folder)  # what a killed reading left there (an e-mail's attachments)

    def _replace_child(self) -> None:
        """Kill the current child and start a fresh one in the background."""
        self.restarts += 1
        self._stop_child(graceful=False)
        self._spawn()

    def _max_reply_bytes(self) -> int:
        """The largest reply accepted: the text cap in UTF-8 (up to 4 bytes a character) plus room for pickling."""
        return 4 * self.max_text_chars + (1 << 20) if self.max_text_chars else (1 << 31) - 1

    def _parse_in_child(
        self, path: Path, options: dict, on_page: PageCallback, cancel: threading.Event | None
    ) -> ParsedDocument:
        conn = self._ensure_child()
        try:
            conn.send((str(path), self.max_bytes, options))
        except (OSError, ValueError):  # the child died while idle
            self._replace_child()
            conn = self._ensure_child()
            conn.send((str(path), self.max_bytes, options))
        started = time.monotonic()
        budget, described = self.timeout_s, Phrase("phrase.seconds", n=f"{self.timeout_s:g}")
        extra = 0.0  # seconds the reader asked for: parts with budgets of their own (an e-mail's attachments)
        ocr = 0.0
        while True:
            message = self._next_message(conn, started + budget, cancel, described)
            if message[0] == "time":
                extra += message[1]
                budget = self.timeout_s + ocr + extra
                described = Phrase("phrase.seconds", n=f"{budget:g}")
                continue
            if message[0] != "page":
                break
            _, done, total = message
            # the pages to recognise, but never past the file's OCR time limit (plus the page under way)
            wanted = min(total * self.ocr_page_s, self.ocr_max_seconds + self.ocr_page_s)
            if wanted > ocr:
                ocr = wanted
                budget = self.timeout_s + ocr + extra
                described = Phrase("phrase.ocr_budget", budget=f"{budget:g}", base=f"{self.timeout_s:g}",
                                   page=f"{self.ocr_page_s:g}", total=total)
            on_page(done, total)
        return self._answer(message)

    def _answer(self, message: tuple):
        """The payload of the child's final reply; LoadError for a failure (after a 'fatal' one, a new child)."""
        status, payload = message
        if status == "ok":
            return payload
        if status == "fatal":
            self._replace_child()
        raise payload if isinstance(payload, LoadError) else LoadError(str(payload))

    def _next_message(
        self, conn: Connection, deadline: float, cancel: threading.Event | None, budget: str
    ) -> tuple:
        """The child's next message, waiting at most until `deadline`; cancel and time-outs kill the child."""
        while True:
            if cancel is not None and cancel.is_set():
                self._replace_child()
                raise ParseCancelled()
            left = deadline - time.monotonic()
            if left <= 0:
                self._replace_child()
                raise LoadError.coded("read_timeout", budget=budget)
            if conn.poll(min(POLL_S, left) if cancel is not None else left):
                break
        try:
            raw = conn.recv_bytes(self._max_reply_bytes())
        except OSError as exc:  # longer than the cap ("bad message length"), or the child died
            self._replace_child()
            if "length" in str(exc):
                raise LoadError.coded("too_much_text", chars=self.max_text_chars) from exc
            raise LoadError.coded("reader_crashed") from exc
        except (EOFError, ValueError) as exc:
            self._replace_child()
            raise LoadError.coded("reader_crashed") from exc
        return pickle.loads(raw)


def _ignore_page(_done: int, _total: int) -> None:
    return None
