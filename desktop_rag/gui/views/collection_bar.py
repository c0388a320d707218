"""The collection selector (library header) with its menu, and the chat header's "asking in" line."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QToolButton,
    QWidget,
)

from desktop_rag.engine import Reason, safe_file_name
from desktop_rag.gui import i18n
from desktop_rag.gui.views.panel import ask_plain, show_plain


def text(key: str, **values: object) -> str:
    """A collections text (i18n's `collections.*`) in the current language."""
    return i18n.tr(f"collections.{key}", **values)


class CollectionBar(QWidget):
    """A combo box of collections ("All collections" first) and a menu to manage them.

    A view: it shows what `show_listing` gives it and says what the user asked for with signals (the
    collections controller connects both sides)."""

    chosen = Signal(object)  # collection id, or None for all
    create_requested = Signal(str)  # name
    rename_requested = Signal(int, str)  # collection id, new name
    delete_requested = Signal(int)
    export_requested = Signal(int, str, bool)  # collection id, archive path, with documents
    import_requested = Signal(str)  # archive path: to be checked first (`confirm_import` asks about a problem)
    # archive path, re-embed, the name to import it as (None: its own), its documents' folder (None: beside it)
    import_confirmed = Signal(str, bool, object, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.listing: tuple = ()
        self.current: int | None = None
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
        self._fill()
        i18n.on_change(self._fill)  # "All collections" is the first item

    def show_listing(self, listing: tuple, current: int | None) -> None:
        """Show these collections (Collection rows) with `current` (None: all) selected."""
        self.listing, self.current = tuple(listing), current
        self._fill()

    def _fill(self) -> None:
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItem(text("all"), None)
        for c in self.listing:
            self.combo.addItem(self.shown(c.name), c.id)  # item text is plain text in a combo box
        index = self.combo.findData(self.current)
        self.combo.setCurrentIndex(max(index, 0))
        self.combo.blockSignals(False)
        chosen = self.current is not None
        for key in ("rename", "delete", "export", "export_docs"):
            self.actions[key].setEnabled(chosen)

    def _chosen(self, index: int) -> None:
        self.chosen.emit(self.combo.itemData(index))

    def shown(self, name: str) -> str:
        """A collection's name as the window shows it ("Default" in the interface's language)."""
        return i18n.collection_name(name, (c.name for c in self.listing))

    def _selected(self):
        return next((c for c in self.listing if c.id == self.current), None)

    def create(self) -> None:
        name, ok = QInputDialog.getText(self, text("new"), text("name"))
        if ok:  # (an empty name too: the engine says one is needed)
            self.create_requested.emit(name)

    def rename(self) -> None:
        chosen = self._selected()
        if chosen is None:
            return
        shown = self.shown(chosen.name)
        name, ok = QInputDialog.getText(self, text("rename"), text("name"), text=shown)
        if ok and name != shown:  # (OK on the name as shown keeps the stored one: "Default" stays "Default")
            self.rename_requested.emit(chosen.id, name)

    def delete(self) -> None:
        chosen = self._selected()
        if chosen is not None and ask_plain(self, text("delete"), text(
                "confirm_delete", name=self.shown(chosen.name), files=chosen.files, chunks=chosen.chunks)):
            self.delete_requested.emit(chosen.id)

    def export(self, with_documents: bool) -> None:
        chosen = self._selected()
        if chosen is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, text("export"), f"{safe_file_name(self.shown(chosen.name))}.zip",
                                              text("archive"))
        if path:
            self.export_requested.emit(chosen.id, path, with_documents)

    def import_archive(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, text("import"), "", text("archive"))
        if path:
            self.import_requested.emit(path)  # validated first; a model change is asked about

    def confirm_import(self, path: str, problem: object, taken: tuple[str, str] | None = None,
                       unwritable: bool = False) -> None:
        """A checked archive: import it, after asking for another name when a collection here has its name
        (`taken`: that name and a free one, offered), for a folder for its documents when they cannot go beside it
        (`unwritable`) and whether to embed again when its model differs (`problem`)."""
        name = documents = None
        if taken is not None:
            name = self._other_name(taken)
            if name is None:
                return
        if unwritable:
            folder = QFileDialog.getExistingDirectory(self, text("documents_folder"))
            if not folder:
                return
            documents = str(Path(folder) / f"{Path(path).stem} documents")
        if problem is None or ask_plain(self, text("import"), text("reembed", problem=i18n.error(problem))):
            self.import_confirmed.emit(path, problem is not None, name, documents)

    def ask_name_again(self, path: str, reembed: bool, documents: str | None, taken: tuple[str, str]) -> None:
        """The name given for an import is taken here (`taken`: it and a free one): ask for another and import."""
        name = self._other_name(taken)
        if name is not None:
            self.import_confirmed.emit(path, reembed, name, documents)

    def _other_name(self, taken: tuple[str, str]) -> str | None:
        """Another name for an import whose name (`taken[0]`) a collection here has, offering `taken[1]`; None:
        cancelled."""
        name, ok = QInputDialog.getText(self, text("import"), text("import_name", name=self.shown(taken[0])),
                                        text=taken[1])
        return name if ok and name.strip() else None

    def show_failure(self, reason: Reason) -> None:
        show_plain(self, QMessageBox.Icon.Warning, text("failed"), i18n.error(reason))

    def show_exported(self, report) -> None:
        """Where it went; a warning naming the documents left out of an export with documents (at most 20)."""
        message, missing = text("exported", name=self.shown(report.collection), path=report.path), report.missing_documents
        if not missing:
            self._info(message)
            return
        paths = "\n".join(missing[:20]) + ("\n…" if len(missing) > 20 else "")
        show_plain(self, QMessageBox.Icon.Warning, text("failed"),
                   f"{message}\n\n{text('export_missing', count=len(missing), paths=paths)}")

    def show_imported(self, report) -> None:
        """What was imported, and where its documents went (a folder beside the archive the person did not choose)."""
        message = text("imported", name=self.shown(report.collection), chunks=report.chunks)
        where = f"\n{text('imported_documents', path=report.documents_dir)}" if report.documents_dir else ""
        self._info(message + where)

    def _info(self, message: str) -> None:
        show_plain(self, QMessageBox.Icon.Information, text("failed"), message)


class AskingInLabel(QLabel):
    """The chat header's line: which collection a question is asked in."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setStyleSheet("color: #555; padding: 0 4px;")
        self._name: str | None = None
        self._names: tuple[str, ...] = ()
        i18n.on_change(self._show)
        self._show()

    def show_scope(self, name: str | None, names: tuple[str, ...] = ()) -> None:
        """Asking in the collection stored as `name` (None: in all collections), one of `names`."""
        self._name, self._names = name, names
        self._show()

    def _show(self) -> None:
        shown = i18n.collection_name(self._name, self._names) if self._name is not None else text("all")
        self.setText(text("asking", name=shown))
