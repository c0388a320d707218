"""The library area: add buttons, the sources/files list (library_view: a flat table that looks like a tree), progress,
totals."""

from __future__ import annotations

import os

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_rag.engine import Progress
from desktop_rag.gui import i18n
from desktop_rag.gui.models.library import (
    COL_CHUNKS,
    COL_NAME,
    COL_STATE,
    ErrorRole,
    KindRole,
    LibraryModel,
    LinkedRole,
    PathRole,
    StateRole,
    file_detail,
)
from desktop_rag.gui.views.document_menu import DocumentMenu
from desktop_rag.gui.views.library_view import LibraryView
from desktop_rag.gui.views.panel import plain_label, plain_tooltips, titled_layout

FILTER_DELAY_MS = 200


class LibraryPanel(QWidget):
    """Emits what the user asks for; the main window turns it into index-worker requests."""

    paths_chosen = Signal(list)
    reindex_requested = Signal(str, str)  # path, kind ('folder'/'file' source or 'file-row')
    remove_requested = Signal(str)
    link_requested = Signal(str, str)  # a not-linked source's path, the folder (or file) the user chose for it
    pause_requested = Signal()
    resume_requested = Signal()
    cancel_requested = Signal()

    def __init__(self, model: LibraryModel, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        layout = titled_layout(self, "library.title")
        buttons = QHBoxLayout()
        self.add_folder_button = self._button("library.add_folder", self.choose_folder, buttons)
        self.add_files_button = self._button("library.add_files", self.choose_files, buttons)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.banner = plain_label(self)  # file names: always literal text
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background: #fff4e5; color: #8a4b00; border-radius: 4px; padding: 6px;")
        self.banner.hide()
        layout.addWidget(self.banner)
        self.watch_notice = plain_label(self)  # the file watcher had to fall back to polling (folder names)
        self.watch_notice.setWordWrap(True)
        self.watch_notice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # copy the command
        self.watch_notice.setStyleSheet("background: #fff4e5; color: #8a4b00; border-radius: 4px; padding: 6px;")
        self.watch_notice.hide()
        layout.addWidget(self.watch_notice)
        self.filter_edit = QLineEdit(self)  # file names containing this text (the model filters in slices)
        self.filter_edit.setClearButtonEnabled(True)
        i18n.bind(self.filter_edit, QLineEdit.setPlaceholderText, "library.filter")
        self._filter_delay = QTimer(self, singleShot=True, interval=FILTER_DELAY_MS)  # typing: one filter per pause
        self._filter_delay.timeout.connect(lambda: model.set_filter(self.filter_edit.text()))
        self.filter_edit.textChanged.connect(lambda _text: self._filter_delay.start())
        layout.addWidget(self.filter_edit)
        self.tree = LibraryView(model, self)  # the name `tree`: it looks like one (a flat table: see the model)
        plain_tooltips(self.tree)  # paths and failure reasons
        self.document_menu = DocumentMenu(self.tree)  # a document's right-click actions (issue 40)
        header = self.tree.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COL_NAME, QHeaderView.ResizeMode.Stretch)
        # fixed widths: ResizeToContents measures every row on each change, which stalls big libraries
        header.setSectionResizeMode(COL_STATE, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(COL_CHUNKS, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(COL_STATE, 90)
        header.resizeSection(COL_CHUNKS, 60)
        header.setHighlightSections(False)
        self.tree.selectionModel().currentChanged.connect(self._on_current)
        model.modelReset.connect(self._after_reset)
        model.rowsInserted.connect(self._expand_new)
        model.dataChanged.connect(self._refresh_detail)
        layout.addWidget(self.tree, 1)
        self.detail = plain_label(self)  # a failure reason
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setStyleSheet("color: #c62828; padding: 2px 4px;")
        self.detail.hide()
        layout.addWidget(self.detail)
        actions = QHBoxLayout()
        self.reindex_button = self._button("library.reindex", self._reindex_selected, actions)
        self.remove_button = self._button("library.remove", self._remove_selected, actions)
        self.link_button = self._button("library.link", self._link_selected, actions)
        actions.addStretch(1)
        layout.addLayout(actions)
        self._build_progress(layout)
        self.totals = plain_label(self)
        self.totals.setStyleSheet("color: #5f6368; padding: 2px 4px;")
        layout.addWidget(self.totals)
        i18n.on_change(self.update_totals)
        self._update_actions()
        self.update_totals()

    def _button(self, key: str, slot, layout: QHBoxLayout) -> QPushButton:
        button = QPushButton(self)
        i18n.bind(button, QPushButton.setText, key)
        button.clicked.connect(slot)
        layout.addWidget(button)
        return button

    def _build_progress(self, layout: QVBoxLayout) -> None:
        self.progress_label = plain_label(self)  # holds the current file name
        self.progress_label.setWordWrap(True)
        self.progress_label.setStyleSheet("color: #3c4043; padding: 0 4px;")
        layout.addWidget(self.progress_label)
        row = QHBoxLayout()
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setTextVisible(True)
        row.addWidget(self.progress_bar, 1)
        self.pause_button = QPushButton(self)
        i18n.bind(self.pause_button, QPushButton.setText, "library.pause")
        i18n.bind(self.pause_button, QPushButton.setToolTip, "library.pause_tip")
        self.pause_button.clicked.connect(self.pause_requested.emit)
        self.resume_button = QPushButton(self)
        i18n.bind(self.resume_button, QPushButton.setText, "library.resume")
        self.resume_button.clicked.connect(self.resume_requested.emit)
        self.cancel_button = QPushButton(self)
        i18n.bind(self.cancel_button, QPushButton.setText, "library.cancel")
        self.cancel_button.clicked.connect(self.cancel_requested.emit)
        for button in (self.pause_button, self.resume_button, self.cancel_button):
            row.addWidget(button)
        layout.addLayout(row)
        self._progress_row = [self.progress_bar, self.pause_button, self.cancel_button]
        self.set_running(False)
        self.resume_button.hide()

    # ---- choosing files ----

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, i18n.tr("library.choose_folder"))
        if folder:
            self.paths_chosen.emit([folder])

    def choose_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, i18n.tr("library.choose_files"), "", i18n.tr("library.file_filter"))
        if files:
            self.paths_chosen.emit(list(files))

    def show_banner(self, text: str) -> None:
        self.banner.setText(text)
        self.banner.setVisible(bool(text))

    def show_watch_notice(self, text: str) -> None:
        """Why some folders are polled instead of watched live, and how to raise the limit ('' hides it)."""
        self.watch_notice.setText(text)
        self.watch_notice.setVisible(bool(text))

    # ---- selection ----

    def _not_linked(self) -> bool:
        index = self.tree.currentIndex()
        return index.isValid() and index.siblingAtColumn(COL_NAME).data(LinkedRole) is False

    def selected(self) -> tuple[str, str] | None:
        index = self.tree.currentIndex()
        if not index.isValid():
            return None
        index = index.siblingAtColumn(COL_NAME)
        return index.data(PathRole), index.data(KindRole)

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._refresh_detail()
        self._update_actions()

    def _refresh_detail(self, *_args) -> None:
        index = self.tree.currentIndex()
        name = index.siblingAtColumn(COL_NAME)
        detail = file_detail(name.data(StateRole) or "", name.data(ErrorRole) or "") if index.isValid() else ""
        self.detail.setText(detail)
        self.detail.setVisible(bool(detail))
        self.update_totals()

    def _expand_new(self, *_args) -> None:
        """Rows arrived (the model expands new sources itself)."""
        self.update_totals()

    def filter_pending(self) -> bool:
        """True while a typed filter waits for its pause or the model is still applying it."""
        return self._filter_delay.isActive() or self.model.filter_pending()

    def _after_reset(self) -> None:
        self._refresh_detail()
        self._update_actions()

    def _update_actions(self) -> None:
        chosen = self.selected()
        not_linked = self._not_linked()
        self.reindex_button.setEnabled(chosen is not None and not not_linked)
        self.remove_button.setEnabled(chosen is not None and chosen[1] in ("folder", "file"))
        self.link_button.setVisible(not_linked)

    def _reindex_selected(self) -> None:
        chosen = self.selected()
        if chosen:
            self.reindex_requested.emit(*chosen)

    def _link_selected(self) -> None:
        """Ask where a not-linked source's documents are on this computer (the user's choice, never a guess)."""
        chosen = self.selected()
        if not chosen or not self._not_linked():
            return
        path, kind = chosen
        if kind == "folder":
            target = QFileDialog.getExistingDirectory(self, i18n.tr("library.link_folder", path=path))
        else:
            target, _ = QFileDialog.getOpenFileName(self, i18n.tr("library.link_file", path=path), "",
                                                    i18n.tr("library.file_filter"))
        if target:
            self.link_requested.emit(path, target)

    def _remove_selected(self) -> None:
        chosen = self.selected()
        if chosen and chosen[1] in ("folder", "file"):
            self.remove_requested.emit(chosen[0])

    # ---- progress ----

    def set_running(self, running: bool) -> None:
        for widget in self._progress_row:
            widget.setVisible(running)
        if running:
            self.resume_button.hide()
        self.progress_label.setVisible(running or bool(self.progress_label.text()))

    def set_paused(self, paused: bool) -> None:
        self.resume_button.setVisible(paused)
        if paused:
            self.show_progress_text(i18n.tr("progress.paused"))

    def show_progress_text(self, text: str) -> None:
        self.progress_label.setText(text)
        self.progress_label.setVisible(bool(text))

    def show_progress(self, progress: Progress) -> None:
        bar = self.progress_bar
        if progress.phase == "scan":
            bar.setRange(0, 0)
            self.show_progress_text(i18n.tr("progress.scan"))
            return
        if progress.phase == "text":
            bar.setRange(0, max(progress.files_total, 1))
            bar.setValue(progress.files_done)
            text = i18n.tr("progress.text", done=progress.files_done, total=progress.files_total,
                           file=os.path.basename(progress.current_file) or "…")
            if progress.ocr_pages:  # OCR is slow: say which page of the current file
                text += " · " + i18n.tr("progress.ocr", page=progress.ocr_page, pages=progress.ocr_pages)
            rate = i18n.tr("progress.rate_files", rate=progress.rate) if progress.rate else ""
        elif progress.phase in ("embed", "reembed"):
            bar.setRange(0, max(progress.chunks_total, 1))
            bar.setValue(progress.chunks_embedded)
            text = i18n.tr(f"progress.{progress.phase}", done=progress.chunks_embedded, total=progress.chunks_total)
            rate = i18n.tr("progress.rate_chunks", rate=progress.rate) if progress.rate else ""
        else:
            bar.setRange(0, 1)
            bar.setValue(1)
            return
        eta = i18n.tr("progress.eta", eta=i18n.format_eta(progress.eta_seconds)) if progress.eta_seconds else ""
        self.show_progress_text(" · ".join(p for p in (text, rate, eta) if p))

    def update_totals(self) -> None:
        totals = self.model.totals()
        if not totals["sources"]:
            self.totals.setText(i18n.tr("library.empty_hint"))
        else:
            self.totals.setText(i18n.tr("library.totals", **totals))
