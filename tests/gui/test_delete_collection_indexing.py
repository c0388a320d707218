"""Deleting a collection while a folder is being indexed into it: the run stops and the collection goes at once.
It waited for the whole run (every file read and embedded, then thrown away): with a large folder added by mistake,
Delete seemed to do nothing for as long as the indexing took."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from tests.gui.conftest import wait_idle, write_docs


def test_a_collection_deleted_mid_run_stops_the_run(make_window, qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    write_docs(tmp_path / "big", count=250, words=200)
    write_docs(tmp_path / "kept", count=1)
    window = make_window()
    wait_idle(qtbot, window)
    engine = window.backend.engine
    window.add_paths([str(tmp_path / "kept")])  # into "Default": not touched
    wait_idle(qtbot, window)
    scratch = engine.create_collection("Scratch")
    window.collections.refresh()
    qtbot.waitUntil(lambda: any(c.id == scratch for c in window.collections.listing), timeout=10_000)
    window.collections.select(scratch)
    seen: list[str] = []
    window.backend.indexer.file_event.connect(lambda e: seen.append(e.state))
    window.add_paths([str(tmp_path / "big")])
    qtbot.waitUntil(lambda: seen.count("indexed") >= 10, timeout=30_000)
    window.collection_bar.actions["delete"].trigger()
    assert seen.count("indexed") < 250, "the run finished before the delete; make the folder bigger"
    qtbot.waitUntil(lambda: all(c.id != scratch for c in engine.collections()), timeout=30_000)
    assert seen.count("indexed") < 250  # stopped: not every file read and embedded first
    wait_idle(qtbot, window)
    assert [s.path for s in engine.sources()] == [str(tmp_path / "kept")]
