"""Summarise a document from the library's menu or the viewer (issue 40): the plan read off the GUI thread, the
estimate asked first when the summary takes more than one request (saying so when it passes the request limit,
`Settings.summary_request_limit`: the engine runs such a summary only when confirmed), then the summary streams in
the chat like an answer (ChatController.summarise), its progress shown and Stop cancelling it. A question with a
summary's shape ("summarise X", `summary_shaped`) gets the same estimate before it is asked
(ChatController.before_ask), and so does Regenerate on a summary (ChatController.before_summary)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMessageBox

from desktop_rag.engine import Reason, summary_shaped
from desktop_rag.gui import i18n
from desktop_rag.gui.controllers.chat_controller import ChatController
from desktop_rag.gui.threads.backend import Backend
from desktop_rag.gui.views.file_scope import shown_name
from desktop_rag.gui.views.panel import show_plain


class SummaryFlow(QObject):
    """`summarise(path)`: plan, ask when costly, stream. `estimate_box` is the question shown last (tests)."""

    def __init__(self, backend: Backend, chat: ChatController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.backend = backend
        self.chat = chat
        self.estimate_box: QMessageBox | None = None
        chat.before_ask = self.check_question
        chat.before_summary = self.check_summary

    def summarise(self, path: str) -> None:
        self.check_summary(path, lambda go, confirmed=False: go and self._start(path, confirmed))

    def check_summary(self, path: str, proceed: Callable[..., object]) -> None:
        """`proceed(go, confirmed)` once the summary of `path` is estimated (and asked about when it is costly)."""
        if self.chat.streaming or self.chat.checking or self.backend.stopped:
            return
        engine = self.backend.engine
        self.backend.run(lambda: engine.summary_plan(path), lambda plan: self._confirm(plan, proceed), self._failed)

    def check_question(self, question: str, scope: dict, proceed: Callable[..., object]) -> None:
        """`proceed(True)` at once for an ordinary question; for a summary question, after its estimate
        `proceed(True, confirmed=True)` (or `proceed(False)` when it is declined). A failed check goes on
        unconfirmed: the answer says what is wrong."""
        if not summary_shaped(question):
            proceed(True)
            return
        engine, chat = self.backend.engine, self.chat
        conversation, collection = chat.conversation_id, chat.collection
        self.backend.run(lambda: engine.summary_question_plan(question, conversation, collection, **scope),
                         lambda plan: self._confirm(plan, proceed) if plan else proceed(True),
                         lambda _message: proceed(True))

    def _confirm(self, plan, proceed: Callable[..., object]) -> None:
        """Ask before a summary of several requests (`proceed(yes, confirmed=yes)`); go on at once for one."""
        if plan.requests <= 1:
            proceed(True, True)
            return
        box = QMessageBox(QMessageBox.Icon.Question, i18n.tr("summary.estimate_title"),
                          i18n.tr("summary.estimate", name=shown_name(plan.path), sections=plan.sections,
                                  tokens=f"{plan.tokens:,}", requests=plan.requests),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self.chat.chat_panel)
        box.setTextFormat(Qt.TextFormat.PlainText)  # a file name
        limit = self.backend.engine.settings.summary_request_limit
        more = [i18n.tr("summary.over_limit", limit=limit)] if plan.requests > limit else []
        if plan.seconds:  # known once the model has answered in this session
            more.append(i18n.tr("summary.estimate_time", time=duration_text(plan.seconds)))
        box.setInformativeText(" ".join(more))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        yes = box.button(QMessageBox.StandardButton.Yes)
        box.finished.connect(lambda _result: proceed(box.clickedButton() is yes, box.clickedButton() is yes))
        self.estimate_box = box
        box.open()  # never exec(): the GUI thread does not wait in a nested loop

    def _start(self, path: str, confirmed: bool) -> None:
        self.chat.summarise(path, i18n.tr("summary.question", name=shown_name(path)), confirm_cost=confirmed)

    def _failed(self, reason: Reason) -> None:
        show_plain(self.chat.chat_panel, QMessageBox.Icon.Warning, i18n.tr("summary.failed_title"), i18n.error(reason))


def duration_text(seconds: float) -> str:
    """"40 seconds" (rounded to 10 s) or "3 minutes" (over 90 s), in the interface language."""
    if seconds <= 90:
        return i18n.tr("summary.seconds", n=max(10, round(seconds / 10) * 10))
    return i18n.tr("summary.minutes", n=round(seconds / 60))
