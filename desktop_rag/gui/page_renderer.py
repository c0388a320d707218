"""Off-thread work for the viewer: PDF pages rendered on demand on a worker pool, kept in a bounded LRU cache."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal
from PySide6.QtGui import QImage

from desktop_rag.engine.pdf_render import PageImage, PdfFile

log = logging.getLogger(__name__)
CACHE_BYTES = 96 * 1024 * 1024  # rendered pages kept (about 20 letter pages at 150 % on a 2x screen)


class _Relay(QObject):
    """Lives on the GUI thread; a worker's emit is queued to it."""

    done = Signal(int, object, str)  # job id, result, error


class _Job(QRunnable):
    def __init__(self, job_id: int, fn: Callable[[], Any], relay: _Relay) -> None:
        super().__init__()
        self.job_id, self.fn, self.relay = job_id, fn, relay
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result, error = self.fn(), ""
        except Exception as exc:  # reported to the GUI as text, never raised on a pool thread
            log.warning("Viewer job failed: %s", exc, exc_info=True)
            result, error = None, str(exc) or type(exc).__name__
        try:
            self.relay.done.emit(self.job_id, result, error)
        except RuntimeError:  # the relay is gone (the app is closing)
            pass


class OffThread(QObject):
    """Runs functions on a private one-thread pool; callbacks run on the GUI thread with the result."""

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.pool.setObjectName(name)
        self._relay = _Relay(self)
        self._relay.done.connect(self._finish)
        self._callbacks: dict[int, tuple[Callable | None, Callable | None]] = {}
        self._next = 0
        self.stopped = False

    def submit(self, fn: Callable[[], Any], callback: Callable[[Any], None] | None = None,
               errback: Callable[[str], None] | None = None) -> None:
        if self.stopped:
            return
        self._next += 1
        self._callbacks[self._next] = (callback, errback)
        self.pool.start(_Job(self._next, fn, self._relay))

    def _finish(self, job_id: int, result: object, error: str) -> None:
        callback, errback = self._callbacks.pop(job_id, (None, None))
        if self.stopped:
            return
        if error:
            if errback is not None:
                errback(error)
        elif callback is not None:
            callback(result)

    def stop(self, wait_ms: int = 30_000) -> None:
        """Drop queued jobs and wait for the running one."""
        self.stopped = True
        self.pool.clear()
        self.pool.waitForDone(wait_ms)


class PageCache:
    """Rendered pages by (page index, scale), least recently used dropped first beyond `max_bytes`."""

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.nbytes = 0
        self._items: OrderedDict[tuple[int, float], QImage] = OrderedDict()

    def get(self, key: tuple[int, float]) -> QImage | None:
        image = self._items.get(key)
        if image is not None:
            self._items.move_to_end(key)
        return image

    def put(self, key: tuple[int, float], image: QImage) -> None:
        old = self._items.pop(key, None)
        if old is not None:
            self.nbytes -= old.sizeInBytes()
        self._items[key] = image
        self.nbytes += image.sizeInBytes()
        while self.nbytes > self.max_bytes and len(self._items) > 1:
            _, dropped = self._items.popitem(last=False)
            self.nbytes -= dropped.sizeInBytes()

    def clear(self) -> None:
        self._items.clear()
        self.nbytes = 0

    def __len__(self) -> int:
        return len(self._items)


def to_qimage(page: PageImage) -> QImage:
    """A QImage that owns its pixels (BGRx is Format_RGB32 on little-endian machines)."""
    image = QImage(page.data, page.width, page.height, page.stride, QImage.Format.Format_RGB32)
    return image.copy()


class PageRenderer(QObject):
    """Renders pages of one open PdfFile off the GUI thread; page_ready(index) when a wanted page lands."""

    page_ready = Signal(int)
    render_failed = Signal(int, str)

    def __init__(self, parent: QObject | None = None, cache_bytes: int = CACHE_BYTES) -> None:
        super().__init__(parent)
        self.worker = OffThread("desktop-rag-viewer-render", self)
        self.cache = PageCache(cache_bytes)
        self.pdf: PdfFile | None = None
        self._generation = 0
        self._wanted: set[tuple[int, float]] = set()
        self._wanted_lock = threading.Lock()
        self._in_flight: set[tuple[int, float]] = set()

    def set_document(self, pdf: PdfFile | None) -> None:
        """Show another document: forget the old pages (the caller closes the old PdfFile)."""
        self._generation += 1
        self.pdf = pdf
        self.cache.clear()
        self._in_flight.clear()
        with self._wanted_lock:
            self._wanted = set()

    def image(self, index: int, scale: float, prefetch: tuple[int, ...] = ()) -> QImage | None:
        """The page if cached; else None and it is rendered (with `prefetch` pages after it) off-thread."""
        key = (index, round(scale, 3))
        wanted = [key] + [(i, key[1]) for i in prefetch if self.pdf and 0 <= i < self.pdf.page_count]
        with self._wanted_lock:
            self._wanted = set(wanted)  # pages asked for earlier and not started are skipped
        for k in wanted:
            if self.cache.get(k) is None and k not in self._in_flight:
                self._start(k)
        return self.cache.get(key)

    def _start(self, key: tuple[int, float]) -> None:
        pdf, generation = self.pdf, self._generation
        if pdf is None:
            return
        self._in_flight.add(key)

        def render() -> QImage | None:
            with self._wanted_lock:
                if key not in self._wanted:
                    return None  # the user paged on: skip
            return to_qimage(pdf.render(key[0], key[1]))  # QImage is reentrant: the copy is made here, not on the GUI

        self.worker.submit(render, lambda page: self._landed(generation, key, page),
                           lambda error: self._failed(generation, key, error))

    def _landed(self, generation: int, key: tuple[int, float], image: QImage | None) -> None:
        if generation != self._generation:
            return
        self._in_flight.discard(key)
        if image is None:
            return
        self.cache.put(key, image)
        self.page_ready.emit(key[0])

    def _failed(self, generation: int, key: tuple[int, float], error: str) -> None:
        if generation == self._generation:
            self._in_flight.discard(key)
            self.render_failed.emit(key[0], error)

    def stop(self) -> None:
        self.set_document(None)
        self.worker.stop()
