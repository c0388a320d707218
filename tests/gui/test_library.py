"""Library panel: add a folder, per-file states and chunk counts, failed reasons, drops, re-index, remove."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QMessageBox

from desktop_rag.gui import i18n
from desktop_rag.gui.models.library import COL_CHUNKS, COL_NAME, COL_STATE, ErrorRole, ExpandedRole, StateRole
from tests.support import REPO
from tests.gui.conftest import add_and_wait, wait_idle, write_docs


def _file_index(window, path):
    index = window.library_model.index_of(str(path))
    assert index.isValid(), path
    return index


# A fresh interpreter: in a full run an earlier test has loaded torch into the test process already.
_START_PROBE = """
import json, sys, time
from desktop_rag.config import Settings, resolve_paths
from desktop_rag.gui.app import create_application
from desktop_rag.gui.main_window import MainWindow
app = create_application()
window = MainWindow(resolve_paths(sys.argv[1]), Settings(embedding_model="hash:64"))
window.show()
app.processEvents()
shown = {"visible": window.isVisible(), "torch": "torch" in sys.modules,
         "sentence_transformers": "sentence_transformers" in sys.modules}
deadline = time.monotonic() + 60
while window.model_state[0] != "ready" and time.monotonic() < deadline:
    app.processEvents()
    time.sleep(0.01)
ready = {"state": window.model_state[0], "label": window.model_label.text(), "torch": "torch" in sys.modules}
window.close()
print(json.dumps({"shown": shown, "ready": ready}))
"""


def test_window_opens_fast_without_heavy_imports(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run([sys.executable, "-c", _START_PROBE, str(tmp_path / "home")], env=env, cwd=REPO,
                         capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-2000:]
    probe = json.loads(run.stdout.strip().splitlines()[-1])
    assert probe["shown"] == {"visible": True, "torch": False, "sentence_transformers": False}, \
        "torch imported on the GUI thread at start-up"
    assert probe["ready"]["state"] == "ready" and "hash:64" in probe["ready"]["label"]
    assert not probe["ready"]["torch"], "the hashing embedder must not need torch"


def test_add_folder_indexes_and_shows_states(make_window, qtbot, tmp_path):
    docs = write_docs(tmp_path / "docs", count=4, words=400)  # several chunks each
    (tmp_path / "docs" / "empty.txt").write_text("", encoding="utf-8")
    (tmp_path / "docs" / "broken.docx").write_bytes(b"this is not a zip file")
    window = make_window()
    report = add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    assert report.added == 4 and len(report.failed) == 2

    model = window.library_model
    assert model.source_paths() == [(str(tmp_path / "docs"), "folder")]
    assert model.rowCount() == 1 + 6  # the source's row, then its files (a new source opens expanded)
    source = model.index(0, COL_NAME)
    assert source.data(ExpandedRole) is True and source.data(Qt.ItemDataRole.FontRole).bold()
    assert not source.data(Qt.ItemDataRole.DecorationRole).isNull()  # the folder icon
    ok = _file_index(window, docs[0])
    assert ok.siblingAtColumn(COL_STATE).data() == "indexed"
    assert int(ok.siblingAtColumn(COL_CHUNKS).data()) >= 1

    status = window.last_status
    per_file = sum(int(_file_index(window, d).siblingAtColumn(COL_CHUNKS).data()) for d in docs)
    assert status.chunks == report.chunks == per_file > len(docs)  # the library panel shows the store's counts
    assert model.totals() == {"sources": 1, "files": 6, "chunks": status.chunks, "failed": 2}
    totals = window.library_panel.totals
    assert totals.text() == f"1 source · 6 files · {status.chunks} chunks · 2 failed"  # one source, not "1 sources"
    i18n.set_language("zh")
    assert totals.text() == f"1 个来源 · 6 个文件 · {status.chunks} 个片段 · 2 个失败"
    i18n.set_language("en")
    assert (status.files_indexed, status.files_failed, status.files_pending) == (4, 2, 0)
    assert "4" in window.index_label.text() and "2" in window.index_label.text()

    bad = _file_index(window, tmp_path / "docs" / "broken.docx")
    assert bad.siblingAtColumn(COL_NAME).data(StateRole) == "failed"
    reason = bad.siblingAtColumn(COL_NAME).data(ErrorRole)
    assert reason
    assert str(reason) in bad.siblingAtColumn(COL_STATE).data(Qt.ItemDataRole.ToolTipRole)
    window.library_panel.tree.setCurrentIndex(bad)
    assert window.library_panel.detail.isVisibleTo(window) and str(reason) in window.library_panel.detail.text()


def test_drop_unsupported_file_says_so_and_indexes_supported(make_window, qtbot, tmp_path):
    good = write_docs(tmp_path / "in", count=1)[0]
    image = tmp_path / "in" / "slides.key"  # a type no loader reads (images are documents since issue 11)
    image.write_bytes(b"PK\x03\x04")
    window = make_window()
    wait_idle(qtbot, window)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(good)), QUrl.fromLocalFile(str(image))])
    event = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.index_finished, timeout=30_000, check_params_cb=lambda r: r.added == 1):
        window.dropEvent(event)
    banner = window.library_panel.banner
    assert banner.isVisibleTo(window) and "slides.key" in banner.text()
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



def test_an_indexed_pdf_with_pages_left_out_says_so(make_window, qtbot, tmp_path):
    """A PDF whose second page has a text layer no font maps to Unicode, OCR off: indexed, with the note."""
    import io

    from pypdf import PdfReader, PdfWriter

    from tests.gui.conftest import FAST
    from tests.support import pdf_build

    lines = ["The lighthouse keeper recorded the storm at four in the morning."]
    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(pdf_build.standard_pdf([lines]))))
    writer.append(PdfReader(io.BytesIO(pdf_build.embedded_pdf([lines], pdf_build.DEJAVU, to_unicode=False))))
    (tmp_path / "docs").mkdir()
    writer.write(tmp_path / "docs" / "mixed.pdf")
    window = make_window(FAST.replace(ocr_enabled=False))
    report = add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    assert report.added == 1 and not report.failed
    row = _file_index(window, tmp_path / "docs" / "mixed.pdf")
    assert row.siblingAtColumn(COL_NAME).data(StateRole) == "indexed"
    note = "1 page(s) with an unreadable text layer were left out"
    assert note in row.siblingAtColumn(COL_STATE).data(Qt.ItemDataRole.ToolTipRole)
    assert "Failed" not in row.siblingAtColumn(COL_STATE).data(Qt.ItemDataRole.ToolTipRole)
    window.library_panel.tree.setCurrentIndex(row)
    assert window.library_panel.detail.isVisibleTo(window) and note in window.library_panel.detail.text()
