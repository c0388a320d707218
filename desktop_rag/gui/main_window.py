"""The main window: library | chat | sources in a splitter, status bar, drag and drop, settings, shutdown.

The chat area also holds the first-run start screen and the model banner (views/chat_area.py), driven by
controllers/first_run_flow.py, and the multilingual model offer (controllers/multilingual_offer.py). Settings have one owner, `AppSettings`; the window follows its `changed` signal.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QInputDialog, QMainWindow, QMessageBox, QSplitter, QToolBar, QWidget

from desktop_rag.config import AppPaths, Settings
from desktop_rag.engine import IndexStatus, Reason, is_supported, skipped_summary
from desktop_rag.gui import gc_guard, i18n
from desktop_rag.gui.controllers.chat_controller import ChatController
from desktop_rag.gui.controllers.first_run_flow import FirstRunFlow
from desktop_rag.gui.controllers.index_runs import IndexRuns
from desktop_rag.gui.controllers.multilingual_offer import MultilingualOffer
from desktop_rag.gui.controllers.password_prompt import PasswordPrompt
from desktop_rag.gui.controllers.settings_flow import SettingsFlow
from desktop_rag.gui.controllers.summary_flow import SummaryFlow
from desktop_rag.gui.controllers.viewer_controller import ViewerController
from desktop_rag.gui.models.chat import ChatModel, ConversationsModel
from desktop_rag.gui.models.library import LibraryModel
from desktop_rag.gui.models.sources import SourcesModel
from desktop_rag.gui.text import literal_html
from desktop_rag.gui.threads.app_settings import AppSettings
from desktop_rag.gui.threads.backend import Backend
from desktop_rag.gui.views.chat_area import ChatArea
from desktop_rag.gui.views.chat_panel import ChatPanel
from desktop_rag.gui.views.conversations_panel import ConversationsPanel
from desktop_rag.gui.views.library_label import LibraryLabel
from desktop_rag.gui.views.library_panel import LibraryPanel
from desktop_rag.gui.views.panel import ask_plain, plain_label, show_plain
from desktop_rag.gui.views.sources_panel import SourcesPanel


class MainWindow(QMainWindow):
    """Builds the three areas and wires them to the Backend (threads) and the ChatController."""

    status_updated = Signal(object)  # IndexStatus, after the status bar shows it
    index_finished = Signal(object)  # IndexReport, after the library shows it (index_runs)

    def __init__(self, paths: AppPaths, settings: Settings, start: bool = True) -> None:
        super().__init__()
        self.paths = paths
        self.app_settings = AppSettings(paths, settings, self)  # the one owner of the settings in use
        i18n.set_language(i18n.resolve_language(settings.ui_language))
        i18n.bind(self, QMainWindow.setWindowTitle, "app.title")
        self.qsettings = QSettings(str(paths.config_dir / "window.ini"), QSettings.Format.IniFormat)
        self.backend = Backend(paths, self.app_settings, self)
        self.library_model = LibraryModel(self)
        self.chat_model = ChatModel(self)
        self.conversations_model = ConversationsModel(self)
        self.sources_model = SourcesModel(self)
        self._build()
        self.chat = ChatController(self.backend, self.chat_panel, self.conversations_panel, self.sources_panel, self)
        self._build_collections()
        self.viewer = ViewerController(self.backend, self.sources_model, self)  # the in-app document viewer
        # after ShownSources.open_citation (ChatController connects it): the clicked answer's sources are shown first
        self.chat_panel.messages.citation_clicked.connect(self.viewer.open_citation)
        self.sources_panel.passage_requested.connect(self.viewer.open_number)
        self.chat.sources.moved.connect(self.viewer.passages_moved)
        self.viewer.ask_file_requested.connect(self.chat.ask_scope.ask_in_file)  # "Ask this document" (issue 40)
        self.library_panel.document_menu.ask_requested.connect(self.chat.ask_scope.ask_in_file)
        self.summaries = SummaryFlow(self.backend, self.chat, self)  # "Summarise this document" (issue 40)
        self.library_panel.document_menu.summarise_requested.connect(self.summaries.summarise)
        self.viewer.summarise_requested.connect(self.summaries.summarise)
        self.settings_flow = SettingsFlow(self.app_settings, self.backend, self)
        self._build_review()  # grading in the chat, the Review view (issue 39)
        self.password_prompt = PasswordPrompt(self.backend, self)  # locked PDFs: ask once, then re-read
        self.first_run = FirstRunFlow(self.chat_area, self.app_settings, self.library_model,
                                      self.backend.library_loaded, self.qsettings, self)
        self.multilingual_offer = MultilingualOffer(self.chat_area.offer, self.app_settings, self.settings_flow,
                                                    self.backend.status_changed, self)
        self._wire()
        self.model_state = ("loading", "")
        self.last_status: IndexStatus | None = None
        self.status_problem: Reason | None = None  # why the last status read failed (shown until one succeeds)
        self.restart_library: str | None = None  # set by `restart`: app.run starts the app again on this library
        self._closed = False
        self.setAcceptDrops(True)
        for child in self.findChildren(QWidget):
            child.setAcceptDrops(False)  # drops land on the window, wherever they happen
        self._restore_layout()
        if start:
            self.backend.start()
            self.chat.load_conversations()

    @property
    def settings(self) -> Settings:
        """The settings in use (read-only: change them with `app_settings.update`)."""
        return self.app_settings.current

    # ---- building ----

    def _build(self) -> None:
        self.main_splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.main_splitter.setObjectName("mainSplitter")
        self.main_splitter.setChildrenCollapsible(False)
        self.left_splitter = QSplitter(Qt.Orientation.Vertical, self.main_splitter)
        self.library_panel = LibraryPanel(self.library_model, self.left_splitter)
        self.conversations_panel = ConversationsPanel(self.conversations_model, self.left_splitter)
        self.left_splitter.setStretchFactor(0, 3)
        self.left_splitter.setStretchFactor(1, 2)
        self.chat_area = ChatArea(lambda parent: ChatPanel(self.chat_model, parent), self.main_splitter)
        self.chat_panel = self.chat_area.chat_panel
        self.start_screen = self.chat_area.start_screen
        if self.backend.engine.library.shared:
            self.start_screen.library_on_server()
        self.model_banner = self.chat_area.banner
        self.sources_panel = SourcesPanel(self.sources_model, self.main_splitter)
        for i, stretch in enumerate((2, 4, 3)):
            self.main_splitter.setStretchFactor(i, stretch)
        self.main_splitter.setSizes([330, 560, 410])
        self.main_splitter.setContentsMargins(8, 6, 8, 4)
        self.main_splitter.setHandleWidth(8)
        self.setCentralWidget(self.main_splitter)
        toolbar = QToolBar(self)
        toolbar.setObjectName("mainToolbar")
        toolbar.setMovable(False)
        self.settings_action = QAction(self)
        i18n.bind(self.settings_action, QAction.setText, "menu.settings")
        toolbar.addAction(self.settings_action)
        self.addToolBar(toolbar)
        self.model_label = plain_label(self)  # model names and load errors
        self.index_label = plain_label(self)
        self.library_label = LibraryLabel(self)  # which library is open (issue 46): this computer or a server
        self.statusBar().addWidget(self.index_label, 1)
        self.statusBar().addPermanentWidget(self.library_label)
        self.statusBar().addPermanentWidget(self.model_label)
        self._show_library()
        self.index_label.setText(i18n.tr("status.opening"))
        self.model_label.setText(i18n.tr("status.model_loading"))

    def _build_collections(self) -> None:
        """The collection selector above the library tree, and "asking in" under the chat title."""
        from desktop_rag.gui.controllers.collections_controller import CollectionsController
        from desktop_rag.gui.views.collection_bar import AskingInLabel, CollectionBar

        self.collections = CollectionsController(self.backend, self.chat, self)
        self.collection_bar = CollectionBar(self.library_panel)
        self.library_panel.layout().insertWidget(1, self.collection_bar)
        self.asking_in = AskingInLabel(self.chat_panel)
        self.chat_panel.layout().insertWidget(1, self.asking_in)
        self.collections.attach(self.collection_bar, self.asking_in)
        self.collections.refresh()

    def _build_review(self) -> None:
        from desktop_rag.gui.controllers.grading import GradingController
        from desktop_rag.gui.controllers.review_controller import ReviewController

        self.grading = GradingController(self.backend, self.chat, self)
        self.review = ReviewController(self.backend, self.collections, self)
        self.review_action = QAction(self)
        self.review_action.setShortcut(QKeySequence("Ctrl+Shift+R"))
        i18n.bind(self.review_action, QAction.setText, "menu.review")
        self.review_action.triggered.connect(self.review.open)
        self.findChild(QToolBar, "mainToolbar").addAction(self.review_action)

    def _wire(self) -> None:
        lib = self.library_panel
        lib.paths_chosen.connect(self.add_paths)
        lib.reindex_requested.connect(lambda path, _kind: self.password_prompt.forget(path))
        lib.reindex_requested.connect(self.reindex_path)
        lib.remove_requested.connect(self.confirm_remove)
        lib.link_requested.connect(self.link_source)
        b = self.backend
        b.library_loaded.connect(self.library_model.load)
        b.status_changed.connect(self._show_status)
        b.status_failed.connect(self._status_failed)
        self.index_runs = IndexRuns(b, lib, self.library_model, self.statusBar(), self)
        self.index_runs.finished.connect(self.index_finished)
        # the worker's thread drops each FileEvent into the model's inbox; the GUI thread applies them in slices
        b.indexer.file_event.connect(self.library_model.post, Qt.ConnectionType.DirectConnection)
        b.indexer.model_state.connect(self._model_state)
        b.watcher.watch_limited.connect(lib.show_watch_notice)
        self.conversations_panel.rename_requested.connect(self.rename_conversation)
        self.conversations_panel.delete_requested.connect(self.delete_conversation)
        self.settings_action.triggered.connect(self.settings_flow.open)
        self.settings_flow.restart_requested.connect(self.restart)
        self.settings_flow.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))
        first = self.first_run
        first.add_folder_requested.connect(self.library_panel.choose_folder)
        first.add_paths_requested.connect(self.add_paths)
        first.settings_requested.connect(self.settings_flow.open)
        self.app_settings.changed.connect(self._settings_changed)
        self.app_settings.save_failed.connect(self._settings_not_saved)
        i18n.on_change(self._retranslate)

    # ---- settings ----

    def _settings_changed(self, old: Settings, new: Settings) -> None:
        if new.ui_language != old.ui_language:
            i18n.set_language(i18n.resolve_language(new.ui_language))
        if new.library != old.library:
            self._show_library()

    def restart(self) -> None:
        """Close the window as on quitting (everything saved, every thread joined); `app.run` then starts the app
        again with the same command line, on the library the settings name."""
        self.restart_library = self.settings.library
        self.close()

    def _settings_not_saved(self, reason: Reason) -> None:
        show_plain(self, QMessageBox.Icon.Warning, i18n.tr("dialog.error"),
                   i18n.tr("settings.save_failed", path=str(self.paths.settings_file), reason=i18n.error(reason)))

    # ---- adding documents ----

    def add_paths(self, paths: list[str]) -> None:
        """Index files/folders (the Add folder / Add files buttons and drops end here)."""
        accepted, refused = [], []
        for raw in paths:
            path = os.path.realpath(raw)
            if os.path.isdir(path) or (os.path.isfile(path) and is_supported(path)):
                accepted.append(path)
            else:
                refused.append(os.path.basename(raw) or raw)
        self.library_panel.show_banner(
            i18n.tr("library.unsupported", names=", ".join(refused)) if refused else "")
        if refused:
            self.statusBar().showMessage(i18n.tr("library.unsupported", names=", ".join(refused)), 8000)
        if not accepted:
            return
        self.library_model.add_sources([(p, "folder" if os.path.isdir(p) else "file") for p in accepted])
        self.paused = False
        self.library_panel.set_paused(False)
        self.backend.add(accepted)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt override
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt override
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.add_paths(paths)

    # ---- library actions ----

    def reindex_path(self, path: str, kind: str) -> None:
        if kind == "folder":
            self.backend.force(self.library_model.files_of(path), [path])
        elif kind == "file":
            self.backend.force([path], [path])
        else:
            self.backend.force([path])

    def link_source(self, source: str, chosen: str) -> None:
        """Link a not-linked source to the folder the user chose, then index it (on the index worker)."""
        def failed(reason: Reason) -> None:
            show_plain(self, QMessageBox.Icon.Warning, i18n.tr("dialog.error"),
                       i18n.tr("library.link_failed", path=source, reason=reason))
        self.backend.link(source, chosen, failed)

    def confirm_remove(self, path: str) -> None:
        if ask_plain(self, i18n.tr("dialog.error"), i18n.tr("library.confirm_remove", path=path)):
            self.backend.remove(path)

    # ---- the status bar ----

    def _model_state(self, state: str, message: object) -> None:
        """`message`: the model's name, "done/total" while preparing, a Reason for 'error' and 'unopened'."""
        self.model_state = (state, message)
        if state == "ready":
            gc_guard.freeze()  # the model's objects live until exit: keep them out of full collections
        self._show_model_state()

    def _show_model_state(self) -> None:
        state, message = self.model_state
        message = i18n.error(message) if state in ("error", "unopened") else message
        if state == "ready":  # the library's model as the last status read it (an "auto" library can move to
            model = self.last_status.embedding_model if self.last_status else message  # e5 on its first Chinese text)
            self.model_label.setText(f"{i18n.tr('status.model_ready')} · {model}")
            self.model_label.setStyleSheet("color: #2e7d32;")
        elif state in ("error", "unopened"):  # unopened: the library could not be read (loaded once it can be)
            self.model_label.setText(i18n.tr("status.model_error", message=message[:120]) if state == "error"
                                     else i18n.tr("status.model_unopened"))
            self.model_label.setToolTip(literal_html(message))
            self.model_label.setStyleSheet("color: #c62828;")
        elif state == "preparing":
            done, _, total = message.partition("/")
            self.model_label.setText(i18n.tr("status.model_preparing", done=done, total=total))
            self.model_label.setStyleSheet("color: #8a6d00;")
        else:  # a library with vectors loads them too: answers are keyword-only meanwhile (the answer says so)
            stored = self.last_status.embedded_chunks if self.last_status else 0
            self.model_label.setText(i18n.tr("status.index_loading", count=f"{stored:,}") if stored > 0
                                     else i18n.tr("status.model_loading"))
            self.model_label.setStyleSheet("color: #8a6d00;")

    def _show_library(self) -> None:
        engine = self.backend.engine
        self.library_label.show_library(engine.library.location, engine.library.shared, self.backend.opened_library,
                                        self.settings.library)

    def _status_failed(self, reason: Reason) -> None:
        """The status could not be read (a library's server gone, a wrong password): said until a read succeeds."""
        self.status_problem = reason
        shown = i18n.error(reason)
        self.index_label.setText(shown)
        self.index_label.setToolTip(literal_html(shown))
        self.index_label.setStyleSheet("color: #c62828;")

    def _show_status(self, status: IndexStatus) -> None:
        if self.model_state[0] == "unopened":  # the library can be read now (its server is back, a password given):
            self.model_state = ("loading", "")  # what the start could not do
            self.backend.warm_up()
            self.backend.reconcile(None)  # (its end reads the listings again)
            self.chat.load_conversations()
        self.status_problem = None
        self.index_label.setStyleSheet("")
        self.index_label.setToolTip("")
        self.last_status = status
        text = i18n.tr("status.index", indexed=status.files_indexed, failed=status.files_failed,
                       pending=status.files_pending, chunks=status.chunks_pending_embedding)
        if status.skipped:
            text += " · " + skipped_summary(status.skipped, i18n.language())
        if status.reembed_model:
            text += " · " + i18n.tr("status.reembed", model=status.reembed_model, done=status.reembed_done,
                                    total=status.reembed_total)
        self.index_label.setText(text)
        if self.model_state[0] != "error":
            self._show_model_state()  # how many passages a loading index holds; which model the library uses
        self.status_updated.emit(status)

    def _retranslate(self) -> None:
        self._show_model_state()
        if self.status_problem is not None:
            self._status_failed(self.status_problem)
        elif self.last_status is not None:
            self._show_status(self.last_status)

    # ---- conversations ----

    def rename_conversation(self, conversation_id: int) -> None:
        current = self.conversations_model.title_of(conversation_id)
        title, ok = QInputDialog.getText(self, i18n.tr("conv.rename"), i18n.tr("conv.rename_prompt"), text=current)
        if ok and title.strip():
            self.chat.rename_conversation(conversation_id, title.strip())

    def delete_conversation(self, conversation_id: int) -> None:
        title = self.conversations_model.title_of(conversation_id)
        if ask_plain(self, i18n.tr("dialog.error"), i18n.tr("conv.confirm_delete", title=title)):
            self.grading.delete_conversation(conversation_id)  # asks whether to keep its grades, if any

    # ---- layout memory and shutdown ----

    def _restore_layout(self) -> None:
        q = self.qsettings
        if q.value("geometry") is not None:
            self.restoreGeometry(q.value("geometry"))
        else:
            self.resize(1300, 820)
        for key, splitter in (("mainSplitter", self.main_splitter), ("leftSplitter", self.left_splitter),
                              ("sourcesSplitter", self.sources_panel.splitter)):
            if q.value(key) is not None:
                splitter.restoreState(q.value(key))
        if q.value("windowState") is not None:
            self.restoreState(q.value("windowState"))

    def _save_layout(self) -> None:
        q = self.qsettings
        q.setValue("geometry", self.saveGeometry())
        q.setValue("windowState", self.saveState())
        q.setValue("mainSplitter", self.main_splitter.saveState())
        q.setValue("leftSplitter", self.left_splitter.saveState())
        q.setValue("sourcesSplitter", self.sources_panel.splitter.saveState())
        q.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        """Cancel indexing and streaming, finish a settings save, save the vector cache, join the threads.

        Nothing is lost; the one thread not waited for is a model still loading (Backend.shutdown).
        """
        if not self._closed:
            self._closed = True
            self._save_layout()
            self.hide()
            self.chat.shutdown()
            self.app_settings.close()
            self.backend.shutdown()  # joins every worker pool of the window, then the index worker
        event.accept()
