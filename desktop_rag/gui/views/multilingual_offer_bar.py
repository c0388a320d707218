"""The bar above the chat offering a Chinese library the multilingual model (controllers/multilingual_offer.py)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from desktop_rag.engine import model_catalog
from desktop_rag.gui import i18n
from desktop_rag.gui.views.model_banner import BANNER_STYLE


OFFERED = "multilingual-e5-small"  # the catalog entry offered: e5-small is the bundled multilingual model too


class MultilingualOfferBar(QFrame):
    """Non-modal: icon | one sentence, then Download… · Not now · Don't ask again; `model` is what it offers."""

    download_requested = Signal()
    later = Signal()  # "Not now": hidden for this run
    never = Signal()  # "Don't ask again": remembered in the settings

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model_catalog.find(OFFERED)
        self.setObjectName("multilingualOffer")
        self.setStyleSheet(BANNER_STYLE)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # never widens the window
        grid = QGridLayout(self)
        grid.setContentsMargins(10, 8, 8, 8)
        grid.setHorizontalSpacing(10)
        icon = QLabel("ⓘ", self)
        icon.setObjectName("bannerIcon")
        grid.addWidget(icon, 0, 0, Qt.AlignmentFlag.AlignTop)
        self.text = QLabel(self)
        self.text.setObjectName("bannerText")
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.text.setMinimumWidth(40)
        i18n.bind(self.text, QLabel.setText, "offer.text", model=self.model.display_name, size=self.model.download_mb)
        grid.addWidget(self.text, 0, 1)
        grid.setColumnStretch(1, 1)
        row = QHBoxLayout()
        self.download_button = self._button("offer.download", self.download_requested, row)
        self.later_button = self._button("offer.later", self.later, row)
        self.never_button = self._button("offer.never", self.never, row)
        row.addStretch(1)
        grid.addLayout(row, 1, 1)

    def _button(self, key: str, signal, row: QHBoxLayout) -> QPushButton:
        button = QPushButton(self)
        i18n.bind(button, QPushButton.setText, key)
        button.clicked.connect(signal.emit)
        row.addWidget(button)
        return button
