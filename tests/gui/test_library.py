"""Library panel: add a folder, per-file states and chunk counts, failed reasons, drops, re-index, remove."""

from __future__ import annotations

import sys

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QMessageBox

from desktop_rag.gui.models.library import COL_CHUNKS, COL_NAME, COL_STATE, ErrorRole, StateRole
from tests.gui.conftest import add_and_wait, wait_idle, write_docs


def _file_index(window, path):
    index = window.library_model.index_of(str(path))
    assert index.isValid(), path
    return index


def test_window_opens_fast_without_heavy_imports(make_window, qtbot):
    had_torch = "torch" in sys.modules
    window = make_window()
    assert window.isVisible()
    if not had_torch:
        assert "torch" not in sys.modules, "torch imported on the GUI thread at start-up"
    qtbot.waitUntil(lambda: window.model_state[0] == "ready", timeout=30_000)
    assert "hash:64" in window.model_label.text()
    wait_idle(qtbot, window)


def test_add_folder_indexes_and_shows_states(make_window, qtbot, tmp_path):
    docs = write_docs(tmp_path / "docs", count=4)
    (tmp_path / "docs" / "empty.txt").write_text("", encoding="utf-8")
    (tmp_path / "docs" / "broken.docx").write_bytes(b"this is not a zip file")
    window = make_window()
    report = add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    assert report.added == 4 and len(report.failed) == 2

    model = window.library_model
    assert model.rowCount() == 1
    ok = _file_index(window, docs[0])
    assert ok.siblingAtColumn(COL_STATE).data() == "indexed"
    assert int(ok.siblingAtColumn(COL_CHUNKS).data()) >= 1
    assert model.totals() == {"sources": 1, "files": 6, "chunks": model.totals()["chunks"], "failed": 2}

    status = window.last_status
    assert (status.files_indexed, status.files_failed, status.files_pending) == (4, 2, 0)
    assert "4" in window.index_label.text() and "2" in window.index_label.text()

    bad = _file_index(window, tmp_path / "docs" / "broken.docx")
    assert bad.siblingAtColumn(COL_NAME).data(StateRole) == "failed"
    reason = bad.siblingAtColumn(COL_NAME).data(ErrorRole)
    assert reason
    assert reason in bad.siblingAtColumn(COL_STATE).data(Qt.ItemDataRole.ToolTipRole)
    window.library_panel.tree.setCurrentIndex(bad)
    assert window.library_panel.detail.isVisibleTo(window) and reason in window.library_panel.detail.text()


def test_drop_unsupported_file_says_so_and_indexes_supported(make_window, qtbot, tmp_path):
    good = write_docs(tmp_path / "in", count=1)[0]
    image = tmp_path / "in" / "photo.png"
    image.write_bytes(b"\x89PNG")
    window = make_window()
    wait_idle(qtbot, window)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(good)), QUrl.fromLocalFile(str(image))])
    event = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.index_finished, timeout=30_000, check_params_cb=lambda r: r.added == 1):
        window.dropEvent(event)
    banner = window.library_panel.banner
    assert banner.isVisibleTo(window) and "photo.png" in banner.text()
    wait_idle(qtbot, window)
    assert _file_index(window, good).siblingAtColumn(COL_STATE).data() == "indexed"


def test_reindex_file_and_remove_source(make_window, qtbot, tmp_path, monkeypatch):
    docs = write_docs(tmp_path / "docs", count=2)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    seen = []
    window.backend.indexer.file_event.connect(lambda e: seen.append((e.path, e.state)))
    window.library_panel.tree.setCurrentIndex(_file_index(window, docs[1]))
    with qtbot.waitSignal(window.index_finished, timeout=30_000, check_params_cb=lambda r: r.updated == 1):
        window.library_panel.reindex_button.click()
    assert (str(docs[1]), "indexing") in seen

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.library_panel.tree.setCurrentIndex(window.library_model.index(0, 0))
    window.library_panel.remove_button.click()
    qtbot.waitUntil(lambda: window.library_model.rowCount() == 0, timeout=30_000)
    wait_idle(qtbot, window)
    assert window.last_status.files_total == 0 and window.last_status.chunks == 0


def test_pause_then_resume_continues(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "many", count=150)
    window = make_window()
    wait_idle(qtbot, window)
    with qtbot.waitSignal(window.index_finished, timeout=60_000, check_params_cb=lambda r: r.cancelled):
        window.add_paths([str(tmp_path / "many")])
        qtbot.waitUntil(lambda: window.library_panel.pause_button.isVisible(), timeout=30_000)
        window.library_panel.pause_button.click()
    assert window.library_panel.resume_button.isVisibleTo(window)
    with qtbot.waitSignal(window.index_finished, timeout=60_000, check_params_cb=lambda r: not r.cancelled):
        window.library_panel.resume_button.click()
    wait_idle(qtbot, window)
    assert window.last_status.files_indexed == 150 and window.last_status.chunks_pending_embedding == 0
