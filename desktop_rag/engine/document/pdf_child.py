"""The viewer's PDFium work in a child process of its own: a page drawn, a page's text and rectangles.

PDFium drew and searched pages in the app's own process: one hostile page (forms drawing forms twice, 30 deep; a
Flate bomb of 3.1 GB) took the whole app past 24 GB and got it killed. Here every call runs in a child started like
the parser child (`ingest.parsing.SafeParser`: its memory cap, crash isolation and restart) under PAGE_TIMEOUT_S a
call. A page the child dies on, runs out of time or memory on fails with VIEW_PAGE_FAILED (the viewer says so and
shows the passage's stored text beside it); the next call gets a fresh child, which opens the document again.
Opening a document cancels the call under way, closing one its own (the passage asked for next never waits on a
hostile page).
A page's BGRx pixels (within pdf_render's pixel caps) come back through shared memory the parent owns (one copy
each side: through the pipe, a page at screen scale took 4x as long as drawing it); through the pipe when there is
none, or too little for that page: the child reserves a page's bytes before it writes them (`_shared_room`), since
a write past what a small or full /dev/shm holds (Docker's 64 MB) kills it with SIGBUS (the page failed).
`locate` starts one for a call when its caller gives none (any caller but the viewer: PDFium never runs in the
caller's process).
"""

from __future__ import annotations

import itertools
import os
import threading
from dataclasses import replace
from multiprocessing import shared_memory
from pathlib import Path

from desktop_rag.engine.document.pdf_render import (MAX_RENDER_PIXELS, MAX_RENDER_SIDE, OpenPdf, PageImage, PdfFile,
                                                    Rect)
from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.parse_child import child_reply
from desktop_rag.engine.ingest.parsing import SafeParser

PAGE_TIMEOUT_S = 20.0  # one call: a page at the pixel cap draws in 1-3 s on a slow laptop
CHILD_FAILURES = frozenset({"reader_crashed", "read_timeout", "out_of_memory", "too_much_text"})
SERVE = "desktop_rag.engine.document.pdf_child:serve"
SHARED_BYTES = 4 * (MAX_RENDER_PIXELS + 2 * MAX_RENDER_SIDE + 2)  # the largest page drawn (its sides rounded up)

_open: dict[int, PdfFile] = {}  # in the child: the documents open, by key
_shared: dict[str, shared_memory.SharedMemory] = {}  # in the child: the parent's pixel buffer, by name


class Reopen:
    """The child's answer for a document it does not hold (it was started after the document was opened)."""


def serve(_conn, request: tuple, max_memory_mb: int, capped: bool) -> tuple:
    """In the child: (operation, key, source, args) -> ("ok", answer) | ("error", LoadError) | ("fatal", ...).
    `source` is (path, bytes or None) when the document is to be opened first, else None."""
    op, key, source, args = request
    return child_reply(lambda: _run(op, key, source, args), max_memory_mb, capped)


def _run(op: str, key: int, source: tuple[str, bytes | None] | None, args: tuple):
    if op == "close":
        pdf = _open.pop(key, None)
        return pdf.close() if pdf is not None else None
    if key not in _open:
        if source is None:
            return Reopen()
        _open[key] = PdfFile(*source)
    pdf = _open[key]
    if op == "open":
        return pdf.page_sizes
    if op == "render" and args[2]:  # (index, scale, the name of the shared buffer to draw into)
        return pdf.render(args[0], args[1], into=lambda size: _shared_room(args[2], size))
    return getattr(pdf, op)(*args[:2] if op == "render" else args)  # render | page_text | char_boxes | text_rects


def _shared_room(name: str, size: int) -> memoryview | None:
    """In the child: the parent's buffer `name` with `size` bytes reserved in the system's shared memory, or None
    (the pixels go through the pipe) where it cannot hold them."""
    try:
        if name not in _shared:
            _shared[name] = shared_memory.SharedMemory(name)
        shared = _shared[name]
        fd = getattr(shared, "_fd", -1)  # POSIX: a file of /dev/shm, its pages given only as they are written
        if size <= shared.size and fd >= 0 and hasattr(os, "posix_fallocate"):
            os.posix_fallocate(fd, 0, size)  # ENOSPC here, not SIGBUS at the write
    except OSError:
        return None
    return shared.buf if size <= shared.size else None


class PdfPages:
    """The viewer's PDFium child, started on first use; `open` a PDF in it, `close` ends it."""

    def __init__(self, init_hook: str | None = None, timeout_s: float = PAGE_TIMEOUT_S) -> None:
        """`init_hook`: as SafeParser's (tests); `timeout_s`: the time limit of one call."""
        self.parser = SafeParser(init_hook=init_hook, serve=SERVE)
        self.timeout_s = timeout_s
        self._keys = itertools.count(1)
        self._under_way: dict[threading.Event, int] = {}  # calls under way or waiting: their document
        self._lock = threading.Lock()
        self._pixels_lock = threading.Lock()  # the shared buffer: one page in it at a time
        self._pixels: shared_memory.SharedMemory | None = None

    def open(self, path: str | Path, data: bytes | None = None) -> RemotePdf:
        """The PDF at `path` (with `data`: made of those bytes) open in the child; LoadError if it cannot be."""
        return RemotePdf(self, Path(path), data)

    def call(self, op: str, key: int, source: tuple[str, bytes | None] | None, args: tuple = (),
             cancel: threading.Event | None = None):
        """One call into the child (ParseCancelled once `cancel` is set, another document is opened, or this one
        closed)."""
        cancel = cancel or threading.Event()
        with self._lock:
            for other, its_key in self._under_way.items():
                if op == "open" or (op == "close" and its_key == key):
                    other.set()
            self._under_way[cancel] = key
        try:
            return self.parser.ask((op, key, source, args), self.timeout_s, cancel)
        except LoadError as exc:
            if exc.code in CHILD_FAILURES:
                raise LoadError.coded("view_page_failed") from exc
            raise
        finally:
            with self._lock:
                self._under_way.pop(cancel, None)

    def render(self, key: int, source: tuple[str, bytes | None] | None, index: int, scale: float,
               cancel: threading.Event | None = None) -> PageImage:
        """Page `index` drawn in the child, its pixels passed through the shared buffer (copied out of it here)."""
        with self._pixels_lock:
            pixels = self._shared_pixels()
            image = self.call("render", key, source, (index, scale, pixels.name if pixels else ""), cancel)
            if isinstance(image, PageImage) and not image.data and pixels is not None:
                image = replace(image, data=bytes(pixels.buf[:image.stride * image.height]))
            return image

    def _shared_pixels(self) -> shared_memory.SharedMemory | None:
        if self._pixels is None:
            try:
                self._pixels = shared_memory.SharedMemory(create=True, size=SHARED_BYTES)
            except OSError:  # no shared memory here: the pipe
                return None
        return self._pixels

    def new_key(self) -> int:
        return next(self._keys)

    @property
    def child_pid(self) -> int | None:
        return self.parser.child_pid

    def cancel(self) -> None:
        """Cancel every call under way or waiting (shutting down)."""
        with self._lock:
            for other in self._under_way:
                other.set()

    def close(self) -> None:
        self.cancel()
        self.parser.close()
        with self._pixels_lock:
            pixels, self._pixels = self._pixels, None
            if pixels is not None:
                pixels.close()
                pixels.unlink()


class RemotePdf(OpenPdf):
    """A PDF open in the viewer's PDFium child, used as a `PdfFile` is; safe to call from any thread."""

    def __init__(self, pages: PdfPages, path: Path, data: bytes | None) -> None:
        self.path, self._pages, self._data = path, pages, data
        self._key = pages.new_key()
        self._closed = False
        self._opened_in: int | None = None
        self.page_sizes = self._call("open")

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._data = None
            if self._opened_in != self._pages.child_pid:  # not open in the child there is (none is started for it)
                return
            try:
                self._pages.call("close", self._key, None)
            except Exception:  # noqa: BLE001 - a child gone or busy holds nothing of it any more
                pass

    def render(self, index: int, scale: float, cancel: threading.Event | None = None) -> PageImage:
        return self._call("render", (index, scale), cancel)  # through PdfPages.render (the shared buffer)

    def page_text(self, index: int) -> str:
        return self._call("page_text", (index,))

    def char_boxes(self, index: int, start: int, end: int) -> list[Rect]:
        return self._call("char_boxes", (index, start, end))

    def text_rects(self, index: int, start: int, end: int) -> list[Rect]:
        return self._call("text_rects", (index, start, end))

    def _call(self, op: str, args: tuple = (), cancel: threading.Event | None = None):
        if self._closed:
            raise LoadError.coded("document_closed")
        pages = self._pages
        ask = (lambda source: pages.render(self._key, source, *args, cancel)) if op == "render" else (
            lambda source: pages.call(op, self._key, source, args, cancel))
        fresh = self._opened_in is None or self._opened_in != pages.child_pid
        answer = ask((str(self.path), self._data) if fresh else None)
        if isinstance(answer, Reopen):  # the child was replaced since it was asked whether it holds the document
            if self._closed:  # ... or the document closed meanwhile: not opened again
                raise LoadError.coded("document_closed")
            answer = ask((str(self.path), self._data))
        self._opened_in = pages.child_pid
        return answer
