"""The interface's texts: every area's table (gui/i18n_tables/) says each of its keys in both languages, no key is in
two tables, and the collection bar's and the viewer's texts follow a language switch."""

from __future__ import annotations

from desktop_rag.gui import i18n
from desktop_rag.gui.i18n_tables import TABLES
from desktop_rag.gui.views.viewer.window import ViewerWindow
from tests.gui.conftest import FAST, wait_idle


def test_every_key_is_in_one_table_with_both_languages():
    assert sum(len(table) for table in TABLES) == len(i18n._TEXT)  # no key in two tables: the one lookup has them all
    missing = [key for key, texts in i18n._TEXT.items()
               if len(texts) != 2 or not all(isinstance(t, str) and t.strip() for t in texts)]
    assert missing == []


def test_collection_bar_and_asking_in_follow_the_language(make_window, qtbot):
    window = make_window(FAST.replace(ui_language="en"))
    bar = window.collection_bar
    qtbot.waitUntil(lambda: bar.combo.count() == 2, timeout=10_000)  # "All collections", "Default"
    assert bar.combo.itemText(0) == "All collections" and bar.actions["new"].text() == "New collection…"
    i18n.set_language("zh")
    assert bar.combo.itemText(0) == "全部知识库" and bar.combo.itemText(1) == "默认知识库"
    assert bar.actions["new"].text() == "新建知识库…" and bar.actions["export_docs"].text() == "连同文档导出…"
    assert bar.menu_button.toolTip() == "知识库"
    assert window.asking_in.text() == "提问范围：全部知识库"
    i18n.set_language("en")
    assert bar.combo.itemText(0) == "All collections" and window.asking_in.text() == "Asking in: All collections"
    wait_idle(qtbot, window)


def test_viewer_texts_come_from_the_one_table_and_follow_the_language(qtbot):
    viewer = ViewerWindow()
    qtbot.addWidget(viewer)
    assert viewer.next_button.text() == i18n.tr("viewer.next_passage") == "Next passage ▶"
    i18n.set_language("zh")
    assert viewer.next_button.text() == "下一段 ▶" and viewer.find_edit.placeholderText() == "在文档中查找…"
    i18n.set_language("en")
    assert viewer.next_button.text() == "Next passage ▶"
