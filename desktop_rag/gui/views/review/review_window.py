"""The Review view's window: Overview, Spot check and Measure my library as tabs; Esc closes it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QTabWidget, QVBoxLayout, QWidget

from desktop_rag.gui import i18n
from desktop_rag.gui.views.review.measure_page import MeasurePage
from desktop_rag.gui.views.review.overview_page import OverviewPage
from desktop_rag.gui.views.review.spot_check_page import SpotCheckPage


class ReviewWindow(QDialog):
    """Not modal: the chat stays usable. Ctrl+Tab / Ctrl+Shift+Tab switch pages; Esc closes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)
        self.resize(920, 680)
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget(self)
        self.overview = OverviewPage(self.tabs)
        self.spot = SpotCheckPage(self.tabs)
        self.measure = MeasurePage(self.tabs)
        for page in (self.overview, self.spot, self.measure):
            self.tabs.addTab(page, "")
        layout.addWidget(self.tabs)
        self._retranslate()
        i18n.on_change(self._retranslate)

    def _retranslate(self) -> None:
        self.setWindowTitle(i18n.tr("review.title"))
        for index, key in enumerate(("review.overview", "review.spot", "review.measure")):
            self.tabs.setTabText(index, i18n.tr(key))
