"""The chat's document scope ("Ask this document"): which file a question is asked in, removable."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from desktop_rag.gui import i18n
from desktop_rag.gui.views.panel import plain_label

_MAX_NAME = 80  # characters of a file name shown (no tooltip: Qt may read one as rich text)


def shown_name(path: str) -> str:
    """A file's name as one line of plain text: control characters visible, a long name cut in the middle."""
    flat = "".join(ch if ch.isprintable() else "\ufffd" for ch in os.path.basename(path) or path)
    return flat if len(flat) <= _MAX_NAME else flat[:30] + "…" + flat[-(_MAX_NAME - 31):]


class FileScopeBar(QWidget):
    """"Asking in: report.pdf  ×" above the question box while a question is limited to one document; hidden
    otherwise. `cleared` when the user removes the scope."""

    cleared = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fileScope")
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 0, 4, 0)
        self.label: QLabel = plain_label(self)  # a file name: always literal text
        self.label.setStyleSheet("background: #e8f0fe; color: #174ea6; border-radius: 4px; padding: 2px 6px;")
        row.addWidget(self.label)
        self.clear_button = QPushButton("×", self)
        self.clear_button.setFlat(True)
        self.clear_button.setFixedWidth(28)
        self.clear_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.clear_button.clicked.connect(self.cleared.emit)
        row.addWidget(self.clear_button)
        row.addStretch(1)
        self.path: str | None = None
        i18n.on_change(self._show)
        self._show()

    def set_path(self, path: str | None) -> None:
        """Ask in the file at `path` (None: the whole library, as the filters say)."""
        self.path = path or None
        self._show()

    def _show(self) -> None:
        self.label.setText(i18n.tr("scope.asking_in", name=shown_name(self.path)) if self.path else "")
        self.clear_button.setToolTip(i18n.tr("scope.clear_tip"))
        self.setVisible(self.path is not None)
