"""The status bar's permanent "Library: …" (issue 46): which library is open, this computer's or a server's (its
address without the password), and the one a restart opens when Settings name another. Plain text."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from desktop_rag.gui import i18n
from desktop_rag.gui.text import literal_html
from desktop_rag.gui.views.library_settings import library_where

MAX_WIDTH = 520  # pixels; the whole text is the tooltip


class LibraryLabel(QLabel):
    """`show_library(opened, on_server, opened_location, chosen)`; says it again in a new language. A text wider than
    MAX_WIDTH is cut in its middle ("…"); the tooltip has it whole."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self._shown: tuple[str, bool, str, str] | None = None
        self.full_text = ""  # what `text()` shows, uncut
        i18n.on_change(self._retranslate)

    def show_library(self, opened: str, on_server: bool, opened_location: str, chosen: str) -> None:
        """`opened`: the open library as the engine shows it (its file, or the server's address without a password);
        `opened_location` / `chosen`: the location it was opened from and the one the settings name now."""
        self._shown = (opened, on_server, opened_location, chosen)
        where = opened if on_server else i18n.tr("status.library_this_computer")
        self.full_text = (i18n.tr("status.library", where=where) if chosen.strip() == opened_location.strip()
                          else i18n.tr("status.library_pending", where=where, next=library_where(chosen)))
        # a long address is cut in its middle (the status bar also holds the index's and the model's state)
        self.setText(self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideMiddle, MAX_WIDTH))
        self.setToolTip(literal_html(self.full_text if on_server else f"{self.full_text}\n{opened}"))  # (the file)

    def _retranslate(self) -> None:
        if self._shown is not None:
            self.show_library(*self._shown)
