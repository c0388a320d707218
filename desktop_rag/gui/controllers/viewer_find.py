"""The viewer's find bar: a text document's whole text (not only the window of it laid out) and a PDF's pages (by
the PDFium child) are searched on the locate thread from the match found last (kept: where the next search starts,
what is highlighted); a search under way is dropped, and a text one stopped, when another starts or the query
changes (`DocumentFind`). What its buttons do in the viewer, Find and Back to passage: `FindAndBack`."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from desktop_rag.engine import PAGES, Location, RemotePdf, Reason, find_in_pdf
from desktop_rag.gui import i18n
from desktop_rag.gui.controllers.viewer_locate import Shown, shown_around
from desktop_rag.gui.text_find import find_text
from desktop_rag.gui.text_window import TextWindow
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
        self.found: Found | None = None  # on a PDF page
        self.match: tuple[int, int] | None = None  # in a text document's text
        self._generation = 0  # a search answered after `cancel` is dropped
        self._stop = threading.Event()  # the text search under way stops at its next piece

    def clear(self) -> None:
        """Another passage or document is shown: the match goes, a search under way is not answered."""
        self.found = self.match = None
        self.cancel()

    def cancel(self) -> None:
        """The query changed or another search starts: the one under way is not answered (a text search stops)."""
        self._generation += 1
        self._stop.set()

    def rects_on(self, page: int) -> tuple:
        """The match's rectangles on `page` (0-based), if it is there."""
        return self.found.rects if self.found is not None and self.found.page == page else ()

    def in_text(self, view: ViewerWindow, text: str, window: TextWindow, query: str, forward: bool, origin: int,
                show: Callable[[tuple[int, int] | None, Shown | None], None]) -> None:
        """Search the whole `text` off the GUI thread from the last match (else from `origin`, the passage's start),
        wrapping around; then say whether it was found and `show` the match (offsets into `text`; None: not found)
        with, when it lies outside the `window` laid out, the window around it."""
        self.cancel()
        stop = self._stop = threading.Event()
        match, generation = self.match, self._generation
        at = origin if match is None else match[1] if forward else match[0]

        def search() -> tuple[tuple[int, int], Shown | None] | None:
            span = find_text(text, query, at, forward, stop)
            if span is None or stop.is_set():
                return None
            return span, None if window.holds(*span) else shown_around(text, *span)

        def done(result: tuple[tuple[int, int], Shown | None] | None) -> None:
            if generation != self._generation:
                return
            self.match = result[0] if result is not None else None
            view.set_find_result("" if result is not None else tr("find_none"))
            show(*(result or (None, None)))

        self.pool.submit(search, done, self._failed(view, generation))

    def in_pdf(self, view: ViewerWindow, pdf: RemotePdf, query: str, page: int, forward: bool,
               show: Callable[[int | None], None]) -> None:
        """Search `pdf` from the last match (else from `page`, 0-based) off the GUI thread; then say where, and
        `show` the match's page (None: nothing found, the page stays)."""
        self.cancel()
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

        self.pool.submit(lambda: find_in_pdf(pdf, query, start, after, forward), done, self._failed(view, generation))

    def _failed(self, view: ViewerWindow, generation: int) -> Callable[[Reason], None]:
        """What says why a search failed (a page could not be read: the PDFium child crashed, ran out of time)."""

        def failed(reason: Reason) -> None:
            if generation == self._generation:
                view.set_find_result(tr("error", reason=i18n.error(reason)))

        return failed


class FindAndBack:
    """The viewer controller's find bar (a part of `ViewerController`, whose attributes below it uses): Find shows
    the match found, Back to passage the cited passage again once Find or paging left it; on the GUI thread."""

    view: ViewerWindow | None
    location: Location | None
    pdf: RemotePdf | None
    page: int
    finder: DocumentFind
    window_shown: Shown | None  # the part of a text document laid out now
    _passage_window: Shown | None  # the part laid out around the passage
    _request: int
    _shown: int

    def find(self, query: str, forward: int) -> None:
        view, location = self.view, self.location
        if view is None or location is None or location.error:
            return
        if location.kind == "text" and self.window_shown is not None:
            window = self.window_shown[0]
            origin = location.start if location.found else window.offset
            self.finder.in_text(view, location.text, window, query, bool(forward), origin, self._show_match)
        elif self.pdf is not None and query.strip():
            self.finder.in_pdf(view, self.pdf, query, self.page, bool(forward), self._show_found)

    def _show_match(self, span: tuple[int, int] | None, around: Shown | None) -> None:
        """The text's match found highlighted (None: none); `around`: the window laid out around it, shown first."""
        if around is not None and self.location is not None:
            self._show_text(self.location, around)
        if self.window_shown is not None:
            self.view.text_pane.show_found(self.window_shown[0].span(*span) if span is not None else None)
        self._offer_back()

    def _show_found(self, page: int | None) -> None:
        """The page of the match found (None: none, the page shown stays), the match highlighted."""
        if page is not None:
            self.page = page
        self._draw_page(reveal=True)

    def back_to_passage(self) -> None:
        """The cited passage shown again where Find (or paging) left it: its window or page, highlighted; the match
        is forgotten, so the next search starts from the passage."""
        location, view = self.location, self.view
        if view is None or location is None or location.error or not self._moved_away():
            return
        self.finder.clear()
        view.set_find_result("")
        if location.kind == PAGES:
            self.page = (location.page or 1) - 1
            self._draw_page(reveal=True)
        elif self._passage_window is not None:
            self._show_text(location, self._passage_window)
            self._offer_back()

    def _moved_away(self) -> bool:
        """Whether the view left the cited passage: another page or window shown, or a match outside the passage
        highlighted (scrolled to)."""
        location = self.location
        if location is None or location.error or self._shown != self._request:
            return False
        if location.kind == PAGES:
            found = self.finder.found
            span = None if found is None else (found.start, found.end)
            elsewhere = self.page != (location.page or 1) - 1
        else:
            span, elsewhere = self.finder.match, self.window_shown is not self._passage_window
        inside = span is not None and location.found and location.start <= span[0] and span[1] <= location.end
        return elsewhere or (span is not None and not inside)

    def _offer_back(self) -> None:
        if self.view is not None:
            self.view.set_back_enabled(self._moved_away())

    def _show_text(self, location: Location, shown: Shown) -> None:
        raise NotImplementedError  # the controller's: lays out `shown` with the passage highlighted

    def _draw_page(self, reveal: bool = False) -> None:
        raise NotImplementedError  # the controller's: draws page `page` with its highlights
