"""The common head of the side panels: a vertical layout opened by a bold, translated title."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from desktop_rag.gui import i18n


def titled_layout(panel: QWidget, title_key: str) -> QVBoxLayout:
    """Give `panel` a margin-less vertical layout whose first row is its title."""
    layout = QVBoxLayout(panel)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(6)
    title = QLabel(panel)
    title.setStyleSheet("font-weight: 600; font-size: 11pt; padding: 2px 4px;")
    i18n.bind(title, QLabel.setText, title_key)
    layout.addWidget(title)
    return layout
