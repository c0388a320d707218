"""The first collection, stored as "Default", is shown in the interface's language (默认知识库) in the selector, the
chat header, the rename box and the delete question; its stored name never changes. Real MainWindow and engine,
offscreen; only the modal dialogs are answered by monkeypatching their static functions."""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QMessageBox

from desktop_rag.gui import i18n


def _default_id(window) -> int:
    return next(c.id for c in window.collections.listing if c.name == "Default")


def test_default_is_shown_in_chinese_and_stored_as_default(make_window, qtbot, monkeypatch):
    window = make_window()
    bar, controller = window.collection_bar, window.collections
    qtbot.waitUntil(lambda: bar.combo.count() == 2, timeout=10_000)
    assert bar.combo.itemText(1) == "Default"
    controller.select(_default_id(window))
    i18n.set_language("zh")
    assert bar.combo.itemText(1) == "默认知识库"
    assert window.asking_in.text().endswith("默认知识库")
    asked: list[str] = []

    def keep_prefilled(*args, **kwargs):
        asked.append(kwargs["text"])
        return kwargs["text"], True  # OK on the name as shown

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(keep_prefilled))
    renamed: list = []
    bar.rename_requested.connect(lambda *a: renamed.append(a))
    bar.actions["rename"].trigger()
    assert asked == ["默认知识库"] and renamed == []  # the stored name stays "Default"
    questions: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda parent, title, text_: questions.append(text_) or QMessageBox.StandardButton.No))
    bar.actions["delete"].trigger()
    assert questions and "默认知识库" in questions[0]
    assert [c.name for c in window.backend.engine.collections()] == ["Default"]
    i18n.set_language("en")
    assert bar.combo.itemText(1) == "Default"


def test_a_collection_stored_as_the_chinese_name_keeps_default_apart(make_window, qtbot):
    """A user's own "Default" is the same collection to the engine (one name, unique): it is shown translated too;
    but when another collection is stored as 默认知识库, "Default" shows as stored, so no two read alike."""
    window = make_window()
    bar = window.collection_bar
    window.backend.engine.create_collection("默认知识库")
    window.collections.refresh()
    qtbot.waitUntil(lambda: bar.combo.count() == 3, timeout=10_000)
    i18n.set_language("zh")
    assert [bar.combo.itemText(i) for i in (1, 2)] == ["Default", "默认知识库"]
    assert i18n.collection_name("Default") == "默认知识库"
    assert i18n.collection_name("default") == "default"  # only the name the engine gives its first collection
