"""The texts a window shows: every one a person can read in a widget, and what none of them may name (a command or
a flag: the window names what to click)."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QAbstractButton, QLabel, QListWidget, QTableWidget

COMMAND = re.compile(r"desktop-rag |(?<![\w-])--[a-z]|`")  # a command, a flag, a quoted command line


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
