"""The library's index runs as the window shows them: Pause, Resume and Cancel, a run's progress and its outcome
under the library (why one stopped in the status bar too), said again after a language switch."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QStatusBar

from desktop_rag.engine import IndexReport, Reason, skipped_summary
from desktop_rag.gui import i18n
from desktop_rag.gui.models.library import LibraryModel
from desktop_rag.gui.threads.backend import Backend
from desktop_rag.gui.views.library_panel import LibraryPanel


class IndexRuns(QObject):
    """Connects the library panel's run buttons to the backend and shows what each run did under the library."""

    finished = Signal(object)  # IndexReport, after the library shows it

    def __init__(self, backend: Backend, panel: LibraryPanel, model: LibraryModel, status_bar: QStatusBar,
                 parent: QObject) -> None:
        super().__init__(parent)
        self.backend, self.panel, self.model, self.status_bar = backend, panel, model, status_bar
        self.paused = False
        self._last_report: IndexReport | None = None  # what the text under the library says, in codes and
        self._last_removed = ""  # values, for a language switch
        self._last_failure: Reason | None = None
        panel.pause_requested.connect(self.pause)
        panel.resume_requested.connect(self.resume)
        panel.cancel_requested.connect(self.cancel)
        backend.index_finished.connect(self._run_finished)
        backend.index_failed.connect(self._run_failed)
        backend.source_removed.connect(self._source_removed)
        backend.busy_changed.connect(self._busy_changed)
        backend.indexer.progress.connect(panel.show_progress)
        i18n.on_change(self._retranslate)

    def pause(self) -> None:
        """'Pause' cancels the run; Resume reconciles again and continues where it stopped."""
        self.paused = True
        self.backend.cancel()

    def resume(self) -> None:
        self.paused = False
        self.panel.set_paused(False)
        self.backend.reconcile(None)

    def cancel(self) -> None:
        self.paused = False
        self.backend.cancel()

    def _busy_changed(self, busy: int) -> None:
        self.panel.set_running(bool(busy))

    def _run_finished(self, report: IndexReport) -> None:
        self._last_report, self._last_removed, self._last_failure = report, "", None
        if report.cancelled:
            self.panel.set_paused(self.paused)
            if not self.paused:
                self.panel.show_progress_text(i18n.tr("progress.cancelled"))
        else:
            self.panel.show_progress_text(self.finished_text(report))
        self.finished.emit(report)

    def _source_removed(self, path: str) -> None:
        """A removal replaces the last run's summary under the library (its counts no longer hold)."""
        self._last_report, self._last_removed, self._last_failure = None, path, None
        self.panel.show_progress_text(i18n.tr("progress.removed", path=path))

    def finished_text(self, report: IndexReport) -> str:
        """What a finished run did, in the interface's language ("" for an empty library's start-up check)."""
        if self.model.rowCount() == 0 and not (report.added or report.updated or report.failed):
            return ""
        text = i18n.tr("progress.finished", added=report.added, updated=report.updated, removed=report.removed,
                       failed=len(report.failed))
        if report.attachments:
            text += " " + i18n.tr("progress.attachments", n=report.attachments)
        skipped = skipped_summary(report.skipped, i18n.language())
        return f"{text} · {skipped}" if skipped else text

    def _run_failed(self, reason: Reason) -> None:
        """Why a run stopped, under the library (said again after a language switch) and in the status bar."""
        self._last_report, self._last_removed, self._last_failure = None, "", reason
        message = i18n.error(reason)
        self.panel.show_progress_text(message)
        self.status_bar.showMessage(message, 15000)

    def _retranslate(self) -> None:
        if self.backend.busy:
            return  # the run's progress says itself
        report = self._last_report
        if report is not None and not report.cancelled:
            self.panel.show_progress_text(self.finished_text(report))
        elif self._last_removed:
            self.panel.show_progress_text(i18n.tr("progress.removed", path=self._last_removed))
        elif self._last_failure is not None:
            self.panel.show_progress_text(i18n.error(self._last_failure))
