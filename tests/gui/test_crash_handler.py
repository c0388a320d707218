"""An exception in a slot or a background thread shows a dialog with the log path; the app keeps running."""

from __future__ import annotations

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before any Qt import

import sys  # noqa: E402
import threading  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QObject, QTimer, Signal  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from desktop_rag import logs  # noqa: E402
from desktop_rag.config import resolve_paths  # noqa: E402
from desktop_rag.gui import crash_handler  # noqa: E402

SECRET = "sk-test-Crash0123456789abcdef"

# pytest-qt's own exception capture would replace our hook during the test.
pytestmark = pytest.mark.qt_no_exception_capture


class Button(QObject):
    clicked = Signal()


@pytest.fixture
def installed(qtbot, tmp_path: Path) -> Iterator[Path]:
    """A log file and our hooks; the previous hooks, the dialog and the log handler are restored after."""
    QApplication.instance() or QApplication([])
    saved = sys.excepthook, threading.excepthook
    log_file = logs.setup_logging(resolve_paths(tmp_path / "home"))
    crash_handler.install_excepthook(log_file)
    yield log_file
    box = crash_handler.crash_dialog()
    if box is not None:
        box.close()
    sys.excepthook, threading.excepthook = saved
    logs.shutdown_logging()


def close_dialog(qtbot) -> str:
    """Wait for the crash dialog, click OK, wait until it is gone; returns all its text."""
    qtbot.waitUntil(lambda: crash_handler.crash_dialog() is not None, timeout=5_000)
    box = crash_handler.crash_dialog()
    assert box is not None and box.objectName() == crash_handler.DIALOG_OBJECT_NAME
    text = box.text() + box.informativeText() + box.detailedText()
    box.button(QMessageBox.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: crash_handler.crash_dialog() is None, timeout=5_000)
    return text


def test_exception_in_slot_shows_dialog_and_app_keeps_running(qtbot, installed: Path) -> None:
    button = Button()
    calls: list[str] = []

    def broken_slot() -> None:
        calls.append("broken")
        raise ValueError(f"boom in a slot with {SECRET}")

    button.clicked.connect(broken_slot)
    QTimer.singleShot(0, button.clicked.emit)  # raised from inside the running event loop
    text = close_dialog(qtbot)
    assert "ValueError: boom in a slot" in text and str(installed) in text
    assert SECRET not in text

    # still alive: the event loop runs, timers fire, the same slot can fail again and is reported again
    with qtbot.waitSignal(button.clicked, timeout=5_000):
        QTimer.singleShot(0, button.clicked.emit)
    close_dialog(qtbot)
    assert calls == ["broken", "broken"]
    fired: list[bool] = []
    QTimer.singleShot(0, lambda: fired.append(True))
    qtbot.waitUntil(lambda: fired == [True], timeout=5_000)

    logged = installed.read_text(encoding="utf-8")
    assert "Unexpected error" in logged and "Traceback (most recent call last)" in logged
    assert "boom in a slot" in logged and SECRET not in logged


def test_exception_in_background_thread_is_shown_on_gui_thread(qtbot, installed: Path) -> None:
    def work() -> None:
        raise RuntimeError("worker failed")

    thread = threading.Thread(target=work, name="index-helper")
    thread.start()
    thread.join(5)
    assert "RuntimeError: worker failed" in close_dialog(qtbot)
    assert "thread 'index-helper'" in installed.read_text(encoding="utf-8")


def test_one_dialog_at_a_time(qtbot, installed: Path) -> None:
    def fail(n: int) -> None:
        raise KeyError(n)

    for n in range(3):
        QTimer.singleShot(0, lambda n=n: fail(n))
    qtbot.waitUntil(lambda: installed.read_text(encoding="utf-8").count("KeyError") >= 3, timeout=5_000)
    dialogs = [w for w in QApplication.topLevelWidgets()
               if w.objectName() == crash_handler.DIALOG_OBJECT_NAME and w.isVisible()]
    assert len(dialogs) == 1
    close_dialog(qtbot)
