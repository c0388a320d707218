"""What a reader gives: a document's sections, its notes and the documents it carries (an e-mail's attachments)."""

from __future__ import annotations

from dataclasses import dataclass

from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.store.values import OcrLine


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
    # a scanned PDF page's recognised boxes, their offsets into `text` (loaders.ocr_boxes): the viewer's highlight
    lines: tuple[OcrLine, ...] = ()


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
