"""What a QTextDocument shows marked: the text of every run that has a background colour."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument


def highlighted_runs(document: QTextDocument) -> list[str]:
    """The marked runs in document order (adjacent runs with the same format come as one)."""
    out = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.isValid() and fragment.charFormat().background().style() != Qt.BrushStyle.NoBrush:
                out.append(fragment.text())
            it += 1
        block = block.next()
    return out
