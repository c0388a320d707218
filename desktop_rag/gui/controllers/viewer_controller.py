"""Opens cited passages in the in-app viewer: locates them off-thread, pages/zooms/finds, offers re-indexing."""

from __future__ import annotations

import logging
import os
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QWidget

from desktop_rag.engine import (
    MISSING,
    PAGES,
    STORED,
    Hit,
    Location,
    ParseCancelled,
    PdfPages,
    Reason,
    Rereader,
    is_paged,
    location_text,
)
from desktop_rag.gui import i18n
from desktop_rag.gui.controllers.viewer_banner import banner
from desktop_rag.gui.controllers.viewer_find import DocumentFind, FindAndBack
from desktop_rag.gui.controllers.viewer_locate import Shown, locate_passage, shown_text
from desktop_rag.gui.text import file_url, openable_file
from desktop_rag.gui.threads.page_renderer import PageRenderer
from desktop_rag.gui.threads.worker_pool import Worker, WorkerPool
from desktop_rag.gui.views.viewer import ViewerWindow
from desktop_rag.gui.views.viewer.strings import tr

if TYPE_CHECKING:
    from desktop_rag.gui.models.sources import SourcesModel
    from desktop_rag.gui.threads.backend import Backend

log = logging.getLogger(__name__)
ZOOMS = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0)
DEFAULT_ZOOM = 3  # index into ZOOMS: 125 %


class ViewerController(FindAndBack, QObject):
    """Owns the viewer window, the locate worker and the page renderer; everything here runs on the GUI thread.
    Its find bar's Find and Back to passage: `FindAndBack`."""

    located = Signal(object)  # Location, once it is shown
    page_shown = Signal(int)  # a page index, drawn with its rendered image
    ask_file_requested = Signal(str)  # the viewer's "Ask this document": the path of the file shown
    summarise_requested = Signal(str)  # the viewer's "Summarise this document"

    def __init__(self, backend: Backend, sources_model: SourcesModel, window_parent: QWidget,
                 parent: QObject | None = None) -> None:
        """`backend`: the engine, the settings, re-index and shutdown; `sources_model`: the passages shown, of
        which `open_number` opens one; `window_parent`: the viewer window's parent (the main window).

        The owner connects the clicks: a sources row to `open_number`, an answer's [n] to `open_citation`."""
        super().__init__(parent or window_parent)
        self.window_parent = window_parent
        self.backend = backend
        self.sources_model = sources_model
        self.locator = WorkerPool("desktop-rag-viewer-locate", 1, self)
        self.reader = Rereader()  # its parser child starts with the first text document shown
        self.pages = PdfPages()  # the PDFium child drawing and searching PDF pages, started with the first PDF
        self._locating: Worker | None = None  # the passage being located (cancelled when another is asked for)
        self.renderer = PageRenderer(self)
        self.renderer.page_ready.connect(self._page_ready)
        self.renderer.render_failed.connect(self._render_failed)
        self.view: ViewerWindow | None = None
        self.passages: tuple[tuple[int, Hit], ...] = ()
        self.position = 0
        self.location: Location | None = None
        self.pdf = None  # RemotePdf of the document shown
        self.page = 0
        self.zoom_index = DEFAULT_ZOOM
        self.finder = DocumentFind(self.locator)  # the find bar's searches and the match found
        self.window_shown: Shown | None = None  # the text document shown: the part laid out, as grids
        self._passage_window: Shown | None = None  # the part laid out around the passage (Back to passage)
        self._request = 0
        self._shown = 0  # the request whose location is shown (`_request` while none is loading)
        self._reindexing = ""
        self._failure: Reason | None = None  # why the passage could not be located (shown in place of the document)
        self._banner_said: tuple[int | None, Reason | None] = (None, None)  # the page (1-based) the banner speaks
        # of in a paged document, and its drawing failure said there
        self.backend.library_changed.connect(self._library_changed)
        self.backend.stopping.connect(self.shutdown)  # before the engine closes: a locate may be reading it
        i18n.on_change(self._retranslate)

    # ---- opening ----

    def open_citation(self, _row: int, number: int) -> None:
        """A click on [n] in the answer at `_row`. Connect it after ShownSources.open_citation (MainWindow
        does): that one shows the answer's sources first, so passage n is the clicked answer's."""
        self.open_number(number)

    def open_number(self, number: int) -> None:
        """Open passage [number] of the answer whose sources are shown; its siblings are next/previous."""
        model = self.sources_model
        passages = tuple((model.number(r), model.hit(r)) for r in range(model.rowCount()))
        position = next((i for i, (n, _) in enumerate(passages) if n == number), -1)
        if position >= 0:
            self.open_passages(passages, position)

    def open_passages(self, passages: tuple[tuple[int, Hit], ...], position: int) -> None:
        self.passages, self.position = tuple(passages), position
        self._show_position()

    def passages_moved(self, moved: dict[Hit, Hit]) -> None:
        """The open conversation's passages as the library holds them now (ShownSources.moved): the ones
        shown here follow, so stepping to them or showing one again after a re-index finds them where they are."""
        self.passages = tuple((number, moved.get(hit, hit)) for number, hit in self.passages)

    def window(self) -> ViewerWindow:
        if self.view is None:
            view = self.view = ViewerWindow(self.window_parent)
            view.previous_passage.connect(lambda: self._step_passage(-1))
            view.next_passage.connect(lambda: self._step_passage(1))
            view.page_step.connect(self._step_page)
            view.zoom_step.connect(self._step_zoom)
            view.open_default.connect(self.open_in_default_app)
            view.reindex.connect(self.reindex)
            view.find.connect(self.find)
            view.find_edited.connect(self.finder.cancel)  # typing on: the search under way stops
            view.back_to_passage.connect(self.back_to_passage)
            view.ask_document.connect(lambda: self.hit is not None and self.ask_file_requested.emit(self.hit.path))
            view.summarise_document.connect(
                lambda: self.hit is not None and self.summarise_requested.emit(self.hit.path))
            view.set_zoom_label(ZOOMS[self.zoom_index])
        return self.view

    @property
    def hit(self) -> Hit | None:
        return self.passages[self.position][1] if 0 <= self.position < len(self.passages) else None

    def _show_position(self) -> None:
        hit = self.hit
        if hit is None:
            return
        view = self.window()
        self._show_labels(hit)
        view.set_banner("")
        view.set_find_result("")
        self._failure = None
        view.show_message(tr("loading", name=os.path.basename(hit.path)))
        view.show()
        view.raise_()
        view.activateWindow()
        self._request += 1
        self.finder.clear()
        self._offer_back()  # nothing to go back to while the passage loads
        request, engine, reader, pages = self._request, self.backend.engine, self.reader, self.pages
        max_bytes = int(self.backend.settings.max_file_mb * 1024 * 1024)
        reader.configure(self.backend.settings)

        def work(cancel) -> tuple[Location, object, Shown | None] | None:
            try:
                location, pdf = locate_passage(engine, hit, max_bytes, partial(reader.read, cancel=cancel), pages)
            except ParseCancelled:  # another passage was asked for meanwhile
                return None
            return location, pdf, shown_text(location) if location.kind == "text" else None

        if self._locating is not None:  # a document still being read for the passage asked for before: its
            self._locating.cancel()  # reader is stopped (a hostile file never holds up the next passage)
        if self.locator.stopped:
            return
        worker = self._locating = self.locator.start(work, cancel_kw="cancel")
        worker.returned.connect(lambda result: result is not None and self._located(request, *result))
        worker.errored.connect(lambda error: self._locate_failed(request, worker.failure(error)))

    def _show_labels(self, hit: Hit) -> None:
        """The window's title and the passage counter, in the interface's language."""
        where = "" if is_paged(hit.path) else location_text(hit.path, hit.page, i18n.language())  # page nav says
        self.view.set_title(" · ".join(p for p in (os.path.basename(hit.path), where, hit.heading) if p))
        self.view.set_passage_nav(self.position, len(self.passages), self.passages[self.position][0])

    def _retranslate(self) -> None:
        """The language changed: the passage shown says its title, counters, banner, a failure shown and why its page
        could not be drawn in the new one (its buttons follow by themselves); a find result goes."""
        hit, view, location = self.hit, self.view, self.location
        if hit is None or view is None:
            return
        self._show_labels(hit)
        view.set_find_result("")
        if location is not None and self._shown == self._request:  # (while one loads, it says so when shown)
            self._banner(location)
            if location.kind == PAGES and not location.error:
                self._draw_page()  # its counter, and what the page area says for a page not drawn
            elif location.kind == "text" and not location.error:
                view.set_window_note(self._window_note())
        if self._failure is not None:
            self.view.show_message(tr("error", reason=i18n.error(self._failure)))

    def _step_passage(self, step: int) -> None:
        if 0 <= self.position + step < len(self.passages):
            self.position += step
            self._show_position()

    # ---- showing a location ----

    def _located(self, request: int, location: Location, pdf, shown: Shown | None = None) -> None:
        if request != self._request or self.view is None:
            if pdf is not None:
                self.renderer.discard(pdf)
            return
        self._set_pdf(pdf)
        self.location, self._shown, self._failure = location, request, None
        self.finder.clear()
        self._banner(location)
        gone = location.file_state == MISSING and not location.text  # reconcile dropped it: no stored text either
        self.view.set_file_actions(in_library=not gone, on_disk=location.file_state not in (MISSING, STORED))
        if location.error:
            self.view.show_message(tr("error", reason=i18n.error(location.error)))
            self.view.set_page_nav(None, 0)
        elif location.kind == PAGES:
            self._show_pdf(location)
        else:
            self._passage_window = shown
            self._show_text(location, shown)
        self._offer_back()
        self.located.emit(location)

    def _locate_failed(self, request: int, reason: Reason) -> None:
        """The passage could not be located: why, in place of the document."""
        if request == self._request and self.view is not None:
            self._failure = reason
            self.view.show_message(tr("error", reason=i18n.error(reason)))

    def _set_pdf(self, pdf) -> None:
        if pdf is self.pdf:
            return
        self.pdf = pdf
        self.renderer.set_document(pdf)  # closes the old one off this thread (a render queued for it fails quietly)

    def _banner(self, location: Location) -> None:
        """The banner for `location` on the page shown; a page that could not be drawn says why while it is shown."""
        paged = location.kind == PAGES
        failed = self.renderer.failure(self.page, self.scale) if paged else None
        self._banner_said = (self.page + 1 if paged else None, failed)
        if failed is not None:
            self.view.set_banner(self._page_failure(failed), level="info")
        else:
            self.view.set_banner(*banner(location, scan=bool(self.hit and self.hit.ocr), page=self._banner_said[0]))

    def _page_failure(self, failed: Reason) -> str:
        """Why the page shown could not be drawn (that page only: the others may draw)."""
        return tr("page_error", page=self.page + 1, reason=i18n.error(failed))

    def _show_pdf(self, location: Location) -> None:
        self.page = (location.page or 1) - 1
        self.view.show_page_area(self._beside(location, None))
        self._draw_page(reveal=True)

    @staticmethod
    def _beside(location: Location, failed: Reason | None) -> str:
        """The passage's stored text shown beside the page: beside one that could not be drawn, and beside every page
        when the passage could not be marked."""
        return location.passage if failed is not None or not location.found else ""

    def _say_page(self, location: Location, failed: Reason | None) -> None:
        """Another page shown, or the page shown failed: the banner says what holds there, and the passage's text goes
        beside a page that could not be drawn (and away again from the next one drawn)."""
        was = self._banner_said[1]
        self._banner(location)
        if (failed is None) != (was is None):
            self.view.show_page_area(self._beside(location, failed))

    def _show_text(self, location: Location, shown: Shown) -> None:
        window, grid = self.window_shown = shown
        self.view.set_page_nav(None, 0)
        self.view.text_pane.set_zoom(ZOOMS[self.zoom_index] / ZOOMS[DEFAULT_ZOOM])
        passage = window.span(location.start, location.end) if location.found else None
        self.view.text_pane.show_text(grid, passage, tuple(window.span(*f) for f in location.focus))
        self.view.show_text_area("" if location.found else location.passage, self._window_note())

    def _window_note(self) -> str:
        """What the text pane leaves out of a long document (its lines before and after the window shown)."""
        window = self.window_shown[0] if self.window_shown is not None else None
        if window is None or not window.cut:
            return ""
        return tr("window", before=f"{window.before:,}", after=f"{window.after:,}")

    # ---- PDF pages ----

    @property
    def scale(self) -> float:
        ratio = self.view.devicePixelRatioF() if self.view is not None else 1.0
        return ZOOMS[self.zoom_index] * ratio

    def highlight_on(self, page: int, focus: bool = False) -> tuple:
        """The passage's rectangles on `page` (0-based), or with `focus` those of its focus sentences."""
        location = self.location
        if location is None or not location.found or location.page != page + 1:
            return ()
        return location.focus_rects if focus else location.rects

    def _draw_page(self, reveal: bool = False) -> None:
        pdf, view = self.pdf, self.view
        if pdf is None or view is None or pdf.closed:
            return
        self.page = min(max(self.page, 0), pdf.page_count - 1)
        image = self.renderer.image(self.page, self.scale, prefetch=(self.page + 1, self.page - 1))
        failed = self.renderer.failure(self.page, self.scale)
        if self.location is not None and self._failure is None and self._banner_said != (self.page + 1, failed):
            self._say_page(self.location, failed)
        find = self.finder.rects_on(self.page)
        highlight, focus = self.highlight_on(self.page), self.highlight_on(self.page, focus=True)
        waiting = self._page_failure(failed) if failed else tr("rendering", page=self.page + 1)
        view.page_view.set_page(pdf.page_sizes[self.page], ZOOMS[self.zoom_index], image, highlight, find, waiting,
                                focus)
        view.set_page_nav(self.page, pdf.page_count)
        self._offer_back()
        if reveal:
            view.page_scroll.reveal(find or focus or highlight)
        if image is not None:
            self.page_shown.emit(self.page)

    def _page_ready(self, index: int) -> None:
        if index == self.page:
            self._draw_page()

    def _render_failed(self, index: int, _reason: Reason) -> None:
        """The page says why it could not be drawn, the banner too, and the passage's stored text is beside it, while
        it is shown (`_say_page`)."""
        if index == self.page and self.view is not None:
            self._draw_page()

    def _step_page(self, step: int) -> None:
        if self.pdf is not None and self.location is not None and self.location.kind == PAGES:
            self.page += step
            self._draw_page(reveal=True)

    def go_to_page(self, index: int) -> None:
        self.page = index
        self._draw_page(reveal=True)

    def _step_zoom(self, step: int) -> None:
        self.zoom_index = min(max(self.zoom_index + step, 0), len(ZOOMS) - 1)
        if self.view is None:
            return
        self.view.set_zoom_label(ZOOMS[self.zoom_index])
        if self.location is not None and self.location.kind == "text":
            self.view.text_pane.set_zoom(ZOOMS[self.zoom_index] / ZOOMS[DEFAULT_ZOOM])
        else:
            self._draw_page(reveal=True)

    # ---- default app, re-index ----

    def open_in_default_app(self) -> None:
        hit = self.hit
        if hit is None:
            return
        location = self.location
        path = (location.carrier if location is not None else "") or hit.path  # an attachment: its message
        if not openable_file(path) or location is None or location.file_state in (MISSING, STORED):
            if self.view is not None:  # a .bat named like a report, a network path, a not-linked archive file
                self.view.set_banner(tr("not_handed", path=path), level="info")
            return
        page = None if location.carrier else self.page + 1 if location.kind == PAGES else hit.page
        if not QDesktopServices.openUrl(file_url(path, page)) and self.view is not None:
            self.view.set_banner(tr("no_open", path=path), level="info")

    def reindex(self) -> None:
        hit = self.hit
        if hit is None or self.view is None:
            return
        self._reindexing = hit.path
        self.backend.force([(self.location.carrier if self.location is not None else "") or hit.path])
        self.view.set_banner(tr("reindex_started"), level="info")

    def _library_changed(self, change) -> None:
        """After the re-index the user asked for, look for the passage again (the store is now current)."""
        hit = self.hit
        if change.touches("files") and self._reindexing and hit is not None and hit.path == self._reindexing:
            self._reindexing = ""
            self._show_position()

    # ---- shutdown ----

    def shutdown(self) -> None:
        """Drop queued locate/find/render jobs, join their threads, close the document and the window."""
        self._request += 1
        self.finder.clear()
        self.pages.cancel()  # a page being drawn or searched: not waited for
        self.renderer.stop()
        self.locator.shutdown()
        self.reader.close()
        self._set_pdf(None)
        self.pages.close()
        if self.view is not None:
            self.view.close()
