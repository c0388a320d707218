"""Issue 39's texts: every grading / Review key has Chinese, and the Review view in Chinese shows no English."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QAbstractButton, QLabel, QListWidget, QTableWidget

from desktop_rag.gui import i18n

PREFIXES = ("grade.", "review.", "conv.keep", "conv.forget", "menu.review", "sources.mark_", "settings.feedback",
            "settings.forget_grades", "settings.grades_")
ALLOWED = {"recall", "precision", "nDCG", "N", "P", "Esc", "JSON", "Lines", "Desktop", "RAG"}  # names, keys, metrics
HAN = re.compile(r"[\u4e00-\u9fff]")


def _keys() -> list[str]:
    return [k for k in i18n._TEXT if k.startswith(PREFIXES)]


def english_words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]+", text)) - ALLOWED


def test_every_grading_key_has_chinese():
    keys = _keys()
    assert len(keys) > 50
    for key in keys:
        en, zh = i18n._TEXT[key]
        assert HAN.search(zh), f"{key}: no Chinese in {zh!r}"
        assert not english_words(re.sub(r"{\w+}", "", zh)), f"{key}: English words in the Chinese text {zh!r}"
        assert sorted(re.findall(r"{(\w+)[:}]", en)) == sorted(re.findall(r"{(\w+)[:}]", zh)), key


def visible_texts(root) -> list[str]:
    """Every text the user can read in `root`: labels, buttons, tab titles, table headers and cells, list rows."""
    texts = [root.windowTitle()]
    for label in root.findChildren(QLabel):
        texts.append(label.text())
    for button in root.findChildren(QAbstractButton):
        texts += [button.text(), button.toolTip()]
    for table in root.findChildren(QTableWidget):
        for c in range(table.columnCount()):
            header = table.horizontalHeaderItem(c)
            texts.append(header.text() if header else "")
        texts += [table.item(r, c).text() for r in range(table.rowCount()) for c in range(table.columnCount())
                  if table.item(r, c)]
    for listing in root.findChildren(QListWidget):
        texts += [listing.item(r).text() for r in range(listing.count())]
    tabs = getattr(root, "tabs", None)
    if tabs is not None:
        texts += [tabs.tabText(i) for i in range(tabs.count())]
    return [t for t in texts if t]
