"""The middle of the window: the model banner and the multilingual offer above a stack of the chat panel and the start screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QStackedWidget, QVBoxLayout, QWidget

from desktop_rag.gui.views.model_banner import ModelBanner
from desktop_rag.gui.views.multilingual_offer_bar import MultilingualOfferBar
from desktop_rag.gui.views.start_screen import StartScreen

if TYPE_CHECKING:
    from desktop_rag.gui.views.chat_panel import ChatPanel


class ChatArea(QWidget):
    """The middle of the window: the model banner above either the chat panel or the start screen."""

    def __init__(self, chat_panel_factory: Callable[[QWidget], "ChatPanel"], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.banner = ModelBanner(self)
        self.banner.hide()
        layout.addWidget(self.banner)
        self.offer = MultilingualOfferBar(self)
        self.offer.hide()
        layout.addWidget(self.offer)
        self.stack = QStackedWidget(self)
        self.chat_panel = chat_panel_factory(self.stack)
        self.start_screen = StartScreen(self.stack)
        self.stack.addWidget(self.chat_panel)
        self.stack.addWidget(self.start_screen)
        layout.addWidget(self.stack, 1)

    def show_start(self, start: bool) -> None:
        self.stack.setCurrentWidget(self.start_screen if start else self.chat_panel)
