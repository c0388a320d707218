"""First run: the start screen shown for an empty library, and the one-time "no language model" banner.

`FirstRunFlow` decides when each is visible; the widgets only emit what the user asked for, and the
main window turns that into the same actions as its own buttons (Add folder, Settings).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout, QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSizePolicy, QStackedWidget,
    QToolButton, QVBoxLayout, QWidget,
)

from desktop_rag.config import Settings, resource_path
from desktop_rag.engine.llm import config_problem
from desktop_rag.gui import i18n

if TYPE_CHECKING:
    from desktop_rag.gui.views.chat_panel import ChatPanel
    from desktop_rag.gui.views.main_window import MainWindow

BANNER_DONE_KEY = "firstRun/modelBannerDone"  # in the window's QSettings ini

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

_BANNER_STYLE = """
QFrame#modelBanner { background: #e8f0fe; border: 1px solid #c6dafc; border-radius: 6px; }
QLabel#bannerIcon { color: #1a73e8; font-size: 13pt; font-weight: 700; }
QLabel#bannerText { color: #174ea6; }
QToolButton#bannerClose { border: none; color: #5f6368; font-size: 11pt; padding: 2px 4px; }
QToolButton#bannerClose:hover { color: #202124; background: #d2e3fc; border-radius: 4px; }
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
        layout.addWidget(_label("start.types", "dropTypes", zone))
        return zone

    def _button(self, key: str, name: str, signal: Signal, parent: QWidget) -> QPushButton:
        button = QPushButton(parent)
        button.setObjectName(name)
        button.setCursor(Qt.CursorShape.PointingHandCursor)
        i18n.bind(button, QPushButton.setText, key)
        button.clicked.connect(signal.emit)
        return button


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
        self.setStyleSheet(_BANNER_STYLE)
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
        self.stack = QStackedWidget(self)
        self.chat_panel = chat_panel_factory(self.stack)
        self.start_screen = StartScreen(self.stack)
        self.stack.addWidget(self.chat_panel)
        self.stack.addWidget(self.start_screen)
        layout.addWidget(self.stack, 1)

    def show_start(self, start: bool) -> None:
        self.stack.setCurrentWidget(self.start_screen if start else self.chat_panel)


class FirstRunFlow(QObject):
    """Shows the start screen while the library has no source and the model banner until it is done."""

    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window = window
        self.area: ChatArea = window.chat_area
        self.library_known = False  # the start screen waits for the first listing (no flash on a full library)
        self.area.start_screen.add_folder_requested.connect(window.library_panel.choose_folder)
        self.area.start_screen.samples_requested.connect(self.add_samples)
        self.area.banner.settings_requested.connect(window.settings_flow.open)
        self.area.banner.dismissed.connect(self.dismiss_banner)
        model = window.library_model
        model.rowsInserted.connect(self.update_start_screen)
        model.rowsRemoved.connect(self.update_start_screen)
        model.modelReset.connect(self.update_start_screen)
        window.backend.library_loaded.connect(self._library_loaded)
        window.backend.indexer.settings_applied.connect(self.update_banner)
        self.update_banner(window.settings)

    # ---- start screen ----

    @property
    def start_visible(self) -> bool:
        return self.area.stack.currentWidget() is self.area.start_screen

    def _library_loaded(self, _listing: object) -> None:
        self.library_known = True
        self.update_start_screen()

    def update_start_screen(self, *_args: object) -> None:
        empty = self.window.library_model.rowCount() == 0
        self.area.show_start(self.library_known and empty)

    def add_samples(self) -> None:
        """Index the bundled sample documents exactly as if their folder had been added."""
        self.window.add_paths([str(resource_path("samples"))])

    # ---- model banner ----

    @property
    def banner_done(self) -> bool:
        value = self.window.qsettings.value(BANNER_DONE_KEY, False)
        return value is True or str(value).lower() == "true"

    def _remember_banner(self) -> None:
        self.window.qsettings.setValue(BANNER_DONE_KEY, True)
        self.window.qsettings.sync()

    def update_banner(self, settings: Settings | None = None) -> None:
        """Show the banner while no model is configured and it was never dismissed; a model ends it for good."""
        if self.banner_done:
            self.area.banner.hide()
            return
        if config_problem(settings or self.window.settings) is None:
            self._remember_banner()
            self.area.banner.hide()
            return
        self.area.banner.show()

    def dismiss_banner(self) -> None:
        self._remember_banner()
        self.area.banner.hide()
