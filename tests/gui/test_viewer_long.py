"""A passage of a sheet near the reader's cell cap (990,000 cells, 17 M characters of tables) opens with only a
window around it laid out and drawn (gui/text_window.py), a line under the text saying how many lines are left
out (English and Chinese). Measured before: its grids took 22 s and 680 MB on the locate thread, and the text pane
laid out 15 M characters on the GUI thread."""

from __future__ import annotations

import csv
import time
from pathlib import Path

import pytest

ROWS, COLUMNS = 99_000, 10


def _write_sheet(path: Path) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow([f"列{c}" for c in range(COLUMNS)])
        writer.writerows([f"r{r}c{c} 值{r % 97}" for c in range(COLUMNS)] for r in range(ROWS))
    return path


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_huge_sheet_opens_with_a_window_around_the_passage(qtbot, tmp_path: Path, language: str):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QWidget

    from desktop_rag.config import resolve_paths
    from desktop_rag.engine.store.values import Hit
    from desktop_rag.gui import i18n
    from desktop_rag.gui.controllers.viewer_controller import ViewerController
    from desktop_rag.gui.models.sources import SourcesModel
    from desktop_rag.gui.text_window import MAX_CHARS
    from desktop_rag.gui.threads.app_settings import AppSettings
    from desktop_rag.gui.threads.backend import Backend
    from tests.gui.conftest import FAST

    i18n.set_language(language)
    path = _write_sheet(tmp_path / "big.csv")
    cell = f"r60000c3 值{60000 % 97}"
    host = QWidget()
    qtbot.addWidget(host)
    paths = resolve_paths(tmp_path / "home")
    backend = Backend(paths, AppSettings(paths, FAST, host), host)
    viewer = ViewerController(backend, SourcesModel(host), host)
    beats: list[float] = [time.perf_counter()]
    heartbeat = QTimer(host)
    heartbeat.timeout.connect(lambda: beats.append(time.perf_counter()))
    heartbeat.start(10)
    try:
        started = time.perf_counter()
        with qtbot.waitSignal(viewer.located, timeout=120_000) as got:
            viewer.open_passages(((1, Hit(1, 1.0, str(path), None, "", cell)),), 0)
        opened = time.perf_counter() - started
        qtbot.wait(300)  # drawn
        heartbeat.stop()
        location, pane = got.args[0], viewer.view.text_pane
        shown = pane.document().toPlainText()
        stall = max(b - a for a, b in zip(beats, beats[1:]))
        print(f"\nhuge sheet: {len(location.text):,} characters read, {len(shown):,} laid out; opened in "
              f"{opened:.1f} s, the GUI thread's longest stall {stall * 1000:.0f} ms")
        assert location.found and len(location.text) > 15_000_000
        assert len(shown) < 2 * MAX_CHARS  # the window's grids, not the sheet's 15 M characters
        assert pane.highlighted_text() == cell and "列3" in shown  # the passage lit; its row group's header drawn
        note = viewer.view.window_note
        assert note.isVisible() and ("lines" if language == "en" else "行") in note.text()
        assert stall < 1.0
        i18n.set_language("zh" if language == "en" else "en")  # the note follows the language
        assert ("行" if language == "en" else "lines") in note.text()
    finally:
        backend.shutdown()

