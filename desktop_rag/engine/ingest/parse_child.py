"""The reading child's side of `parsing.SafeParser`: its loop (`child_main`), the memory cap it puts on itself, one
file read per request with its progress and its requests for more time sent back, the text's size checked, and
every failure turned into the reply the parent reads (`child_reply`). Also a file read in the caller's process
(`parse_in_process`: no isolation, for tests and the viewer's re-read of a text already trusted)."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest import loaders
from desktop_rag.engine.ingest.documents import ParsedDocument
from desktop_rag.engine.ingest.loaders import OCR_MAX_PAGES, OCR_MAX_SECONDS, LoadContext

MAX_TEXT_CHARS = 50_000_000  # about 25,000 dense pages; more is not a document a person reads


def parse_in_process(
    path: str | os.PathLike[str], max_bytes: int, context: LoadContext | None = None, part: str = ""
) -> ParsedDocument:
    """Parse a file in this process (no time limit, no crash isolation); `part`: only the e-mail attachment there."""
    if part:
        from desktop_rag.engine.ingest.loaders.email import attachment_document

        return attachment_document(Path(path), part, (context or LoadContext()).table_chars, max_bytes)
    return loaders.load(Path(path), max_bytes=max_bytes, context=context)


def _limit_memory(max_memory_mb: int) -> bool:
    """Cap this process's address space (Linux, BSD; macOS may refuse); True when the cap is in force."""
    if not max_memory_mb:
        return False
    try:
        import resource
    except ImportError:  # Windows: no rlimits (a job object would be needed)
        return False
    cap = max_memory_mb * 1024 * 1024
    try:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ValueError, OSError):
        return False
    return True


def _is_memory_failure(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, MemoryError) or "bad_alloc" in text or "failed to allocate" in text


def _parse_request(conn: Connection, request: tuple, max_memory_mb: int, capped: bool) -> tuple:
    """Parse one file in the child; the reply to send (progress and requests for more time go out while it runs)."""
    path, max_bytes, options = request
    context = LoadContext(
        password=options.get("password", ""), ocr=options.get("ocr", True),
        page=lambda done, total: conn.send(("page", done, total)), table_chars=options.get("table_chars", 500),
        more_time=lambda seconds: conn.send(("time", seconds)),
        ocr_max_pages=options.get("ocr_max_pages", OCR_MAX_PAGES),
        ocr_max_seconds=options.get("ocr_max_seconds", OCR_MAX_SECONDS),
    )
    status, doc = child_reply(lambda: parse_in_process(Path(path), max_bytes, context, options.get("part", "")),
                              max_memory_mb, capped)
    if status != "ok":
        return status, doc
    limit = options.get("max_text_chars", MAX_TEXT_CHARS)
    if limit and doc.char_count > limit:
        return ("error", LoadError.coded("too_much_text", chars=limit))
    return ("ok", doc)


def child_reply(work: Callable[[], object], max_memory_mb: int, capped: bool) -> tuple:
    """In a child: ("ok", what `work` returns), ("error", LoadError) or ("fatal", LoadError) when it ran out of
    memory under the cap (the child then exits and the parent starts a new one)."""
    try:
        return ("ok", work())
    except LoadError as exc:
        if capped and exc.code == "no_memory":
            return ("fatal", LoadError.coded("out_of_memory", mb=max_memory_mb))
        return ("error", exc)
    except BaseException as exc:  # noqa: BLE001 - report, keep serving
        if capped and _is_memory_failure(exc):
            return ("fatal", LoadError.coded("out_of_memory", mb=max_memory_mb))
        return ("error", LoadError.coded("reader_failed", error=loaders.failure_words(exc)))


def child_main(conn: Connection, init_hook: str | None, max_memory_mb: int = 0, scratch_folder: str = "",
                serve: str = "") -> None:
    """Child loop: receive (path, max_bytes, options), reply ('ok', doc), ('error', msg) or ('fatal', msg);
    `serve` ("module:function", called as _parse_request is): another kind of request (the viewer's PDF pages).

    'fatal' means the child ran out of memory and exits after replying (the parent starts a new one). Every
    temporary file of the child goes into `scratch_folder`, which the parent removes once the child is gone.
    """
    import logging
    import signal
    import tempfile

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's business
    if scratch_folder:
        tempfile.tempdir = scratch_folder
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    logging.getLogger("pypdfium2").setLevel(logging.ERROR)  # "Explicitly closing <PdfBitmap>": not for a terminal
    # import now so the first file's time limit is fair
    for name in ("pypdfium2", "pypdf", "docx", "pptx", "python_calamine"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    if init_hook:
        module, _, func = init_hook.partition(":")
        getattr(importlib.import_module(module), func)()
    handle = _parse_request
    if serve:
        module, _, func = serve.partition(":")
        handle = getattr(importlib.import_module(module), func)
    capped = _limit_memory(max_memory_mb)
    _quiet_stderr()
    try:
        conn.send(("ready", capped))
    except OSError:  # the parent gave up on this child before it was ready (closing, or a replacement)
        return
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        reply = handle(conn, request, max_memory_mb, capped)
        try:
            conn.send(reply)
        except MemoryError:
            reply = ("fatal", LoadError.coded("out_of_memory", mb=max_memory_mb))
            conn.send(reply)
        if reply[0] == "fatal":
            return


def _quiet_stderr() -> None:
    """What native code prints while a file is read (a Rust library's panic and its backtrace, C libraries'
    warnings) is not for a terminal: the file's failure reason says what failed (a panic included)."""
    try:
        quiet = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    os.dup2(quiet, 2)
    os.close(quiet)
