"""The start screen for an empty library (drop zone, Add folder…, samples); views/first_run_flow.py drives it."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop_rag.gui import i18n

_START_STYLE = """
QFrame#startCard { background: #ffffff; border: 1px solid #e0e3e7; border-radius: 12px; }
QLabel#startTitle { font-size: 17pt; font-weight: 600; color: #202124; }
QLabel#startText { color: #5f6368; }
QFrame#dropZone { background: #f6f9fe; border: 2px dashed #a8c4f5; border-radius: 10px; }
QLabel#dropTitle { font-size: 12pt; font-weight: 600; color: #1a56c4; }
QLabel#dropTypes { color: #5f6368; }
QPushButton#primaryButton { background: #1a73e8; color: white; border: 1px solid #1a67d2; border-radius: 5px;
                            padding: 6px 16px; font-weight: 600; }
QPushButton#primaryButton:hover { background: #1967d2; }
QPushButton#primaryButton:pressed { background: #185abc; }
QPushButton#secondaryButton { padding: 6px 16px; }
"""


def _label(key: str, name: str, parent: QWidget, wrap: bool = True) -> QLabel:
    label = QLabel(parent)
    label.setObjectName(name)
    label.setWordWrap(wrap)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setTextFormat(Qt.TextFormat.PlainText)
    i18n.bind(label, QLabel.setText, key)
    return label


class StartScreen(QScrollArea):
    """A welcome card with a drop zone, Add folder… and Try the sample documents.

    A scroll area, so the card never forces a minimum width on the window (narrow layouts scroll).
    """

    add_folder_requested = Signal()
    samples_requested = Signal()
    NARROW = 440  # px: below this the two buttons stack

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("startScreen")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        host = QWidget(self)
        host.setObjectName("startHost")
        host.setStyleSheet(_START_STYLE)
        outer = QVBoxLayout(host)
        outer.setContentsMargins(16, 16, 16, 16)
        outer.addStretch(1)
        card = QFrame(host)
        card.setObjectName("startCard")
        card.setMaximumWidth(560)
        card.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        layout = QVBoxLayout(card)
        layout.setContentsMargins(28, 26, 28, 26)
        layout.setSpacing(12)
        self.title = _label("start.title", "startTitle", card)
        layout.addWidget(self.title)
        self.text = _label("start.subtitle", "startText", card)
        layout.addWidget(self.text)
        layout.addSpacing(6)
        layout.addWidget(self._drop_zone(card))
        layout.addSpacing(4)
        buttons = self.buttons = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        buttons.setSpacing(10)
        buttons.addStretch(1)
        self.add_folder_button = self._button("library.add_folder", "primaryButton", self.add_folder_requested, card)
        self.samples_button = self._button("start.samples", "secondaryButton", self.samples_requested, card)
        i18n.bind(self.samples_button, QPushButton.setToolTip, "start.samples_tip")
        buttons.addWidget(self.add_folder_button)
        buttons.addWidget(self.samples_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.privacy = _label("start.private", "startText", card)
        layout.addWidget(self.privacy)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(card, 100)
        row.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(2)
        self.setWidget(host)

    def library_on_server(self) -> None:
        """The library open is on a server (issue 46): the card says where the index goes."""
        i18n.bind(self.privacy, QLabel.setText, "start.private_server")  # (bound after "start.private": it wins)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        narrow = event.size().width() < self.NARROW
        self.buttons.setDirection(QBoxLayout.Direction.TopToBottom if narrow else QBoxLayout.Direction.LeftToRight)

    def _drop_zone(self, parent: QWidget) -> QFrame:
        zone = QFrame(parent)
        zone.setObjectName("dropZone")
        zone.setMinimumHeight(110)
        layout = QVBoxLayout(zone)
        layout.setContentsMargins(16, 18, 16, 18)
        layout.setSpacing(6)
        arrow = QLabel("⬇", zone)
        arrow.setObjectName("dropTitle")
        arrow.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(arrow)
        self.drop_label = _label("start.drop", "dropTitle", zone)
        layout.addWidget(self.drop_label)
        self.types_label = _label("start.types", "dropTypes", zone)  # i18n: from the loaders' table of types
        layout.addWidget(self.types_label)
        return zone

    def _button(self, key: str, name: str, signal: Signal, parent: QWidget) -> QPushButton:
        button = QPushButton(parent)
        button.setObjectName(name)
        button.setCursor(Qt.CursorShape.PointingHandCursor)
        i18n.bind(button, QPushButton.setText, key)
        button.clicked.connect(signal.emit)
        return button
