"""Export from the collections menu suggests a file named after the collection in the folder the dialog opens: a
"/" or "\\" (or another character a file name cannot hold on Windows) in the name becomes "_", so "2024/25 budget"
is suggested as "2024_25 budget.zip", not as "25 budget.zip" inside a folder "2024"."""

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
