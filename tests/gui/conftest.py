"""GUI test fixtures: offscreen Qt, a real MainWindow on a temp library, the local OpenAI-compatible server."""

from __future__ import annotations

import logging
import os
import time

os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before any Qt import

from collections.abc import Callable, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from desktop_rag.config import Settings, resolve_paths  # noqa: E402
from tests.support.openai_server import FakeOpenAIServer, run_openai_server  # noqa: E402

# GUI tests are about the GUI, not semantics: the deterministic hash embedder keeps them fast.
# tests/gui/test_real_model.py uses the bundled model (default Settings).
FAST = Settings(embedding_model="hash:64")
INDEX_TIMEOUT_MS = 60_000


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("OPENAI_", "DESKTOP_RAG_")):
            monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def _english_interface() -> Iterator[None]:
    """Every GUI test starts in the English interface and leaves it so, whatever language it switched to."""
    from desktop_rag.gui import i18n

    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def llm_server() -> Iterator[FakeOpenAIServer]:
    with run_openai_server() as server:
        yield server


def llm_settings(server: FakeOpenAIServer, **changes) -> Settings:
    return FAST.replace(**{"llm_provider": "custom", "llm_base_url": server.base_url, "llm_model": "fake-model",
                           **changes})


@pytest.fixture
def make_window(qtbot, tmp_path: Path) -> Iterator[Callable]:
    """Factory for real MainWindows (real Engine, temp data dir); all are closed at the end."""
    from desktop_rag.gui.app import create_application
    from desktop_rag.gui.main_window import MainWindow

    create_application()
    windows: list[MainWindow] = []

    def factory(settings: Settings = FAST, home: Path | None = None) -> MainWindow:
        paths = resolve_paths(home or tmp_path / "home")
        window = MainWindow(paths, settings)
        window.show()
        windows.append(window)
        return window

    yield factory
    for window in windows:
        window.close()


def wait_idle(qtbot, window, timeout: int = INDEX_TIMEOUT_MS) -> None:
    """Wait until the index worker has nothing running or queued and the status bar shows a status read after
    that; fail with a message saying what was still going on, or why the status read failed, within `timeout`.

    A status read already in flight is waited out first (it may have started before the last run ended, or
    fail and show nothing; the backend chains any read asked for meanwhile); then one fresh read is made.
    """
    backend = window.backend
    deadline = time.monotonic() + timeout / 1000
    _wait_for(qtbot, lambda: not backend.busy and backend.indexer.pending() == 0, deadline,
              lambda: f"the index worker is still busy (busy={backend.busy}, queued={backend.indexer.pending()})")
    _wait_for(qtbot, lambda: not backend._status_in_flight, deadline, lambda: "a status read never ended")
    shown: list = []
    failures = _StatusFailures()
    window.status_updated.connect(shown.append)
    logging.getLogger(backend.__module__).addHandler(failures)
    try:
        backend.refresh_status()
        _wait_for(qtbot, lambda: shown or not backend._status_in_flight, deadline,
                  lambda: "the status read did not answer")
    finally:
        logging.getLogger(backend.__module__).removeHandler(failures)
        window.status_updated.disconnect(shown.append)
    if not shown:
        pytest.fail(f"wait_idle: the status read failed: {failures.messages or ['(no message logged)']}",
                    pytrace=False)


class _StatusFailures(logging.Handler):
    """Collects the backend's "Status refresh failed" warnings while wait_idle waits."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("Status refresh failed"):
            self.messages.append(record.getMessage())


def _wait_for(qtbot, condition: Callable[[], object], deadline: float, what: Callable[[], str]) -> None:
    """Process events until `condition()` holds; past `deadline`, fail the test saying `what()`."""
    try:
        qtbot.waitUntil(lambda: bool(condition()), timeout=max(1, int((deadline - time.monotonic()) * 1000)))
    except qtbot.TimeoutError:
        pytest.fail(f"wait_idle timed out: {what()}", pytrace=False)


def add_and_wait(qtbot, window, paths: list[str], timeout: int = INDEX_TIMEOUT_MS):
    """Call the Add folder/files slot and wait for the run that indexed them; returns its IndexReport."""
    with qtbot.waitSignal(window.index_finished, timeout=timeout,
                          check_params_cb=lambda r: r.added + r.updated + len(r.failed) > 0) as blocker:
        window.add_paths(paths)
    wait_idle(qtbot, window, timeout)
    return blocker.args[0]


def write_docs(folder: Path, count: int = 3, words: int = 60) -> list[Path]:
    """Generated English documents about numbered topics."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(count):
        body = " ".join(f"topic{i} fact{j} alpha beta gamma." for j in range(words // 5))
        path = folder / f"doc{i:03d}.md"
        path.write_text(f"# Document {i}\n\n{body}\n", encoding="utf-8")
        out.append(path)
    return out


def thread_name() -> str:
    """The Qt name of the current thread (pool threads carry their pool's name), else Python's; "GUI" for the
    main thread: how the thread-write audits name who wrote."""
    import threading

    from PySide6.QtCore import QThread

    if threading.current_thread() is threading.main_thread():
        return "GUI"
    return QThread.currentThread().objectName() or threading.current_thread().name


def form_label(dialog, field) -> str:
    """The text of the label a form of `dialog` shows beside `field` ('' when none)."""
    from PySide6.QtWidgets import QFormLayout, QLabel

    for form in dialog.findChildren(QFormLayout):
        label = form.labelForField(field)
        if isinstance(label, QLabel):
            return label.text()
    return ""
