"""The collection selector (library header) with its menu, and the chat header's "asking in" line."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox, QFileDialog, QHBoxLayout, QInputDialog, QLabel, QMenu, QMessageBox, QToolButton, QWidget,
)

from desktop_rag.gui import i18n
from desktop_rag.gui.collections_controller import CollectionsController
from desktop_rag.gui.views.panel import ask_plain, show_plain


def text(key: str, **values: object) -> str:
    """A collections text (i18n's `collections.*`) in the current language."""
    return i18n.tr(f"collections.{key}", **values)


class CollectionBar(QWidget):
    """A combo box of collections ("All collections" first) and a menu to manage them."""

    def __init__(self, controller: CollectionsController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.combo = QComboBox(self)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.activated.connect(self._chosen)
        row.addWidget(self.combo, 1)
        self.menu_button = QToolButton(self)
        self.menu_button.setText("⋯")
        i18n.bind(self.menu_button, QToolButton.setToolTip, "collections.menu")
        self.menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu = QMenu(self)
        self.actions = {key: self.menu.addAction("") for key in
                        ("new", "rename", "delete", "export", "export_docs", "import")}
        for key, action in self.actions.items():
            i18n.bind(action, QAction.setText, f"collections.{key}")
        self.actions["new"].triggered.connect(self.create)
        self.actions["rename"].triggered.connect(self.rename)
        self.actions["delete"].triggered.connect(self.delete)
        self.actions["export"].triggered.connect(lambda: self.export(False))
        self.actions["export_docs"].triggered.connect(lambda: self.export(True))
        self.actions["import"].triggered.connect(self.import_archive)
        self.menu_button.setMenu(self.menu)
        row.addWidget(self.menu_button)
        controller.listing_changed.connect(self._fill)
        controller.current_changed.connect(lambda _c: self._fill(controller.listing))
        controller.failed.connect(self._failed)
        controller.import_check.connect(self._confirm_import)
        controller.exported.connect(lambda r: self._info(text("exported", name=r.collection, path=r.path)))
        controller.imported.connect(lambda r: self._info(text("imported", name=r.collection, chunks=r.chunks)))
        self._fill(())
        i18n.on_change(self._retranslate)

    def _retranslate(self) -> None:
        self._fill(self.controller.listing)  # "All collections" is the first item

    def _fill(self, listing: tuple) -> None:
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItem(text("all"), None)
        for c in listing:
            self.combo.addItem(c.name, c.id)  # item text is plain text in a combo box
        index = self.combo.findData(self.controller.current)
        self.combo.setCurrentIndex(max(index, 0))
        self.combo.blockSignals(False)
        chosen = self.controller.current is not None
        for key in ("rename", "delete", "export", "export_docs"):
            self.actions[key].setEnabled(chosen)

    def _chosen(self, index: int) -> None:
        self.controller.select(self.combo.itemData(index))

    def _selected(self):
        return next((c for c in self.controller.listing if c.id == self.controller.current), None)

    def create(self) -> None:
        name, ok = QInputDialog.getText(self, text("new"), text("name"))
        if ok and name.strip():
            self.controller.create(name)

    def rename(self) -> None:
        chosen = self._selected()
        if chosen is None:
            return
        name, ok = QInputDialog.getText(self, text("rename"), text("name"), text=chosen.name)
        if ok and name.strip():
            self.controller.rename(chosen.id, name)

    def delete(self) -> None:
        chosen = self._selected()
        if chosen is not None and ask_plain(self, text("delete"), text(
                "confirm_delete", name=chosen.name, files=chosen.files, chunks=chosen.chunks)):
            self.controller.delete(chosen.id)

    def export(self, with_documents: bool) -> None:
        chosen = self._selected()
        if chosen is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, text("export"), f"{chosen.name}.zip", text("archive"))
        if path:
            self.controller.export(chosen.id, path, with_documents)

    def import_archive(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, text("import"), "", text("archive"))
        if path:
            self.controller.check_import(path)  # validated first; a model change is asked about

    def _confirm_import(self, path: str, problem: object) -> None:
        if problem is None or ask_plain(self, text("import"), text("reembed", problem=problem)):
            self.controller.import_archive(path, reembed=problem is not None)

    def _failed(self, message: str) -> None:
        show_plain(self, QMessageBox.Icon.Warning, text("failed"), message)

    def _info(self, message: str) -> None:
        show_plain(self, QMessageBox.Icon.Information, text("failed"), message)


class AskingInLabel(QLabel):
    """The chat header's line: which collection a question is asked in."""

    def __init__(self, controller: CollectionsController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setStyleSheet("color: #555; padding: 0 4px;")
        self.controller = controller
        controller.current_changed.connect(lambda _c: self._show())
        controller.listing_changed.connect(lambda _l: self._show())
        i18n.on_change(self._show)
        self._show()

    def _show(self) -> None:
        name = self.controller.name_of(self.controller.current) if self.controller.current is not None else None
        self.setText(text("asking", name=name or text("all")))
