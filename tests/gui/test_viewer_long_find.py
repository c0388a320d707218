"""Find in a document far larger than the window of it the viewer lays out (gui/text_window.py): the whole text is
searched on the locate thread (gui/text_find.py), a match outside the window moves the window to it, highlighted,
forwards and backwards round the document; typing on drops the search under way. A 5 MB text file, the passage in
its middle; real window, offscreen."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

LINES = 80_000  # about 5.4 MB
EARLY, PASSAGE, LATE = 2_000, 40_000, 78_000  # the lines holding the word sought (EARLY, LATE) and the passage


def _write(path: Path) -> tuple[str, Path]:
    lines = [f"line {n}: the harbour log records tides, winds and ships at anchor today." for n in range(LINES)]
    lines[EARLY] += " The Zephyrine sailed at dawn for İstanbul."
    lines[LATE] += " The ZEPHYRINE came back at dusk to the Straße."
    lines[PASSAGE] = f"line {PASSAGE}: the harbour master signed the passage cited here."
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lines[PASSAGE], path


def _find(qtbot, viewer, word: str, forward: int = 1) -> None:
    view = viewer.view
    view.find_edit.setText(word)
    view.set_find_result("…")
    (view.find_next_button if forward else view.find_prev_button).click()
    qtbot.waitUntil(lambda: view.find_label.text() != "…", timeout=60_000)


@pytest.fixture
def viewer(qtbot, tmp_path: Path):
    """A viewer controller of its own (no main window), shut down after the test."""
    from PySide6.QtWidgets import QWidget

    from desktop_rag.config import resolve_paths
    from desktop_rag.gui.controllers.viewer_controller import ViewerController
    from desktop_rag.gui.models.sources import SourcesModel
    from desktop_rag.gui.threads.app_settings import AppSettings
    from desktop_rag.gui.threads.backend import Backend
    from tests.gui.conftest import FAST

    host = QWidget()
    qtbot.addWidget(host)
    paths = resolve_paths(tmp_path / "home")
    backend = Backend(paths, AppSettings(paths, FAST, host), host)
    try:
        yield ViewerController(backend, SourcesModel(host), host)
    finally:
        backend.shutdown()


def _open(qtbot, viewer, path: Path, passage: str):
    """`passage` of the text file at `path` shown; its Location."""
    from desktop_rag.engine.store.values import Hit

    with qtbot.waitSignal(viewer.located, timeout=120_000) as got:
        viewer.open_passages(((1, Hit(1, 1.0, str(path), None, "", passage)),), 0)
    return got.args[0]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_find_reaches_the_whole_of_a_long_document(qtbot, tmp_path: Path, monkeypatch, language: str, viewer):
    from PySide6.QtCore import QTimer

    from desktop_rag.gui import i18n
    from desktop_rag.gui.controllers import viewer_find
    from desktop_rag.gui.text_window import MAX_CHARS

    i18n.set_language(language)
    passage, path = _write(tmp_path / "log.txt")
    scans: list[bool] = []  # whether the whole text was searched on the GUI thread
    real = viewer_find.find_text
    on_gui_thread = threading.main_thread
    monkeypatch.setattr(viewer_find, "find_text",
                        lambda *a, **k: scans.append(threading.current_thread() is on_gui_thread()) or real(*a, **k))
    location, view = _open(qtbot, viewer, path, passage), viewer.view
    pane, note = view.text_pane, view.window_note
    text = location.text
    early, late = text.index("Zephyrine"), text.index("ZEPHYRINE")
    assert location.found and len(text) > 5_000_000 and len(pane.document().toPlainText()) <= MAX_CHARS
    assert "zephyrine" not in pane.document().toPlainText().lower()  # both far outside the window shown
    assert note.isVisible() and ("Find searches" if language == "en" else "查找也会搜索") in note.text()

    _find(qtbot, viewer, "zephyrine")  # forwards from the passage: the late one, the window moved to it
    window = viewer.window_shown[0]
    assert view.find_label.text() == "" and window.holds(late, late + 9)
    assert not window.holds(location.start, location.end)
    assert pane.found_text() == "ZEPHYRINE" and pane.highlighted_text() == ""  # the passage is not in it
    assert note.isVisible() and f"{window.after:,}" in note.text()
    cursor = pane.textCursor()
    assert pane.viewport().rect().intersects(pane.cursorRect(cursor))  # scrolled to it

    _find(qtbot, viewer, "zephyrine")  # on: round the end to the early one
    assert viewer.window_shown[0].holds(early, early + 9) and pane.found_text() == "Zephyrine"
    _find(qtbot, viewer, "ZEPHYRINE", forward=0)  # backwards: round the start to the late one
    assert viewer.window_shown[0].holds(late, late + 9) and pane.found_text() == "ZEPHYRINE"
    _find(qtbot, viewer, "harbour master", forward=0)  # back to the passage's window: both highlighted
    assert pane.found_text() == "harbour master" and pane.highlighted_text() == passage
    _find(qtbot, viewer, "kraken")
    assert view.find_label.text() == ("Not found" if language == "en" else "未找到") and pane.found is None
    view.set_find_result("…")
    view.find_next_button.click()  # a search, and the query changed before it answers: it is dropped
    qtbot.keyClicks(view.find_edit, "s")
    qtbot.wait(500)
    assert view.find_label.text() == "…"
    assert scans and not any(scans)  # never on the GUI thread

    beats: list[float] = [time.perf_counter()]  # typing fast, a search asked for at every key
    heartbeat = QTimer(view)
    heartbeat.timeout.connect(lambda: beats.append(time.perf_counter()))
    heartbeat.start(5)
    view.find_edit.clear()
    for letter in "zephyrine":
        qtbot.keyClicks(view.find_edit, letter)
        view.find_next_button.click()
        qtbot.wait(1)
    qtbot.waitUntil(lambda: pane.found is not None, timeout=60_000)
    qtbot.wait(200)
    heartbeat.stop()
    stall = max(b - a for a, b in zip(beats, beats[1:]))
    print(f"\nfind while typing in a {len(text):,}-character text: the GUI thread's longest stall "
          f"{stall * 1000:.0f} ms")
    assert pane.found_text().lower() == "zephyrine" and view.find_label.text() == ""
    assert stall < 0.5, stall


@pytest.mark.parametrize("language", ["en", "zh"])
def test_back_to_the_passage_once_find_moved_away(qtbot, tmp_path: Path, language: str, viewer):
    """Find caseless as a person expects ("STRASSE" highlights exactly "Straße", "istanbul" "İstanbul"); once a match
    outside the passage is shown (another window, or further down the same one), Back to passage (its button, its
    shortcut) shows the passage again, highlighted, and the next search starts from it."""
    from PySide6.QtCore import Qt

    from desktop_rag.gui import i18n

    i18n.set_language(language)
    passage, path = _write(tmp_path / "log.txt")
    location, view = _open(qtbot, viewer, path, passage), viewer.view
    pane, back, text = view.text_pane, view.back_button, location.text
    assert back.text() == ("Back to passage" if language == "en" else "回到引用段落")
    assert "Alt+Left" in back.toolTip() and not back.isEnabled()

    def at_the_passage() -> bool:
        cursor = pane.textCursor()
        return (viewer.window_shown[0].holds(location.start, location.end) and pane.highlighted_text() == passage
                and pane.found is None and cursor.position() == pane.passage[0]
                and pane.viewport().rect().intersects(pane.cursorRect(cursor)) and not back.isEnabled())

    _find(qtbot, viewer, "HARBOUR master")  # in the passage: the view has not moved away
    assert pane.found_text() == "harbour master" and not back.isEnabled()
    _find(qtbot, viewer, "tides")  # the next line: the same window, scrolled to it
    assert pane.found_text() == "tides" and pane.highlighted_text() == passage and back.isEnabled()
    back.click()
    assert at_the_passage()

    _find(qtbot, viewer, "STRASSE")  # far away: another window laid out, the highlight exactly "Straße"
    late = text.index("Straße")
    assert pane.found_text() == "Straße" and viewer.window_shown[0].holds(late, late + 6)
    assert pane.highlighted_text() == "" and back.isEnabled()
    view.find_edit.setText("")
    back.click()
    assert at_the_passage() and view.find_label.text() == ""
    _find(qtbot, viewer, "zephyrine")  # from the passage again (from "Straße" it would round to the early one)
    assert pane.found_text() == "ZEPHYRINE" and back.isEnabled()

    _find(qtbot, viewer, "istanbul")  # on, round the end: the early one
    early = text.index("İstanbul")
    assert pane.found_text() == "İstanbul" and viewer.window_shown[0].holds(early, early + 8)
    view.activateWindow()
    qtbot.keyClick(view.find_edit, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)  # the shortcut
    assert at_the_passage()
    qtbot.keyClick(view.find_edit, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)  # nowhere to go: nothing
    assert at_the_passage()
