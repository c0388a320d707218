"""Chat models: the messages of the open conversation and the list of conversations."""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from desktop_rag.engine import ANSWER_FAILED, ChatTurn, Hit, Localised, Reason, SentPrompt
from desktop_rag.gui.text import short_title

MessageRole = Qt.ItemDataRole.UserRole + 1
ConversationIdRole = Qt.ItemDataRole.UserRole + 2


@dataclass
class Message:
    """One chat bubble (GUI-thread only). `sources` are numbered passages: (n, hit)."""

    role: str
    text: str
    sources: tuple[tuple[int, Hit], ...] = ()
    query: str = ""
    mode: str = ""
    notice: Localised | str = ""  # the engine's (DoneEvent.notice) or a summary's progress
    error: Reason | str = ""  # why the answer failed (a worker's failure: already in the interface's language)
    streaming: bool = False
    held: int = 0  # characters of a streaming answer not shown yet: they may still prove to be thinking
    thought: int = 0  # characters its model has thought so far, in a `<think>` block (ThinkingEvent)
    keyword_only: bool = False  # searched while the vectors were loading: keyword matches only (SourcesEvent)
    loading_passages: int = 0  # how many passages that index holds (0: not known)
    cached: bool = False  # a stored answer replayed (DoneEvent.cached): the bubble offers Regenerate
    translations: tuple[tuple[str, str], ...] = ()  # a question's (language, translation) also searched
    prompt: SentPrompt | None = None  # what the answer's request sent ("What was sent"; SourcesEvent.prompt)
    answer_id: int | None = None  # the engine's answer log id: the answer can be graded (issue 39)
    grade: str = ""  # "right" | "partly" | "wrong" | "refused" | "" (not graded)
    passage: int | None = None  # the source number marked right; 0: none of them; None: not marked


def message_from_turn(turn: ChatTurn, question: str = "") -> Message:
    """A stored turn as the chat shows it; an answer that ended short with the note it was shown with live (a
    failed one's as its error), in the interface's language."""
    if turn.role == "assistant":
        said = turn.ending.reason if turn.ending is not None else ""
        failed = turn.ending is not None and turn.ending.state == ANSWER_FAILED
        return Message("assistant", turn.content, tuple(enumerate(turn.sources, 1)), question, prompt=turn.prompt,
                       notice="" if failed else said, error=said if failed else "")
    return Message("user", turn.content, translations=turn.translations)


def _where(hit: Hit) -> tuple:
    """Where a cited passage points in the library: its chunk and place."""
    return hit.chunk_id, hit.char_start, hit.char_end, hit.ordinal, hit.page


class ChatModel(QAbstractListModel):
    """The messages of the open conversation; the last one may be streaming."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._messages: list[Message] = []

    def set_turns(self, turns: list[ChatTurn]) -> None:
        self.beginResetModel()
        self._messages = []
        question = ""
        for turn in turns:
            self._messages.append(message_from_turn(turn, question))
            question = (turn.query or turn.content) if turn.role == "user" else question  # (what was searched)
        self.endResetModel()

    def refresh_sources(self, turns: list[ChatTurn]) -> dict[Hit, Hit]:
        """Give the answers shown the passages `turns` (the conversation as stored now) keeps for them, as reopening
        it would: each stored turn matched in order to the next message of its role and text (a streaming answer is
        not stored yet). Only answers whose passages now point elsewhere change (an edited file's unchanged passage
        on its new chunk, store/carried_references.py); the `ocr` flag, which turns stored by an older version lack,
        stays. Returns each cited passage replaced -> its replacement."""
        moved: dict[Hit, Hit] = {}
        rows = iter(range(len(self._messages)))
        for turn in turns:
            row = next((r for r in rows if self._messages[r].role == turn.role
                        and self._messages[r].text == turn.content), None)
            if row is None:
                break
            old = self._messages[row].sources
            new = message_from_turn(turn).sources
            if len(old) != len(new) or all(_where(a) == _where(b) for (_, a), (_, b) in zip(old, new)):
                continue
            pairs = {a: replace(b, ocr=a.ocr) for (_, a), (_, b) in zip(old, new, strict=True)}
            moved.update((a, b) for a, b in pairs.items() if a != b)
            self.update(row, sources=tuple((n, pairs[hit]) for n, hit in old))
        return moved

    def clear(self) -> None:
        self.set_turns([])

    def append(self, message: Message) -> int:
        row = len(self._messages)
        self.beginInsertRows(QModelIndex(), row, row)
        self._messages.append(message)
        self.endInsertRows()
        return row

    def message(self, row: int) -> Message | None:
        return self._messages[row] if 0 <= row < len(self._messages) else None

    def update(self, row: int, **changes) -> None:
        """Change fields of one message and notify views."""
        message = self._messages[row]
        for key, value in changes.items():
            setattr(message, key, value)
        index = self.index(row)
        self.dataChanged.emit(index, index)

    def last_assistant_row(self) -> int:
        for row in range(len(self._messages) - 1, -1, -1):
            if self._messages[row].role == "assistant":
                return row
        return -1

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._messages)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= len(self._messages):
            return None
        message = self._messages[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return message.text
        if role == MessageRole:
            return message
        return None


class ConversationsModel(QAbstractListModel):
    """Saved conversations, most recent first: each listed by its title cut to a few words (`short_title`), the
    whole title in its tooltip."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[int, str]] = []

    def load(self, conversations: list) -> None:
        self.beginResetModel()
        self._rows = [(c.id, c.title) for c in conversations]
        self.endResetModel()

    def row_of(self, conversation_id: int) -> int:
        for row, (cid, _) in enumerate(self._rows):
            if cid == conversation_id:
                return row
        return -1

    def title_of(self, conversation_id: int) -> str:
        row = self.row_of(conversation_id)
        return self._rows[row][1] if row >= 0 else ""

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        cid, title = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return short_title(title)
        if role == Qt.ItemDataRole.ToolTipRole:
            return title
        if role == ConversationIdRole:
            return cid
        return None
