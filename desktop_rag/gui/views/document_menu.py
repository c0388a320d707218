"""The library's context menu on a document: "Ask this document" and "Summarise this document"."""

from __future__ import annotations

from PySide6.QtCore import QObject, QPoint, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractItemView, QMenu

from desktop_rag.gui import i18n
from desktop_rag.gui.models.library import COL_NAME, KindRole, LinkedRole, PathRole

_DOCUMENT_KINDS = ("file", "file-row")  # a single-file source, or a file of a folder source


class DocumentMenu(QObject):
    """A right click on a document row of `view` offers the one-document actions; each emits its path."""

    ask_requested = Signal(str)
    summarise_requested = Signal(str)

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self.view = view
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._open)
        self.menu: QMenu | None = None  # the last menu shown (tests trigger its actions)

    def document_at(self, pos: QPoint) -> str | None:
        """The path of the document row at `pos` (viewport coordinates), or None (a folder, a not-linked row)."""
        index = self.view.indexAt(pos)
        if not index.isValid():
            return None
        index = index.siblingAtColumn(COL_NAME)
        if index.data(KindRole) not in _DOCUMENT_KINDS or index.data(LinkedRole) is False:
            return None
        return index.data(PathRole)

    def build(self, path: str) -> QMenu:
        """The menu for the document at `path` (its actions' texts in the current language)."""
        menu = QMenu(self.view)
        ask = QAction(i18n.tr("scope.ask_document"), menu)
        ask.triggered.connect(lambda: self.ask_requested.emit(path))
        menu.addAction(ask)
        summarise = QAction(i18n.tr("summary.action"), menu)
        summarise.triggered.connect(lambda: self.summarise_requested.emit(path))
        menu.addAction(summarise)
        return menu

    def _open(self, pos: QPoint) -> None:
        path = self.document_at(pos)
        if path is None:
            return
        self.menu = self.build(path)
        self.menu.popup(self.view.viewport().mapToGlobal(pos))
