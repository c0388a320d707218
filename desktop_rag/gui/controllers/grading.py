"""Grading answers in the chat (issue 39): the grade bar, the marked right passage, the "source opened" signal,
the grades of a reopened conversation, and deleting a conversation that has grades.

The model is updated at once on the GUI thread (the click shows without waiting); the engine writes the grade
on the reader thread (its own short transaction, like a conversation edit); a failure takes the change back."""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from desktop_rag.engine import Reason
from desktop_rag.gui import i18n
from desktop_rag.gui.models.chat import Message
from desktop_rag.gui.threads.backend import Backend

log = logging.getLogger(__name__)


def passage_number(message: Message, chunk_id: int | None, none_right: bool) -> int | None:
    """The [n] of the passage marked right (0: "none of them"; None: not marked)."""
    if none_right:
        return 0
    return next((n for n, hit in message.sources if hit.chunk_id == chunk_id), None) if chunk_id else None


def graded(answer) -> bool:
    """A logged answer the user graded or whose right passage they marked (or said none was)."""
    return bool(answer.grade or answer.right_chunk or answer.none_right or answer.wrong_chunks)


class GradingController(QObject):
    """Wires the chat's grade bars and the sources panel's marking to the engine's review log."""

    def __init__(self, backend: Backend, chat, window: QWidget) -> None:
        super().__init__(window)
        self.backend = backend
        self.chat = chat  # ChatController: its model, panels, selected answer and conversation
        self.window = window
        self.model = chat.chat_model
        self.keep_question: QMessageBox | None = None  # the open "keep the grades?" question
        messages = chat.chat_panel.messages
        messages.grade_requested.connect(self.grade)
        messages.citation_clicked.connect(self.source_opened)
        chat.sources_panel.passage_requested.connect(lambda n: self.source_opened(chat.sources.selected_row, n))
        chat.sources_panel.passage_marked.connect(self.mark)
        chat.sources_panel.passage_marked_wrong.connect(self.mark_wrong)
        chat.sources_model.modelReset.connect(self._sources_shown)
        self.model.dataChanged.connect(lambda *_: self._sources_shown())
        chat.messages_loaded.connect(self._load_grades)
        backend.library_changed.connect(lambda change: change.touches("grades") and self._load_grades())

    # ---- grades and marks ----

    def grade(self, row: int, grade: str) -> None:
        message = self.model.message(row)
        if message is None or message.answer_id is None or message.grade == grade:
            return
        before = message.grade
        self.model.update(row, grade=grade)
        engine, answer_id = self.backend.engine, message.answer_id
        self.backend.edit(lambda: engine.review.set_grade(answer_id, grade), ("grades",), None,
                          lambda reason: self._failed(message, reason, grade=before))

    def mark(self, number: int) -> None:
        """The sources panel marked passage [number] of the selected answer right (0: none of them)."""
        row = self.chat.sources.selected_row
        message = self.model.message(row)
        if message is None or message.answer_id is None or message.passage == number:
            return
        before = message.passage
        self.model.update(row, passage=number)
        engine, answer_id = self.backend.engine, message.answer_id
        chunk_id = dict(message.sources)[number].chunk_id if number else None  # None: "none of them"
        self.backend.edit(lambda: engine.review.mark_passage(answer_id, chunk_id, True), ("grades",), None,
                          lambda reason: self._failed(message, reason, passage=before))

    def mark_wrong(self, number: int) -> None:
        """The sources panel marked passage [number] of the selected answer wrong: with feedback on, it is not given
        to the model for this question again (search/feedback.py); the status bar says so."""
        message = self.model.message(self.chat.sources.selected_row)
        hit = dict(message.sources).get(number) if message is not None and message.answer_id is not None else None
        if hit is None:
            return
        engine, answer_id, chunk_id = self.backend.engine, message.answer_id, hit.chunk_id
        status = getattr(self.window, "statusBar", None)
        self.backend.edit(lambda: engine.review.mark_passage(answer_id, chunk_id, False), ("grades",),
                          lambda _: status and status().showMessage(i18n.tr("grade.wrong_marked", n=number), 10_000),
                          lambda reason: self._failed(message, reason))

    def _failed(self, message: Message, reason: Reason, **before) -> None:
        """Take the change back (when the answer is still shown) and say why."""
        row = self._row_of(message)
        if row >= 0:
            self.model.update(row, **before)
        log.warning("A grade was not saved: %s", reason)
        status = getattr(self.window, "statusBar", None)
        if status is not None:
            status().showMessage(i18n.tr("grade.not_saved", reason=reason), 10_000)

    def _row_of(self, message: Message) -> int:
        return next((r for r in range(self.model.rowCount()) if self.model.message(r) is message), -1)

    def _sources_shown(self) -> None:
        message = self.model.message(self.chat.sources.selected_row)
        gradable = message is not None and message.answer_id is not None and not message.streaming
        self.chat.sources_panel.set_marking_enabled(gradable and bool(message.sources))

    # ---- the "cited source opened" signal ----

    def source_opened(self, row: int, number: int) -> None:
        """The viewer opens passage [number] of the answer at `row`: one "opened" signal in the review log."""
        message = self.model.message(row)
        if message is None or message.answer_id is None:
            return
        hit = dict(message.sources).get(number)
        engine, answer_id = self.backend.engine, message.answer_id
        chunk_id = hit.chunk_id if hit is not None else None
        self.backend.run(lambda: engine.review.record_source_opened(answer_id, chunk_id))

    # ---- a reopened conversation ----

    def _load_grades(self) -> None:
        conversation = self.chat.conversation_id
        if conversation is None:
            return
        engine = self.backend.engine
        shown = [self.model.message(r) for r in range(self.model.rowCount())]
        self.backend.run(lambda: engine.review.logged_answers(conversation_id=conversation),
                         lambda logged: self._grades_ready(conversation, shown, logged))

    def _grades_ready(self, conversation: int, shown: list[Message], logged: list) -> None:
        """Match the logged answers to the assistant turns shown (in order, by question and text)."""
        if conversation != self.chat.conversation_id:
            return
        pending = list(logged)
        question = ""
        for message in shown:
            if message.role == "user":
                question = message.text
                continue
            found = next((a for a in pending if a.answer == message.text and a.question == question), None)
            row = self._row_of(message)
            if found is None or row < 0:
                continue
            pending = pending[pending.index(found) + 1:]
            now = {"answer_id": found.id, "grade": found.grade or "",
                   "passage": passage_number(message, found.right_chunk, found.none_right)}
            if any(getattr(message, key) != value for key, value in now.items()):  # (a bubble drawn again costs)
                self.model.update(row, **now)

    # ---- deleting a conversation ----

    def delete_conversation(self, conversation_id: int) -> None:
        """Delete (the user confirmed); when it has graded answers, ask first whether to keep their grades."""
        engine = self.backend.engine
        self.backend.run(lambda: any(map(graded, engine.review.logged_answers(conversation_id=conversation_id))),
                         lambda has: self._ask_keep(conversation_id) if has
                         else self.chat.delete_conversation(conversation_id))

    def _ask_keep(self, conversation_id: int) -> None:
        box = QMessageBox(QMessageBox.Icon.Question, i18n.tr("dialog.error"), i18n.tr("conv.keep_grades"),
                          QMessageBox.StandardButton.Cancel, self.window)
        keep = box.addButton(i18n.tr("conv.keep"), QMessageBox.ButtonRole.AcceptRole)
        forget = box.addButton(i18n.tr("conv.forget"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(keep)

        def done(_result: int) -> None:
            self.keep_question = None
            clicked = box.clickedButton()
            if clicked in (keep, forget):
                self.chat.delete_conversation(conversation_id, keep_grades=clicked is keep)
            box.deleteLater()

        box.finished.connect(done)
        self.keep_question = box
        box.open()
