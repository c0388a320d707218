"""Where the chat's next question is asked: the search filter's folders and types, or one document ("Ask this
document", issue 40)."""

from __future__ import annotations

from PySide6.QtCore import QObject

from desktop_rag.gui.threads.backend import Backend
from desktop_rag.gui.views.chat_panel import ChatPanel
from desktop_rag.gui.views.file_scope import FileScopeBar
from desktop_rag.gui.views.search_filter import SearchFilterBar


class AskScope(QObject):
    """The search filter and the document in scope, between the chat's messages and its question box."""

    def __init__(self, backend: Backend, chat_panel: ChatPanel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.backend = backend
        self.chat_panel = chat_panel
        self.search_filter = SearchFilterBar(chat_panel)  # ask within a folder / a file type
        chat_panel.layout().insertWidget(2, self.search_filter)  # between the messages and the question box
        self.file_scope = FileScopeBar(chat_panel)  # "Ask this document": replaces the filters while set
        chat_panel.layout().insertWidget(3, self.file_scope)
        self.file_scope.cleared.connect(lambda: self.ask_in_file(None))
        backend.library_loaded.connect(self._library_loaded)

    def scope(self) -> dict:
        """Where the next question is asked: the document in scope, else the filters' folder and type."""
        if self.file_scope.path:
            return {"files": (self.file_scope.path,)}
        return {"folders": self.search_filter.folders, "types": self.search_filter.types}

    def ask_in_file(self, path: str | None) -> None:
        """Limit the next questions to the file at `path` ("Ask this document"; None: as the filters say)."""
        self.file_scope.set_path(path)
        self.search_filter.setEnabled(path is None)
        if path:
            self.chat_panel.input.setFocus()

    def check_file_scope(self) -> None:
        """The document asked in ("Ask this document") left the library (removed, its collection deleted): ask as
        the filters say again, read on the reader thread (every question would fail: not a file of the library)."""
        path, engine = self.file_scope.path, self.backend.engine
        if path:
            self.backend.run(lambda: engine.indexed_file(path)[0] is None,
                             lambda gone: gone and self.file_scope.path == path and self.ask_in_file(None))

    def _library_loaded(self, listing: tuple) -> None:
        """Offer the shown collection's source folders in the search filter."""
        self.search_filter.set_folders(source.path for source, _files in listing if source.kind == "folder")
