"""Switching the embedding model from Settings: the cost is explained first, then it re-embeds in the
background (in slices) while search keeps answering, and the status bar says how far it is."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from tests.gui.conftest import FAST, add_and_wait, wait_idle, write_docs

# Hashing embedders of two dimensions: the test is about the switch, not about semantics.


def test_model_switch_is_explained_then_runs_in_the_background(make_window, qtbot, tmp_path, monkeypatch):
    write_docs(tmp_path / "docs", count=40)
    window = make_window(FAST)
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    chunks = window.last_status.chunks
    asked: list[str] = []

    def answer_yes(_parent, _title, text, *args, **kwargs):
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer_yes)
    slices: list[int] = []
    window.index_finished.connect(lambda report: slices.append(report.reembed_remaining))
    monkeypatch.setattr("desktop_rag.gui.threads.index_worker.REEMBED_SLICE_S", 0.0)  # one batch per slice: several slices
    window.settings_flow.apply(window.settings.replace(embedding_model="hash:48"))
    qtbot.waitUntil(lambda: bool(asked), timeout=30_000)
    assert "hash:48" in asked[0] and f"{chunks} passages" in asked[0] and "background" in asked[0]

    qtbot.waitUntil(lambda: window.last_status is not None and window.last_status.embedding_model == "hash:48",
                    timeout=120_000)
    wait_idle(qtbot, window)
    assert len(slices) >= 2 and slices[-1] == 0 and any(slices[:-1]), slices  # sliced, then complete
    assert window.last_status.dimension == 48 and window.last_status.reembed_model == ""
    assert window.backend.engine.search("topic3 fact2", 1)[0].path.endswith("doc003.md")


def test_declining_keeps_the_current_model(make_window, qtbot, tmp_path, monkeypatch):
    write_docs(tmp_path / "docs", count=5)
    window = make_window(FAST)
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.No)
    window.settings_flow.apply(window.settings.replace(embedding_model="hash:48"))
    qtbot.waitUntil(lambda: bool(asked), timeout=30_000)
    wait_idle(qtbot, window)
    assert window.settings.embedding_model == FAST.embedding_model
    assert window.last_status.embedding_model == FAST.embedding_model and window.last_status.reembed_model == ""
