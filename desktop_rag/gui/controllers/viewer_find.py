"""The viewer's find bar: a text document is searched in its pane at once; a PDF's pages by the PDFium child, on the
locate thread, from the match found last (kept: where the next search starts, what its page highlights)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from desktop_rag.engine import RemotePdf, Reason, find_in_pdf
from desktop_rag.gui import i18n
from desktop_rag.gui.threads.worker_pool import WorkerPool
from desktop_rag.gui.views.viewer import ViewerWindow
from desktop_rag.gui.views.viewer.strings import tr


@dataclass(frozen=True)
class Found:
    """A find-in-document result on a PDF page."""

    page: int
    start: int
    end: int
    rects: tuple


class DocumentFind:
    """Find in the document the viewer shows; everything here runs on the GUI thread, the PDF search on `pool`."""

    def __init__(self, pool: WorkerPool) -> None:
        self.pool = pool
        self.found: Found | None = None
        self._generation = 0  # a PDF search answered after `clear` is dropped

    def clear(self) -> None:
        """Another passage or document is shown: the match goes, a search under way is not answered."""
        self.found = None
        self._generation += 1

    def rects_on(self, page: int) -> tuple:
        """The match's rectangles on `page` (0-based), if it is there."""
        return self.found.rects if self.found is not None and self.found.page == page else ()

    def in_text(self, view: ViewerWindow, query: str, forward: bool) -> None:
        """The next (or previous) match in the text pane, or "not found"."""
        view.set_find_result("" if view.text_pane.find(query, forward) else tr("find_none"))

    def in_pdf(self, view: ViewerWindow, pdf: RemotePdf, query: str, page: int, forward: bool,
               show: Callable[[int | None], None]) -> None:
        """Search `pdf` from the last match (else from `page`, 0-based) off the GUI thread; then say where, and
        `show` the match's page (None: nothing found, the page stays)."""
        found = self.found
        start = found.page if found is not None else page
        after = found.start if found is not None else (-1 if forward else 1 << 30)
        generation = self._generation

        def done(result: tuple | None) -> None:
            if generation != self._generation:
                return
            self.found = None if result is None else Found(*result)
            view.set_find_result(tr("find_none") if self.found is None else tr("find_at", page=self.found.page + 1))
            show(None if self.found is None else self.found.page)

        def failed(reason: Reason) -> None:  # a page could not be read (the PDFium child crashed, ran out of time)
            if generation == self._generation:
                view.set_find_result(tr("error", reason=i18n.error(reason)))

        self.pool.submit(lambda: find_in_pdf(pdf, query, start, after, forward), done, failed)
