"""Export from the collections menu: the file suggested is named after the collection in the folder the dialog
opens (a "/" or "\\", or another character a file name cannot hold on Windows, becomes "_": "2024/25 budget" is
suggested as "2024_25 budget.zip", not as "25 budget.zip" inside a folder "2024"); the documents an export with
documents leaves out are named."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog

from desktop_rag.engine import Collection
from desktop_rag.gui.views.collection_bar import CollectionBar


@pytest.mark.parametrize("name, suggested", [
    ("2024/25 budget", "2024_25 budget.zip"), ("a\\b", "a_b.zip"), ('Q1: "plans" <draft>?', "Q1_ _plans_ _draft__.zip"),
    ("研究 📚 notes", "研究 📚 notes.zip")])
def test_the_suggested_archive_name_is_one_file_name(qtbot, monkeypatch, name: str, suggested: str):
    bar = CollectionBar()
    qtbot.addWidget(bar)
    bar.show_listing((Collection(2, name, 1, 1, 1),), 2)
    offered: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda _parent, _title, path, _filter: (offered.append(path), ("", ""))[1]))
    bar.actions["export"].trigger()
    assert offered == [suggested]


def test_an_export_with_documents_names_the_ones_left_out(make_window, qtbot, tmp_path, monkeypatch):
    """Export with documents of a collection where one file changed since it was indexed: the window's message
    says that document was not included and names it (in a warning), as `desktop-rag export` does. It said only
    "Exported “Default” to …", and on the second computer that document was not there."""
    from PySide6.QtWidgets import QMessageBox

    from desktop_rag.gui import i18n
    from tests.gui.conftest import add_and_wait

    i18n.set_language("en")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "kept.txt").write_text("Green tea\n\nBrew green tea at 80 degrees.", "utf-8")
    (docs / "edited.txt").write_text("Coffee\n\nBrew coffee at 93 degrees.", "utf-8")
    window = make_window()
    add_and_wait(qtbot, window, [str(docs)])
    window.backend.watcher.stop()  # the edit below must not be indexed again
    (docs / "edited.txt").write_text("Coffee\n\nNow brewed cold, overnight.", "utf-8")
    bar = window.collection_bar
    window.collections.select(window.backend.engine.collection_id("Default"))
    qtbot.waitUntil(lambda: bar.actions["export_docs"].isEnabled(), timeout=10_000)
    archive = tmp_path / "default.zip"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(archive), "")))
    shown: list[tuple] = []
    monkeypatch.setattr("desktop_rag.gui.views.collection_bar.show_plain",
                        lambda _parent, icon, _title, message: shown.append((icon, message)))
    with qtbot.waitSignal(window.collections.exported, timeout=20_000) as exported:
        bar.actions["export_docs"].trigger()
    icon, message = shown[-1]
    assert message.startswith(f"Exported “Default” to {archive}.")
    assert "1 document was not included" in message and str(docs / "edited.txt") in message
    assert icon == QMessageBox.Icon.Warning
    i18n.set_language("zh")
    try:
        bar.show_exported(exported.args[0])
    finally:
        i18n.set_language("en")
    assert "有 1 个文档未包含" in shown[-1][1] and str(docs / "edited.txt") in shown[-1][1]
