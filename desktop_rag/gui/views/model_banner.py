"""The one-time "no language model" info bar above the chat (shown and ended by views/first_run_flow.py)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QPushButton, QSizePolicy, QToolButton, QWidget

from desktop_rag.gui import i18n

BANNER_STYLE = """
QFrame#modelBanner, QFrame#multilingualOffer { background: #e8f0fe; border: 1px solid #c6dafc; border-radius: 6px; }
QLabel#bannerIcon { color: #1a73e8; font-size: 13pt; font-weight: 700; }
QLabel#bannerText { color: #174ea6; }
QToolButton#bannerClose { border: none; color: #5f6368; font-size: 11pt; padding: 2px 4px; }
QToolButton#bannerClose:hover { color: #202124; background: #d2e3fc; border-radius: 4px; }
"""


class ModelBanner(QFrame):
    """A non-modal info bar: answers are extractive until a language model is set.

    Wide: icon | text | Settings… | ✕. Narrow: the Settings… button moves under the text.
    """

    settings_requested = Signal()
    dismissed = Signal()
    NARROW = 480  # px: below this the button goes under the text

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("modelBanner")
        self.setStyleSheet(BANNER_STYLE)
        # never widen the window for the banner: it takes the chat column's width and its text wraps
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(10, 8, 6, 8)
        self.grid.setHorizontalSpacing(10)
        self.grid.setVerticalSpacing(6)
        icon = QLabel("ⓘ", self)
        icon.setObjectName("bannerIcon")
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.grid.addWidget(icon, 0, 0, Qt.AlignmentFlag.AlignTop)
        self.text = QLabel(self)
        self.text.setObjectName("bannerText")
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.text.setMinimumWidth(40)
        i18n.bind(self.text, QLabel.setText, "banner.no_model")
        self.grid.addWidget(self.text, 0, 1)
        self.grid.setColumnStretch(1, 1)
        self.settings_button = QPushButton(self)
        i18n.bind(self.settings_button, QPushButton.setText, "menu.settings")
        self.settings_button.clicked.connect(self.settings_requested.emit)
        self.close_button = QToolButton(self)
        self.close_button.setObjectName("bannerClose")
        self.close_button.setText("✕")
        self.close_button.setCursor(Qt.CursorShape.PointingHandCursor)
        i18n.bind(self.close_button, QToolButton.setToolTip, "banner.dismiss")
        i18n.bind(self.close_button, QToolButton.setAccessibleName, "banner.dismiss")
        self.close_button.clicked.connect(self.dismissed.emit)
        self.grid.addWidget(self.close_button, 0, 3, Qt.AlignmentFlag.AlignTop)
        self._narrow: bool | None = None
        self._place_button(narrow=False)

    def _place_button(self, narrow: bool) -> None:
        if narrow == self._narrow:
            return
        self._narrow = narrow
        self.grid.removeWidget(self.settings_button)
        if narrow:
            self.grid.addWidget(self.settings_button, 1, 1, Qt.AlignmentFlag.AlignLeft)
        else:
            self.grid.addWidget(self.settings_button, 0, 2, Qt.AlignmentFlag.AlignVCenter)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._place_button(event.size().width() < self.NARROW)
