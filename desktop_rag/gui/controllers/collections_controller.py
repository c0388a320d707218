"""Collections in the window: which one is shown and asked in, and create/rename/delete/export/import
(reads, exports and a conversation's choice on the reader; index changes on the index worker)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from desktop_rag.engine import DEFAULT_COLLECTION, Collection, Reason, UsageError
from desktop_rag.gui import i18n
from desktop_rag.gui.controllers.chat_controller import ChatController
from desktop_rag.gui.threads.backend import Backend
from desktop_rag.gui.views.collection_bar import AskingInLabel, CollectionBar

log = logging.getLogger(__name__)


class CollectionsController(QObject):
    """Holds the current collection (None: all) and tells the backend and the chat about it."""

    listing_changed = Signal(object)  # tuple[Collection, ...]
    current_changed = Signal(object)  # collection id or None
    failed = Signal(object)  # why a change or a read failed (a Reason), for the user
    exported = Signal(object)  # ExportReport
    imported = Signal(object)  # ImportReport
    # archive path, model problem (a Reason) or None, (the archive's name, a free one) when a collection here has
    # its name, or None, whether its documents cannot go beside it (a read-only place): ask before importing
    import_check = Signal(str, object, object, bool)
    # archive path, re-embed, its documents' folder (or None), (the name typed, a free one): the name typed is taken
    # (typed so, or taken meanwhile by another window or process): ask for another, as before importing
    name_taken = Signal(str, bool, object, object)

    def __init__(self, backend: Backend, chat: ChatController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.backend = backend
        self.chat = chat
        self.listing: tuple[Collection, ...] = ()
        self.current: int | None = None
        chat.conversation_collection.connect(self._conversation_opened)
        backend.library_changed.connect(self._library_changed)

    def attach(self, bar: CollectionBar, asking_in: AskingInLabel) -> None:
        """Connect the collection bar's requests to this controller, and show the listing and choice on both."""
        bar.chosen.connect(self.select)
        bar.create_requested.connect(self.create)
        bar.rename_requested.connect(self.rename)
        bar.delete_requested.connect(self.delete)
        bar.export_requested.connect(self.export)
        bar.import_requested.connect(self.check_import)
        bar.import_confirmed.connect(
            lambda path, reembed, name, documents: self.import_archive(path, reembed, documents, name=name))
        self.failed.connect(bar.show_failure)
        self.import_check.connect(bar.confirm_import)
        self.name_taken.connect(bar.ask_name_again)
        self.exported.connect(bar.show_exported)
        self.imported.connect(bar.show_imported)

        def show(_changed: object = None) -> None:
            bar.show_listing(self.listing, self.current)
            asking_in.show_scope(self.name_of(self.current), tuple(c.name for c in self.listing))

        self.listing_changed.connect(show)
        self.current_changed.connect(show)
        show()

    def _library_changed(self, change) -> None:
        if change.touches("files", "collections"):  # the listing shows each collection's files and chunks
            self.refresh()

    def refresh(self) -> None:
        engine = self.backend.engine
        self.backend.run(lambda: tuple(engine.collections()), self._loaded, self._listing_failed)

    def _listing_failed(self, reason: Reason) -> None:
        """The listing could not be read (a library's server gone, a wrong password at start): the status bar says
        why (its own read fails the same way) and the index run that follows once it can be read lists it again. No
        message box for a read."""
        log.warning("Collections could not be listed: %s", reason)

    def _loaded(self, listing: tuple) -> None:
        self.listing = listing
        if self.current is not None and all(c.id != self.current for c in listing):
            self.select(None)
        self.listing_changed.emit(listing)

    def name_of(self, collection: int | None) -> str | None:
        return next((c.name for c in self.listing if c.id == collection), None)

    def select(self, collection: int | None, remember: bool = True) -> None:
        """Show and ask within `collection`; the open conversation remembers it."""
        if collection == self.current:
            return
        self.current = collection
        self.backend.collection = collection
        self.chat.collection = collection
        conversation = self.chat.conversation_id
        if remember and conversation is not None:
            engine = self.backend.engine
            self.backend.edit(lambda: engine.set_conversation_collection(conversation, collection), ("conversations",))
        self.backend.refresh_library()
        self.current_changed.emit(collection)

    def _conversation_opened(self, _conversation_id: int, collection: object) -> None:
        self.select(collection if isinstance(collection, int) else None, remember=False)

    # ---- changes to the index (on the index worker, the one thread that writes it) ----

    def create(self, name: str) -> None:
        engine = self.backend.engine
        self.backend.write(lambda: engine.create_collection(name), ("collections",), self.select, self.failed.emit)

    def rename(self, collection: int, name: str) -> None:
        engine = self.backend.engine
        self.backend.write(lambda: engine.rename_collection(collection, name), ("collections",),
                           errback=self.failed.emit)

    def delete(self, collection: int) -> None:
        engine = self.backend.engine
        if self.current == collection:
            self.select(None)
        self.backend.indexer.cancel_collection(collection)  # a folder being indexed into it: stopped, not finished
        self.backend.write(lambda: engine.delete_collection(collection), ("collections", "files"),
                           errback=self.failed.emit)

    def export(self, collection: int, path: str, with_documents: bool) -> None:
        """Export to `path`, chosen in a save dialog (which asked before replacing a file)."""
        engine = self.backend.engine
        self.backend.run(lambda: engine.export_collection(collection, path, with_documents, replace=True),
                         self.exported.emit, self.failed.emit)

    def check_import(self, path: str) -> None:
        """Validate the archive, find whether its model differs and whether its name is taken here (import_check
        says; nothing is written)."""
        engine = self.backend.engine
        shown_default = i18n.collection_name(DEFAULT_COLLECTION, (c.name for c in self.listing))

        def check() -> tuple:
            content = engine.read_archive(path)
            free = engine.free_import_name(content.name)
            if free != content.name:  # taken: offer a name as the window shows it ("默认知识库 (2)")
                shown = shown_default if content.name == DEFAULT_COLLECTION else content.name
                free = engine.free_import_name(shown, (shown_default,))
            unwritable = bool(content.documents) and not os.access(Path(path).parent, os.W_OK)  # a USB stick, a disc
            return engine.archive_model_problem(content), (content.name, free) if free != content.name else None, \
                unwritable

        self.backend.run(check, lambda found: self.import_check.emit(path, *found), self.failed.emit)

    def import_archive(self, path: str, reembed: bool, documents_dir: str | None = None,
                       name: str | None = None) -> None:
        """Import the archive at `path` (`name`: under that name instead of its own); a name taken here is asked
        for again (`name_taken`), never refused with the CLI's advice to give `--name`."""
        engine = self.backend.engine

        def run():
            try:
                return engine.import_archive(path, name=name, reembed=reembed, documents_dir=documents_dir)
            except UsageError as exc:
                if exc.code != "import_name_taken":
                    raise
                taken = str(exc.values["name"])
                return taken, engine.free_import_name(taken)

        def done(result) -> None:
            if isinstance(result, tuple):
                self.name_taken.emit(path, reembed, documents_dir, result)
            else:
                self._imported(result)

        self.backend.write(run, ("collections", "files"), done, self.failed.emit)

    def _imported(self, report) -> None:
        if report.to_embed:  # the vector phase embeds them with this library's model
            from desktop_rag.gui.threads.index_worker import IndexRequest

            self.backend.indexer.submit(IndexRequest("index", (), collection=report.collection_id))
        self.select(report.collection_id)
        self.imported.emit(report)
