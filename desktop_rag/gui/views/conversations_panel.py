"""The list of saved conversations with New, Rename and Delete (the last two only while one is selected)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtWidgets import QHBoxLayout, QListView, QPushButton, QWidget

from desktop_rag.gui import i18n
from desktop_rag.gui.models.chat import ConversationIdRole, ConversationsModel
from desktop_rag.gui.views.panel import plain_tooltips, titled_layout


class ConversationsPanel(QWidget):
    """Emits the user's intent; dialogs for rename/delete live in the main window."""

    opened = Signal(int)
    new_requested = Signal()
    rename_requested = Signal(int)
    delete_requested = Signal(int)

    def __init__(self, model: ConversationsModel, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        layout = titled_layout(self, "conversations.title")
        self.view = QListView(self)
        self.view.setModel(model)
        self.view.setUniformItemSizes(True)
        plain_tooltips(self.view)  # conversation titles
        self.view.clicked.connect(self._on_clicked)
        self.view.activated.connect(self._on_clicked)
        layout.addWidget(self.view, 1)
        row = QHBoxLayout()
        self._on_selected: list[QPushButton] = []  # Rename and Delete: enabled while a conversation is selected
        for key, slot in (("conv.new", self.new_requested.emit), ("conv.rename", self._rename),
                          ("conv.delete", self._delete)):
            button = QPushButton(self)
            i18n.bind(button, QPushButton.setText, key)
            button.clicked.connect(slot)
            row.addWidget(button)
            if key != "conv.new":
                self._on_selected.append(button)
        layout.addLayout(row)
        self.view.selectionModel().selectionChanged.connect(self._enable)
        model.modelReset.connect(self._enable)
        self._enable()

    def current_id(self) -> int | None:
        """The selected conversation (None after New: the list's current index may outlive its selection)."""
        selected = self.view.selectionModel().selectedIndexes()
        return selected[0].data(ConversationIdRole) if selected else None

    def select_id(self, conversation_id: int | None) -> None:
        row = self.model.row_of(conversation_id) if conversation_id is not None else -1
        if row >= 0:
            self.view.setCurrentIndex(self.model.index(row))
        else:
            self.view.clearSelection()
        self._enable()

    def _enable(self) -> None:
        for button in self._on_selected:
            button.setEnabled(self.current_id() is not None)

    def _on_clicked(self, index: QModelIndex) -> None:
        cid = index.data(ConversationIdRole)
        if cid is not None:
            self.opened.emit(int(cid))

    def _rename(self) -> None:
        cid = self.current_id()
        if cid is not None:
            self.rename_requested.emit(int(cid))

    def _delete(self) -> None:
        cid = self.current_id()
        if cid is not None:
            self.delete_requested.emit(int(cid))
