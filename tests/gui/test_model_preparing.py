"""A model's first use on the fast runtime builds its files (the bundled MiniLM's ONNX export here, about 10 s):
the status bar says so, step by step, and then names the model ready; the window never waits for it."""

from __future__ import annotations

import re
import threading
import time

from PySide6.QtWidgets import QApplication

from desktop_rag.config import BUNDLED_MODEL, Settings
from desktop_rag.engine.models.download_types import DownloadProgress
from tests.gui.conftest import FAST


def test_the_status_bar_shows_the_first_use_preparation(make_window, qtbot, tmp_path):
    seen: list[str] = []
    started = time.monotonic()
    window = make_window(Settings(embedding_model=BUNDLED_MODEL, ui_language="en"), home=tmp_path / "fresh")
    assert time.monotonic() - started < 5.0  # the window is up before the build
    qtbot.waitUntil(lambda: seen.append(window.model_label.text()) or window.model_state[0] in ("ready", "error"),
                    timeout=120_000)
    assert window.model_state[0] == "ready", window.model_state
    steps = [t for t in seen if t.startswith("Preparing the embedding model")]
    assert steps and "step 1 of 1" in steps[0], seen[:5]
    shown = [tuple(map(int, re.search(r"step (\d+) of (\d+)", t).groups())) for t in steps]
    assert all(done <= total for done, total in shown), shown  # never "step 2 of 1" while verifying
    assert window.model_label.text().endswith(BUNDLED_MODEL)
    assert window.backend.engine.runtime.embedder().runtime == "OnnxEmbedder"
    assert (tmp_path / "fresh" / "models" / ".onnx").is_dir()


def test_a_model_prepared_by_an_index_run_is_then_named_ready(make_window, qtbot):
    """An "auto" library moves to the multilingual model when its first Chinese document is indexed: the index run
    prepares that model after the warm-up said ready (the engine's progress, from the index thread). The status bar
    followed it step by step and then kept "step 7 of 7" for the rest of the session."""
    window = make_window(FAST.replace(ui_language="en"))
    qtbot.waitUntil(lambda: window.model_state[0] == "ready", timeout=60_000)
    report = window.backend.engine.on_model_progress
    assert report is not None

    def index_run() -> None:
        for step in range(7):
            report(DownloadProgress("bundled:e5", "converting", files_done=step, files_total=7))
        report(DownloadProgress("bundled:e5", "verifying", files_done=7, files_total=7))
        report(DownloadProgress("bundled:e5", "done", files_done=7, files_total=7))

    seen: list[str] = []
    window.backend.indexer.model_state.connect(lambda state, _message: seen.append(state))
    thread = threading.Thread(target=index_run)
    thread.start()
    thread.join()
    QApplication.processEvents()  # the steps the run queued for the window, in order
    assert seen.count("preparing") == 8, seen
    assert window.model_state[0] == "ready", window.model_state
    assert window.model_label.text().startswith("Model ready"), window.model_label.text()
