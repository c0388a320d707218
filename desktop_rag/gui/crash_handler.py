"""Unexpected exceptions: log the traceback and show a dialog with the log path; the app keeps running."""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QObject, QThread, Signal, Slot
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_rag.engine import DesktopRagError
from desktop_rag.gui import i18n
from desktop_rag.logs import redact

log = logging.getLogger(__name__)

DIALOG_OBJECT_NAME = "desktop-rag-crash-dialog"
_MAX_MESSAGE = 500


class _CrashNotifier(QObject):
    """Lives on the GUI thread; `report` emitted from any thread shows the dialog there (queued)."""

    report = Signal(str, str)

    def __init__(self, log_file: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.log_file = log_file
        self.dialog: QMessageBox | None = None
        self.suppressed = 0
        self.report.connect(self._show)

    @Slot(str, str)
    def _show(self, summary: str, details: str) -> None:
        """One dialog at a time: further errors while it is open are only logged (and counted)."""
        if _visible(self.dialog):
            self.suppressed += 1
            return
        parent = QApplication.activeWindow()
        box = QMessageBox(QMessageBox.Icon.Critical, i18n.tr("crash.title"), i18n.tr("crash.text", summary=summary),
                          parent=parent)
        box.setObjectName(DIALOG_OBJECT_NAME)
        box.setInformativeText(i18n.tr("crash.details", log_file=self.log_file))
        box.setDetailedText(details)
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.setModal(False)
        box.finished.connect(box.deleteLater)
        self.dialog = box
        box.show()  # not exec(): no nested event loop inside an exception hook


_notifier: _CrashNotifier | None = None


def _visible(box: QMessageBox | None) -> bool:
    try:
        return box is not None and box.isVisible()
    except RuntimeError:  # the C++ dialog was deleted after it closed
        return False


def _describe(exc_type: type[BaseException], exc: BaseException | None,
              tb: TracebackType | None) -> tuple[str, str]:
    """The dialog's summary in the interface's language (an engine error's own text; in Chinese, a program error
    is named by its type, its English message staying in the details) and the traceback."""
    if isinstance(exc, DesktopRagError):
        summary = i18n.error(exc)
    elif i18n.language() == "en":
        summary = "".join(traceback.format_exception_only(exc_type, exc)).strip()
    else:
        summary = i18n.tr("crash.internal", type=exc_type.__name__)
    if len(summary) > _MAX_MESSAGE:
        summary = summary[:_MAX_MESSAGE] + "…"
    details = "".join(traceback.format_exception(exc_type, exc, tb))
    return redact(summary), redact(details)


def _report(exc_type: type[BaseException], exc: BaseException | None, tb: TracebackType | None,
            where: str) -> None:
    log.error("Unexpected error in %s", where, exc_info=(exc_type, exc, tb))
    notifier = _notifier
    if notifier is None:
        return
    summary, details = _describe(exc_type, exc, tb)
    app = QApplication.instance()
    if app is not None and QThread.currentThread() is app.thread():
        notifier._show(summary, details)
    else:
        notifier.report.emit(summary, details)  # queued to the GUI thread


def _excepthook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    if issubclass(exc_type, KeyboardInterrupt):
        sys.__excepthook__(exc_type, exc, tb)
        return
    _report(exc_type, exc, tb, "the app")


def _thread_excepthook(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit:
        return
    name = args.thread.name if args.thread is not None else "a background thread"
    _report(args.exc_type, args.exc_value, args.exc_traceback, f"thread {name!r}")


def install_excepthook(log_file: Path) -> None:
    """Route uncaught exceptions (GUI thread, Qt slots, Python threads) to the log and a dialog.

    Call on the GUI thread after the QApplication exists. The dialog names `log_file`.
    """
    global _notifier
    app = QApplication.instance()
    if app is None:
        raise RuntimeError("install_excepthook needs a QApplication")
    if _notifier is not None:
        _notifier.deleteLater()
    _notifier = _CrashNotifier(Path(log_file))
    _notifier.moveToThread(app.thread())
    sys.excepthook = _excepthook
    threading.excepthook = _thread_excepthook


def crash_dialog() -> QMessageBox | None:
    """The crash dialog currently shown, if any (tests, and to avoid stacking dialogs)."""
    notifier = _notifier
    return notifier.dialog if notifier is not None and _visible(notifier.dialog) else None
