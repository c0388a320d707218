"""What an index run says: its report, each file's change of state and its progress."""

from __future__ import annotations

from dataclasses import dataclass

from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.values import FailedFile


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
    links: tuple[FailedFile, ...] = ()  # links inside a source leading outside it: skipped, never followed
    kept: int = 0  # new chunks of files read again that kept an old chunk's vector (not embedded: kept_vectors.py)

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
            "links": [f.to_json("reason") for f in self.links],
            "kept": self.kept,
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
