"""Removing a folder updates what the window shows: the last run's "Done: …" under the library gives way to what
the removal did, and the sources panel marks the passages of files no longer in the library (read off the GUI
thread), in either language."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop_rag.gui import i18n
from desktop_rag.gui.models.sources import COL_FILE
from tests.gui.conftest import add_and_wait, wait_idle, write_docs


def _files_shown(window) -> list[tuple[str, str]]:
    model = window.sources_model
    return [(model.hit(row).path, model.index(row, COL_FILE).data()) for row in range(model.rowCount())]


def test_removing_a_folder_updates_the_summary_and_the_sources(make_window, qtbot, tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    write_docs(first, count=2)
    write_docs(second, count=2)
    window = make_window()
    add_and_wait(qtbot, window, [str(first), str(second)])
    assert window.library_panel.progress_label.text().startswith("Done:")
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000):
        window.chat_panel.input.setPlainText("What does topic0 say about alpha?")
        window.chat_panel.send_button.click()
    paths = {path for path, _ in _files_shown(window)}
    assert any(p.startswith(str(first)) for p in paths) and any(p.startswith(str(second)) for p in paths)

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.confirm_remove(str(first))
    qtbot.waitUntil(lambda: "first" in window.library_panel.progress_label.text(), timeout=30_000)
    assert window.library_panel.progress_label.text() == f"Removed from the library: {first}"
    qtbot.waitUntil(lambda: any("removed" in shown for _, shown in _files_shown(window)), timeout=30_000)
    for path, shown in _files_shown(window):
        name = path.rsplit("/", 1)[-1]
        assert shown == (f"{name} (removed)" if path.startswith(str(first)) else name)
    gone = next(row for row, (path, _) in enumerate(_files_shown(window)) if path.startswith(str(first)))
    assert "no longer in the library" in window.sources_model.index(gone, COL_FILE).data(Qt.ItemDataRole.ToolTipRole)
    assert window.sources_model.index(gone, COL_FILE).data(Qt.ItemDataRole.ForegroundRole) is not None

    i18n.set_language("zh")
    assert window.library_panel.progress_label.text() == f"已从资料库中移除：{first}"
    assert window.sources_model.index(gone, COL_FILE).data().endswith("（已移除）")
    i18n.set_language("en")
    wait_idle(qtbot, window)


def test_a_removal_committed_during_the_check_shows_removed_not_changed(make_window, qtbot, tmp_path):
    """The check reads the passages and their files one after the other on the reader thread while the index worker
    may remove a folder: a removal landing between the two reads must not show its passages as "(changed)"."""
    first, second = tmp_path / "first", tmp_path / "second"
    write_docs(first, count=2)
    write_docs(second, count=2)
    window = make_window()
    add_and_wait(qtbot, window, [str(first), str(second)])
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000):
        window.chat_panel.input.setPlainText("What does topic0 say about alpha?")
        window.chat_panel.send_button.click()
    assert any(path.startswith(str(first)) for path, _ in _files_shown(window))
    engine, checked = window.backend.engine, []
    real_held, real_file = engine.held_passages, engine.indexed_file

    def removed_midway() -> None:  # the removal commits between the check's two reads, whichever comes first
        if not checked:
            checked.append(True)
            assert engine.remove_source(first)

    def held_passages(hits):
        held = real_held(hits)
        removed_midway()
        return held

    def indexed_file(path):
        found = real_file(path)
        if path.startswith(str(first)):  # found while it was there, gone the next instant
            removed_midway()
        return found

    engine.held_passages, engine.indexed_file = held_passages, indexed_file
    try:
        window.chat.sources.check()
        qtbot.waitUntil(lambda: bool(checked), timeout=10_000)
        wait_idle(qtbot, window)
        window.backend.run(lambda: None, lambda _: checked.append("read"))  # the check's answer has been shown
        qtbot.waitUntil(lambda: "read" in checked, timeout=10_000)
    finally:
        engine.held_passages, engine.indexed_file = real_held, real_file
    assert not any(shown.endswith("(changed)") for _, shown in _files_shown(window)), _files_shown(window)
