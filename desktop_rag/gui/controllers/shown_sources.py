"""The sources panel behind the chat: the selected answer's passages, checked against the library (a removed file,
a changed passage) and, when its files change, read again as the stored conversation holds them now."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from desktop_rag.gui.models.chat import ChatModel
from desktop_rag.gui.threads.backend import Backend
from desktop_rag.gui.views.chat_panel import ChatPanel
from desktop_rag.gui.views.sources_panel import SourcesPanel


class ShownSources(QObject):
    """Which answer's passages the sources panel shows (`selected_row`), and what became of them since."""

    moved = Signal(object)  # {cited Hit: the same passage where the library holds it now}, after a re-read

    def __init__(self, backend: Backend, chat_panel: ChatPanel, sources_panel: SourcesPanel,
                 conversation: Callable[[], int | None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.backend = backend
        self.chat_panel = chat_panel
        self.chat_model: ChatModel = chat_panel.messages.model
        self.panel = sources_panel
        self.model = sources_panel.model
        self.conversation = conversation  # the open conversation's id (None: a new one, not saved yet)
        self.selected_row = -1
        chat_panel.messages.message_selected.connect(self.select)
        chat_panel.messages.citation_clicked.connect(self.open_citation)

    def select(self, row: int) -> None:
        """Select the message at `row` and show its passages."""
        self.selected_row = row
        self.chat_panel.messages.select(row)
        self.show(row)

    def show(self, row: int) -> None:
        """Show the passages of the answer at `row` (none for another row)."""
        message = self.chat_model.message(row)
        if message is None or message.role != "assistant":
            self.model.set_sources(())
            return
        self.model.set_sources(message.sources, message.query)
        self.check()

    def open_citation(self, row: int, number: int) -> None:
        """A click on [n] in an answer: show that answer's sources and select passage n."""
        if self.selected_row != row:
            self.select(row)
        self.panel.select_number(number)

    def check(self) -> None:
        """Which of the shown passages' files are no longer in the library, and which passages no longer in their
        file (`Engine.held_passages`), read on the reader thread; the sources panel marks them
        (`SourcesModel.set_gone`) unless other passages are shown by then."""
        model, engine = self.model, self.backend.engine
        rows = model.rows()
        paths = {hit.path for _, hit in rows}
        if not paths:
            return

        def read() -> tuple[frozenset[str], frozenset[int]]:
            # the passages first, then their files: a removal committed between the two reads leaves its passages
            # "removed", never "changed" (a passage not held whose file is still there)
            held = engine.held_passages([hit for _, hit in rows])
            gone = frozenset(p for p in paths if engine.indexed_file(p)[0] is None)
            return gone, frozenset(hit.chunk_id for _, hit in rows if hit.path not in gone) - held

        def shown(found: tuple[frozenset[str], frozenset[int]]) -> None:
            if model.rows() is rows:
                model.set_gone(*found)
        self.backend.run(read, shown)

    def reread(self) -> None:
        """The open conversation's answers take their passages as stored now, as if it were reopened: an edited
        file's unchanged passages moved to new chunks (store/carried_references.py), so marking one, its grade's
        mark and the viewer find them. Read on the reader thread; an answer streaming (not saved yet) goes on as it
        was. The rows, their scroll, the question typed and the passage selected stay."""
        conversation, engine = self.conversation(), self.backend.engine
        if conversation is None:
            self.check()
            return
        self.backend.run(lambda: engine.messages(conversation), lambda turns: self._read(conversation, turns))

    def _read(self, conversation: int, turns: list) -> None:
        if conversation != self.conversation():  # another one opened meanwhile
            return
        number = self.panel.current_number()
        shown = self.model.rows()
        moved = self.chat_model.refresh_sources(turns)
        if any(hit in moved for _, hit in shown):  # the selected answer's: shown again, its passage still selected
            self.show(self.selected_row)
            self.panel.select_number(number)
        else:
            self.check()
        if moved:
            self.moved.emit(moved)
