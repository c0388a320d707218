"""PDF pages for the viewer, rendered on demand on a worker pool (gui/threads/worker_pool.py), kept in a bounded LRU cache.

The pages are drawn in the viewer's PDFium child (engine document/pdf_child.py): a page no longer wanted (paged
away from, another document shown) has its drawing cancelled (the child killed, a fresh one for the next page); a
page the child failed on is remembered (`failure`) and not drawn again at that scale for that document."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage

from desktop_rag.engine import PageImage, ParseCancelled, Reason, RemotePdf
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
    """Renders pages of one open RemotePdf off the GUI thread; page_ready(index) when a wanted page lands."""

    page_ready = Signal(int)
    render_failed = Signal(int, object)

    def __init__(self, parent: QObject | None = None, cache_bytes: int = CACHE_BYTES) -> None:
        super().__init__(parent)
        self.worker = WorkerPool("desktop-rag-viewer-render", 1, self)
        self.cache = PageCache(cache_bytes)
        self.pdf: RemotePdf | None = None
        self.failed: dict[tuple[int, float], Reason] = {}  # pages (at a scale) that could not be drawn: why
        self._cancels: dict[tuple[int, float], threading.Event] = {}  # pages being drawn
        self._generation = 0
        self._wanted: set[tuple[int, float]] = set()
        self._wanted_lock = threading.Lock()
        self._in_flight: set[tuple[int, float]] = set()

    def set_document(self, pdf: RemotePdf | None) -> None:
        """Show another document: forget the old pages (the one being drawn cancelled); the old one is closed
        (`discard`)."""
        old = self.pdf
        self._generation += 1
        self.pdf = pdf
        if old is not None and old is not pdf:
            self.discard(old)
        self.cache.clear()
        self.failed = {}
        self._in_flight.clear()
        with self._wanted_lock:
            self._wanted = set()
            self._cancel_unwanted()

    def failure(self, index: int, scale: float) -> Reason | None:
        """Why page `index` of the document could not be drawn at `scale` (None: it was, or is being)."""
        return self.failed.get((index, round(scale, 3)))

    def image(self, index: int, scale: float, prefetch: tuple[int, ...] = ()) -> QImage | None:
        """The page if cached; else None and it is rendered (with `prefetch` pages after it) off-thread."""
        key = (index, round(scale, 3))
        wanted = [key] + [(i, key[1]) for i in prefetch if self.pdf and 0 <= i < self.pdf.page_count]
        with self._wanted_lock:
            self._wanted = set(wanted)  # pages asked for earlier and not started are skipped
            self._cancel_unwanted()  # ... and one being drawn stopped
        for k in wanted:
            if self.cache.get(k) is None and k not in self._in_flight and k not in self.failed:
                self._start(k)
        return self.cache.get(key)

    def _cancel_unwanted(self) -> None:
        for k, cancel in self._cancels.items():
            if k not in self._wanted:
                cancel.set()

    def _start(self, key: tuple[int, float]) -> None:
        pdf, generation = self.pdf, self._generation
        if pdf is None:
            return
        self._in_flight.add(key)
        cancel = threading.Event()

        def render() -> QImage | None:
            with self._wanted_lock:
                if key not in self._wanted:
                    return None  # the user paged on: skip
                self._cancels[key] = cancel
            try:  # QImage is reentrant: the copy is made here, not on the GUI thread
                return to_qimage(pdf.render(key[0], key[1], cancel=cancel))
            except ParseCancelled:
                return None
            finally:
                with self._wanted_lock:
                    self._cancels.pop(key, None)

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
            self.failed[key] = error
            self.render_failed.emit(key[0], error)

    def discard(self, pdf: RemotePdf) -> None:
        """Close `pdf` on the render thread, after the page it may be drawing (cancelled by `set_document`): closing
        waits for the PDFium child, which one page (a Flate bomb, forms drawing forms) can keep busy until its time
        limit; on the GUI thread that froze the window. Here once the render thread is shut down."""
        if self.worker.submit(pdf.close) is None:
            pdf.close()

    def stop(self) -> None:
        """Forget the document (closed), drop queued renders and join the render thread."""
        old = self.pdf
        self.set_document(None)
        self.worker.shutdown()  # the close queued by set_document is dropped with the renders
        if old is not None:
            old.close()
