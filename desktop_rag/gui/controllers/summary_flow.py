"""Summarise a document from the library's menu or the viewer (issue 40): the plan read off the GUI thread, the
estimate asked first when the summary takes more than one request, then the summary streams in the chat like an
answer (ChatController.stream), its progress shown and Stop cancelling it."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMessageBox

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

    def summarise(self, path: str) -> None:
        if self.chat.streaming or self.backend.stopped:
            return
        engine = self.backend.engine
        self.backend.run(lambda: engine.summary_plan(path), lambda plan: self._planned(path, plan), self._failed)

    def _planned(self, path: str, plan) -> None:
        if plan.requests <= 1:
            self._start(path)
            return
        box = QMessageBox(QMessageBox.Icon.Question, i18n.tr("summary.estimate_title"),
                          i18n.tr("summary.estimate", name=shown_name(path), sections=plan.sections,
                                  tokens=f"{plan.tokens:,}", requests=plan.requests),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self.chat.chat_panel)
        box.setTextFormat(Qt.TextFormat.PlainText)  # a file name
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        yes = box.button(QMessageBox.StandardButton.Yes)
        box.finished.connect(lambda _result: box.clickedButton() is yes and self._start(path))
        self.estimate_box = box
        box.open()  # never exec(): the GUI thread does not wait in a nested loop

    def _start(self, path: str) -> None:
        if self.chat.streaming or self.backend.stopped:
            return
        text = i18n.tr("summary.question", name=shown_name(path))
        engine = self.backend.engine
        self.chat.begin(text, lambda cid: self.chat.stream(text, cid, engine.summarise, path, conversation_id=cid,
                                                           question=text))

    def _failed(self, message: str) -> None:
        show_plain(self.chat.chat_panel, QMessageBox.Icon.Warning, i18n.tr("summary.failed_title"), message)
