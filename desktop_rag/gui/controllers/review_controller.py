"""The Review view's behaviour (issue 39): the counts and signals, the spot check, the export, and measuring the
library with the user's labelled questions in the background (progress, cancel): those of the collection chosen in
the window, searched within it, as `desktop-rag eval --collection` (all of them with "All collections"). Reads and
grades run on the reader thread; the measurement on its own pool (`desktop-rag-eval`), joined at close."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from desktop_rag.gui.controllers.collections_controller import CollectionsController
from desktop_rag.gui.threads.backend import Backend
from desktop_rag.gui.threads.worker_pool import Worker, WorkerPool
from desktop_rag.gui.views.review.review_window import ReviewWindow

SPOT_SAMPLE = 50


class ReviewController(QObject):
    """Opens one ReviewWindow (made on first use) and answers its requests."""

    def __init__(self, backend: Backend, collections: CollectionsController, window: QWidget) -> None:
        super().__init__(window)
        self.backend = backend
        self.collections = collections  # the one chosen is the one measured
        self.parent_widget = window
        self.view: ReviewWindow | None = None
        self.evaluations = WorkerPool("desktop-rag-eval", 1, self)
        self.measuring: Worker | None = None
        backend.library_changed.connect(self._library_changed)

    def open(self) -> None:
        view = self.window()
        view.show()
        view.raise_()
        view.activateWindow()
        self.refresh()
        self.sample()

    def window(self) -> ReviewWindow:
        if self.view is None:
            view = self.view = ReviewWindow(self.parent_widget)
            view.overview.refresh_requested.connect(self.refresh)
            view.overview.export_requested.connect(self.export)
            view.spot.graded.connect(self.grade)
            view.spot.sample_requested.connect(self.sample)
            view.measure.run_requested.connect(self.measure)
            view.measure.cancel_requested.connect(self.cancel)
        return self.view

    def _library_changed(self, change) -> None:
        if change.touches("conversations", "grades") and self.view is not None and self.view.isVisible():
            self.refresh()  # an answer given (or a conversation deleted) while the view is open

    # ---- overview and export ----

    def refresh(self) -> None:
        view = self.window()
        self.backend.run(self.backend.engine.review.stats, view.overview.show_stats,
                         lambda reason: view.overview.show_result("review.failed", False, reason=reason))

    def export(self, path: str) -> None:
        view, engine = self.window(), self.backend.engine
        self.backend.run(lambda: engine.review.export(path),
                         lambda count: view.overview.show_result("review.exported", count=count, path=path),
                         lambda reason: view.overview.show_result("review.export_failed", False, reason=reason))

    # ---- spot check ----

    def sample(self) -> None:
        view, engine = self.window(), self.backend.engine
        self.backend.run(lambda: engine.review.spot_check(SPOT_SAMPLE), view.spot.set_items)

    def grade(self, answer_id: int, grade: str) -> None:
        engine = self.backend.engine
        self.backend.edit(lambda: engine.review.set_grade(answer_id, grade), ("grades",), None,  # (then read again)
                          lambda reason: self.window().overview.show_result("grade.not_saved", False, reason=reason))

    # ---- measuring the library ----

    def measure(self) -> None:
        if self.measuring is not None or self.backend.stopped:
            return
        page = self.window().measure
        page.set_running(True)
        collection, listing = self.collections.current, self.collections.listing
        page.show_scope(self.collections.name_of(collection), tuple(c.name for c in listing))
        worker = self.evaluations.start(_evaluate, self.backend.engine, collection, cancel_kw="cancel",
                                        report_kw="report")
        worker.yielded.connect(lambda progress: page.show_progress(*progress))
        worker.returned.connect(page.show_report)
        worker.errored.connect(lambda message: page.show_failed(worker.failure(message)))
        worker.finished.connect(self._measured)
        self.measuring = worker

    def cancel(self) -> None:
        if self.measuring is not None:
            self.measuring.cancel()

    def _measured(self) -> None:
        self.measuring = None
        if self.view is not None:
            self.view.measure.set_running(False)


def _evaluate(engine, collection: int | None, cancel, report):
    """`Engine.review.evaluate` of one collection (None: all) on the eval pool: progress as (done, total) pairs."""
    return engine.review.evaluate(collection, cancel=cancel, progress=lambda done, total: report((done, total)))
