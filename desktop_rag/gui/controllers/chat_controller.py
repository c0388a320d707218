"""Chat behaviour: conversations, answers streamed by a worker (gui/threads/worker_pool.py), citations -> sources panel."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal

from desktop_rag.engine import (DoneEvent, ErrorEvent, Hit, IndexStatus, SourcesEvent, SummaryStep, ThinkingEvent,
                                TokenEvent)
from desktop_rag.gui import i18n
from desktop_rag.gui.controllers.ask_scope import AskScope
from desktop_rag.gui.controllers.shown_sources import ShownSources
from desktop_rag.gui.controllers.streamed_bubble import StreamedBubble
from desktop_rag.gui.models.chat import ChatModel, ConversationsModel, Message
from desktop_rag.gui.models.sources import SourcesModel
from desktop_rag.gui.text import short_title
from desktop_rag.gui.threads.backend import Backend
from desktop_rag.gui.threads.worker_pool import Worker, WorkerPool
from desktop_rag.gui.views.chat_panel import ChatPanel
from desktop_rag.gui.views.conversations_panel import ConversationsPanel
from desktop_rag.gui.views.sources_panel import SourcesPanel

log = logging.getLogger(__name__)
STORED_TITLE_CHARS = 300  # a new conversation's title: its question, cut if longer (listed cut to a few words)
HELD_COUNT_S = 0.25  # how often the count of an answer's held characters ("Writing… 1,240 characters") is updated


class ChatController(QObject):
    """Owns the answer worker; every model update happens here, on the GUI thread."""

    answer_started = Signal()
    token_received = Signal(str)
    answer_finished = Signal(object)  # the final Message
    conversations_loaded = Signal()
    messages_loaded = Signal()
    conversation_collection = Signal(int, object)  # an opened conversation's collection id (None: all)

    def __init__(self, backend: Backend, chat_panel: ChatPanel, conversations_panel: ConversationsPanel,
                 sources_panel: SourcesPanel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.backend = backend
        self.collection: int | None = None  # where new conversations ask (the collection selector sets it)
        self.chat_model: ChatModel = chat_panel.messages.model
        self.conversations_model: ConversationsModel = conversations_panel.model
        self.sources_model: SourcesModel = sources_panel.model
        self.chat_panel = chat_panel
        self.conversations_panel = conversations_panel
        self.sources_panel = sources_panel
        self.conversation_id: int | None = None
        self.answers = WorkerPool("desktop-rag-answer", 1, self)
        self.worker: Worker | None = None  # the answer streaming now
        self._deleting: tuple[int, bool] | None = None  # the open conversation to delete once its answer has stopped
        self._files_changed = False  # a files change came while the answer streamed: its turns are read again after
        self._row = -1
        self._bubble = StreamedBubble()  # the streaming answer's text: as the finished one reads
        self._held_at = 0.0  # when the count of its held characters was last shown (time.monotonic)
        self.sources = ShownSources(backend, chat_panel, sources_panel, lambda: self.conversation_id, self)
        chat_panel.ask.connect(self.ask)
        chat_panel.stop.connect(self.stop)
        chat_panel.messages.regenerate_requested.connect(self.regenerate)
        chat_panel.messages.sent_requested.connect(self.show_sent)
        self.sent_dialog = None  # the last "What was sent" dialog opened
        conversations_panel.opened.connect(self.open_conversation)
        conversations_panel.new_requested.connect(self.new_conversation)
        self.ask_scope = AskScope(backend, chat_panel, self)  # the search filter and "Ask this document"
        backend.status_changed.connect(self._status_changed)
        backend.library_changed.connect(self._library_changed)
        self.stored_vectors = 0  # passages with a vector in the library (the last status): what a load loads
        # (question, scope, go(bool, confirmed=False)): checks a question first (SummaryFlow's estimate); `confirmed`:
        # the user accepted a summary's cost (Engine.ask(confirm_cost): one over the request limit needs it)
        self.before_ask = None
        self.before_summary = None  # (path, go(bool, confirmed=False)): the same for Regenerate on a summary
        self._pending: object | None = None  # the question waiting for that check (a token: Stop drops it)
        self.summary_paths: dict[int, str] = {}  # answer row -> the file a summary of this session summarised
        i18n.on_change(self._update_title)

    # ---- conversations ----

    def _library_changed(self, change) -> None:
        if change.touches("conversations"):
            self.load_conversations()
        if change.touches("files"):
            self.ask_scope.check_file_scope()
            self.sources.reread()  # then the passages shown are checked: a removal, an edit (`ShownSources.check`)
            self._files_changed = self.streaming  # the answer saved after it names its passages as they are now

    def load_conversations(self, select: int | None = None) -> None:
        engine = self.backend.engine
        self.backend.run(engine.conversations, lambda rows: self._conversations_ready(rows, select))

    def _conversations_ready(self, rows: list, select: int | None) -> None:
        self.conversations_model.load(rows)
        self.conversations_panel.select_id(select if select is not None else self.conversation_id)
        self._update_title()
        self.conversations_loaded.emit()

    def open_conversation(self, conversation_id: int) -> None:
        if self.streaming or conversation_id == self.conversation_id:
            return
        self.conversation_id = conversation_id
        engine = self.backend.engine

        def read() -> tuple[list, bool]:  # (its turns, whether it is still there: another window may have deleted it)
            return engine.messages(conversation_id), any(c.id == conversation_id for c in engine.conversations())

        self.backend.run(read, lambda found: self._messages_ready(conversation_id, *found))
        self.backend.run(lambda: engine.conversation_collection(conversation_id),
                         lambda collection: self.conversation_collection.emit(conversation_id, collection))
        self._update_title()

    def _messages_ready(self, conversation_id: int, turns: list, there: bool) -> None:
        if conversation_id != self.conversation_id:  # another one opened meanwhile
            return
        if not there:  # deleted in another window: its questions would be saved nowhere; start anew instead
            self.new_conversation()
            self.load_conversations()
            return
        self.summary_paths.clear()
        self.chat_model.set_turns(turns)
        self.sources.select(self.chat_model.last_assistant_row())
        self.messages_loaded.emit()

    def new_conversation(self) -> None:
        """Start an empty chat; the conversation is created when the first question is asked."""
        if self.streaming:
            return
        self.conversation_id = None
        self.summary_paths.clear()
        self.chat_model.clear()
        self.sources_model.set_sources(())
        self.conversations_panel.select_id(None)
        self._update_title()

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        """Rename as a new conversation is titled: white space folded, cut to STORED_TITLE_CHARS."""
        engine = self.backend.engine
        title = short_title(" ".join(title.split()), STORED_TITLE_CHARS)
        self.backend.edit(lambda: engine.rename_conversation(conversation_id, title), ("conversations",))

    def delete_conversation(self, conversation_id: int, keep_grades: bool = False) -> None:
        """Delete a conversation; `keep_grades`: its graded answers stay in the review log (issue 39). The open one
        while its answer streams: the answer is stopped, and the conversation deleted once it has ended."""
        if conversation_id == self.conversation_id:
            if self.streaming:
                self._deleting = (conversation_id, keep_grades)
                self.stop()
                return
            self.new_conversation()
        engine = self.backend.engine
        self.backend.edit(lambda: engine.delete_conversation(conversation_id, keep_grades=keep_grades),
                          ("conversations",))

    def _update_title(self) -> None:
        title = self.conversations_model.title_of(self.conversation_id) if self.conversation_id else ""
        self.chat_panel.set_title(title or i18n.tr("chat.title"))

    # ---- asking ----

    @property
    def streaming(self) -> bool:
        return self.worker is not None

    @property
    def checking(self) -> bool:
        """A question waits for `before_ask` (a summary's estimate)."""
        return self._pending is not None

    def regenerate(self, row: int) -> None:
        """Ask a cached answer's question again, to the model (the stored answer is replaced); a stored summary is
        written anew."""
        previous = self.chat_model.message(row - 1)
        if previous is None or previous.role != "user" or self.streaming or self.checking:
            return
        if row in self.summary_paths:  # started from the document's menu: not a question to recognise again
            path = self.summary_paths[row]
            if self.before_summary is None:
                self.summarise(path, previous.text, refresh=True)
            else:  # its estimate again: the stored section summaries may be gone
                self.before_summary(path, lambda go, confirmed=False: go and self.summarise(
                    path, previous.text, refresh=True, confirm_cost=confirmed))
        else:
            self.ask(previous.text, refresh=True)

    def ask(self, question: str, refresh: bool = False) -> None:
        """Send a question (creating the conversation first when none is open); `refresh`: never a cached answer.
        With `before_ask` set (SummaryFlow), it decides first whether to go on (a long summary's estimate)."""
        if self.streaming or self.backend.stopped or self.checking:
            return
        scope = self.ask_scope.scope()
        if self.before_ask is None:
            self._ask(question, refresh, scope)
            return
        pending = self._pending = object()
        self.chat_panel.set_streaming(True)  # Stop drops the question (`stop`)

        def checked(go: bool, confirmed: bool = False) -> None:
            if self._pending is not pending:  # stopped meanwhile
                return
            self._pending = None
            self.chat_panel.set_streaming(False)
            if go:
                self._ask(question, refresh, scope, confirmed)

        self.before_ask(question, scope, checked)

    def _ask(self, question: str, refresh: bool, scope: dict, confirm_cost: bool = False) -> None:
        if self.streaming or self.backend.stopped:
            return
        # Engine.ask stops itself on the flag (ending with "Stopped.") and saves the turns of the conversation
        self.begin(question, lambda cid: self.stream(question, cid, self.backend.engine.ask, question, cid,
                                                     refresh=refresh, confirm_cost=confirm_cost, **scope))

    def summarise(self, path: str, text: str, refresh: bool = False, confirm_cost: bool = False) -> None:
        """Stream the summary of the file at `path` under the question `text` (`refresh`: written anew;
        `confirm_cost`: the user accepted its estimate, needed past the request limit)."""
        if self.streaming or self.backend.stopped:
            return
        engine = self.backend.engine

        def start(cid: int | None) -> None:
            self.stream(text, cid, engine.summarise, path, conversation_id=cid, question=text, refresh=refresh,
                        confirm_cost=confirm_cost)
            self.summary_paths[self._row] = path

        self.begin(text, start)

    def begin(self, question: str, start) -> None:
        """Create the conversation when none is open (titled by `question`), then `start(conversation id)`."""
        self.chat_panel.set_streaming(True)
        if self.conversation_id is None:
            engine = self.backend.engine
            title = short_title(" ".join(question.split()), STORED_TITLE_CHARS) or i18n.tr("conv.default_title")
            collection = self.collection
            self.backend.edit(lambda: engine.new_conversation(title, collection), ("conversations",),
                              start, lambda _msg: start(None))
        else:
            start(self.conversation_id)

    def stream(self, question: str, conversation: int | None, fn, /, *args, **kwargs) -> None:
        """Show `question` and a streaming answer fed by the events of `fn(*args, **kwargs, cancel=...)` (an
        answer, a summary) on the answer thread, which saves the turns in the conversation."""
        if self.backend.stopped:
            return
        self.conversation_id = conversation
        self.chat_model.append(Message("user", question))
        self._row = self.chat_model.append(Message("assistant", "", query=question, streaming=True))
        self._bubble.begin(0, 0, None)
        self._held_at = 0.0
        self.sources.select(self._row)
        worker = self.answers.start(fn, *args, cancel_kw="cancel", **kwargs)
        worker.yielded.connect(self._on_event)
        worker.errored.connect(lambda message: self._on_error(ErrorEvent(worker.failure(message))))
        worker.finished.connect(self._on_finished)
        self.worker = worker
        self.answer_started.emit()

    def _status_changed(self, status: IndexStatus) -> None:
        self.stored_vectors = status.embedded_chunks
        self.chat_panel.messages.set_has_documents(status.files_indexed > 0)

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
        elif self.checking:  # a question still being checked (a summary's estimate): it is not asked
            self._pending = None
            self.chat_panel.set_streaming(False)

    def _on_event(self, event: object) -> None:
        if isinstance(event, SourcesEvent):
            self._on_sources(event)
        elif isinstance(event, TokenEvent):
            self._on_token(event.text)
        elif isinstance(event, ThinkingEvent):  # (the engine sends a few a second at most)
            self.chat_model.update(self._row, thought=event.chars)
        elif isinstance(event, DoneEvent):
            self._on_done(event)
        elif isinstance(event, ErrorEvent):
            self._on_error(event)
        elif isinstance(event, SummaryStep):  # a summary of several requests: which one is running
            self.chat_model.update(self._row, notice=i18n.tr("summary.progress", done=event.done + 1,
                                                             total=event.total))

    def _on_sources(self, event: SourcesEvent) -> None:
        numbered = tuple((i + 1, hit) for i, hit in enumerate(event.hits))
        self._bubble.begin(len(event.hits), event.thinking_chars, event.thinks)
        query = event.query or self.chat_model.message(self._row).query
        self.chat_model.update(self._row, sources=numbered, query=query, prompt=event.prompt,
                               keyword_only=event.keyword_only, loading_passages=self.stored_vectors)
        if event.translations:  # shown under the question it translates (the row before the answer's)
            self.chat_model.update(self._row - 1, translations=event.translations)
        if self.sources.selected_row == self._row:
            self.sources.show(self._row)

    def _on_token(self, text: str) -> None:
        shown, now = self._bubble.feed(text), time.monotonic()
        if not self._bubble.held:
            self.chat_model.update(self._row, text=shown, held=0)
        elif now - self._held_at >= HELD_COUNT_S:  # (a few times a second: a count is read, not watched)
            self._held_at = now
            self.chat_model.update(self._row, text=shown, held=self._bubble.held)
        self.token_received.emit(text)

    def _on_done(self, event: DoneEvent) -> None:
        self._bubble.finish()
        self.chat_model.update(self._row, text=event.answer, mode=event.mode, notice=event.notice, streaming=False,
                               held=0, cached=event.cached, answer_id=event.answer_id)
        self._show_first_cited(event.cited)

    def _show_first_cited(self, cited: Sequence[Hit]) -> None:
        """The answer shown and its sources still at the first passage: show the one its first claim cites (an
        extractive answer may lead with the second passage); a passage the person chose meanwhile stays."""
        message, panel = self.chat_model.message(self._row), self.sources_panel
        if not cited or message is None or self.sources.selected_row != self._row:
            return
        number = next((n for n, hit in message.sources if hit.chunk_id == cited[0].chunk_id), 0)
        if number and panel.current_number() == self.sources_model.number(0):
            panel.select_number(number)

    def _on_error(self, event: ErrorEvent) -> None:
        message = self.chat_model.message(self._row)
        partial = event.partial or (message.text if message else "")
        self.chat_model.update(self._row, text=partial, error=event.message, streaming=False)

    def _on_finished(self) -> None:
        self.worker = None
        message = self.chat_model.message(self._row)
        if message is not None and message.streaming:  # the worker ended without a terminal event
            self.chat_model.update(self._row, streaming=False)
        self.chat_panel.set_streaming(False)
        if self.conversation_id is not None:
            self.backend.announce("conversations")  # Engine.ask saved the turns (on the answer worker)
        if self._files_changed:  # saved where the library holds its passages now (store/given_passages.py)
            self._files_changed = False
            self.sources.reread()
        self.answer_finished.emit(message)
        if self._deleting is not None:  # deleted while it streamed: the conversation goes now that it has stopped
            deleting, self._deleting = self._deleting, None
            self.delete_conversation(*deleting)

    def show_sent(self, row: int) -> None:
        """Open "What was sent" for the answer at `row` (read-only, copyable; not modal)."""
        from desktop_rag.gui.views.sent_dialog import SentDialog

        message = self.chat_model.message(row)
        if message is None or message.prompt is None:
            return
        self.sent_dialog = SentDialog(message.prompt, message.cached, self.chat_panel)
        self.sent_dialog.show()

    # ---- shutdown ----

    def shutdown(self) -> None:
        """Cancel a running answer and join its thread (Engine.ask saves what was answered so far)."""
        self.answers.shutdown()
