"""PDF pages for the viewer, rendered on demand on a worker pool (gui/threads/worker_pool.py), kept in a bounded LRU cache."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage

from desktop_rag.engine import PageImage, PdfFile, Reason
from desktop_rag.gui.threads.worker_pool import WorkerPool

log = logging.getLogger(__name__)
CACHE_BYTES = 96 * 1024 * 1024  # rendered pages kept (about 20 letter pages at 150 % on a 2x screen)


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
    render_failed = Signal(int, object)

    def __init__(self, parent: QObject | None = None, cache_bytes: int = CACHE_BYTES) -> None:
        super().__init__(parent)
        self.worker = WorkerPool("desktop-rag-viewer-render", 1, self)
        self.cache = PageCache(cache_bytes)
        self.pdf: PdfFile | None = None
        self._generation = 0
        self._wanted: set[tuple[int, float]] = set()
        self._wanted_lock = threading.Lock()
        self._in_flight: set[tuple[int, float]] = set()

    def set_document(self, pdf: PdfFile | None) -> None:
        """Show another document: forget the old pages; the old PdfFile is closed (`discard`)."""
        old = self.pdf
        self._generation += 1
        self.pdf = pdf
        if old is not None and old is not pdf:
            self.discard(old)
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

    def _failed(self, generation: int, key: tuple[int, float], error: Reason) -> None:
        if generation == self._generation:
            self._in_flight.discard(key)
            self.render_failed.emit(key[0], error)

    def discard(self, pdf: PdfFile) -> None:
        """Close `pdf` on the render thread, after the page it may be drawing: closing takes the PDFium lock, which
        one page (a Flate bomb, forms drawing forms) can hold for seconds; on the GUI thread that froze the window.
        Here once the render thread is shut down."""
        if self.worker.submit(pdf.close) is None:
            pdf.close()

    def stop(self) -> None:
        """Forget the document (closed), drop queued renders and join the render thread."""
        old = self.pdf
        self.set_document(None)
        self.worker.shutdown()  # the close queued by set_document is dropped with the renders
        if old is not None:
            old.close()
