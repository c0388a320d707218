"""PDF loader: one section per page, 1-based page numbers, headers/footers removed; scanned pages by OCR.

Text comes from PDFium (`pdf_pages.PdfiumPages`), which reads the predefined CJK CMaps (GBK-EUC-H, UniGB-UCS2-H,
90ms-RKSJ-H, ...) pypdf reads wrong or not at all, and is about nine times faster; pypdf reads a file only where
PDFium cannot parse it (`pdf_open`). Every page's text is checked (`pdf_layer.broken`): a page whose text layer is
garbage is read again by the other engine, and if still broken, drawn and read by OCR like a scanned page (the
same OCR switch); it is never indexed as garbage. `ParsedDocument.notes` says how many pages were recovered so,
which pages were left out (unreadable, or past the file's OCR limits: `ocr_quota`), and a file whose text stays
broken on every page fails with the reason. Tables found on a page (`pdf_tables`)
leave its text and become Markdown row groups with the header repeated (`ingest.tables`), as Office tables do; a
table that runs on over the next page without repeating its header gets it there too (`pdf_tables.carry_headers`).
"""

from __future__ import annotations

from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.messages import Phrase, message
from desktop_rag.engine.ingest.cleaning import clean_pages
from desktop_rag.engine.ingest.loaders import LoadContext
from desktop_rag.engine.ingest.loaders.left_out import LeftOut
from desktop_rag.engine.ingest.loaders.ocr_boxes import Piece, Placement, page_lines, placed
from desktop_rag.engine.ingest.loaders.ocr_quota import OcrQuota
from desktop_rag.engine.ingest.loaders.pdf_layer import broken
from desktop_rag.engine.ingest.loaders.pdf_open import (  # noqa: F401  (re-exported: the reasons callers test)
    PASSWORD_CODES, Unreadable, damaged, has_pdf_header, open_pdfium, open_pypdf,
)
from desktop_rag.engine.ingest.loaders.pdf_pages import PdfiumPages, PypdfPages, holds_undrawn_picture
from desktop_rag.engine.ingest.loaders.pdf_tables import PageTables, carry_headers
from desktop_rag.engine.ingest.tables import table_sections
from desktop_rag.engine.ingest.documents import ParsedDocument, Section

NO_TEXT_OCR_OFF = message("error.pdf_no_text_ocr_off")
MIN_TEXT_CHARS = 16  # a page with less text than this, and an image, is read by OCR (a scan with a stray page number)


def needs_password(reason: object) -> bool:
    """True when a file's failure reason (a stored `Reason`, or the LoadError itself) says it needs a (different)
    password: by its code, never its words."""
    return getattr(reason, "code", None) in PASSWORD_CODES


def _open(path: Path, password: str) -> PdfiumPages | PypdfPages:
    """PDFium's pages, or pypdf's when PDFium cannot parse the file, or refuses a password pypdf accepts (a file
    whose owner password is empty opens in pypdf without its user password; PDFium asks for the latter)."""
    if not has_pdf_header(path):
        raise LoadError.coded("not_pdf")
    try:
        return PdfiumPages(open_pdfium(path, password))
    except Unreadable:
        return PypdfPages(open_pypdf(path, password))
    except LoadError as exc:
        if not needs_password(exc):
            raise
        try:
            return PypdfPages(open_pypdf(path, password))
        except LoadError:
            raise exc from None


def _reread(path: Path, password: str, primary, texts: list[str], bad: dict[int, str], unmapped: list[float]) -> None:
    """Read the broken pages again with the other engine; a page it reads well leaves `bad`. Its text is judged
    with PDFium's share of characters without a Unicode value, so that glyph numbers read as characters by
    pypdf too are still caught."""
    try:
        other = PypdfPages(open_pypdf(path, password)) if isinstance(primary, PdfiumPages) else None
    except LoadError:
        return
    if other is None or len(other) != len(texts):
        return
    for index in sorted(bad):
        text, _ = other.text(index)
        if text and text.strip() and broken(text, unmapped[index]) is None:
            texts[index] = text
            del bad[index]


def _read_texts(pages) -> tuple[list[str], dict[int, str], list[float], set[int]]:
    """Every page's text, the pages whose text is broken (index -> why), each page's share of unmapped characters,
    the pages that could not be loaded at all (all of them: the file is damaged)."""
    texts: list[str] = []
    bad: dict[int, str] = {}
    unmapped: list[float] = []
    unloadable: set[int] = set()
    for index in range(len(pages)):
        text, share = pages.text(index)
        if text is None:
            unloadable.add(index)
        texts.append(text or "")
        unmapped.append(share)
        if (reason := broken(texts[-1], share)) is not None:
            bad[index] = reason
    if texts and len(unloadable) == len(texts):
        raise LoadError.coded("pdf_damaged")
    return texts, bad, unmapped, unloadable


def _recognise(pages, texts: list[str], bad: dict[int, str], context: LoadContext, quota: OcrQuota,
               left_out: LeftOut) -> tuple[dict[int, list[Piece]], bool]:
    """OCR the scanned pages (almost no text, an image) and the broken ones (drawn), within the file's OCR limits
    (`quota`); returns (pages whose text came from OCR with their boxes placed on the page, whether any page was a
    scan). A broken page OCR cannot read, or not within the limits, is emptied (left out); a page whose recognition
    fails is named in the note."""
    from desktop_rag.engine.ingest.loaders import ocr

    scanned = [i for i, t in enumerate(texts)
               if i not in bad and len("".join(t.split())) < MIN_TEXT_CHARS and pages.has_images(i)]
    todo = sorted([*scanned, *bad]) if context.ocr else []
    if todo:
        ocr.engine()  # OCR missing is the file's reason, not each page's
    total = quota.total(len(todo))
    recognised: dict[int, list[Piece]] = {}
    for index in todo:
        if not quota.take(index + 1):
            continue
        context.page(quota.used, total)
        readings: list[tuple[ocr.Recognised, Placement | None]] = []
        with left_out.part("page", index + 1):  # an image too large to read, a drawing that fails
            if index in bad:
                image = pages.render(index)
                if image is not None:
                    readings.append((ocr.read(image), Placement.whole_page(*pages.size(index), *image.size)))
                del image
            else:
                readings = [(ocr.read(im), placement) for im, placement in pages.images(index)]
        readings = [(r, placement) for r, placement in readings if r.text.strip()]
        text = "\n\n".join(r.text for r, _ in readings)
        if len("".join(text.split())) > (0 if index in bad else len("".join(texts[index].split()))):
            texts[index] = text
            recognised[index] = [piece for r, placement in readings for piece in placed(r.boxes, placement)]
    for index in bad:
        if index not in recognised:
            texts[index] = ""
    return recognised, bool(scanned)


def _undrawn(path: Path, password: str, pages, texts: list[str], read: set[int]) -> list[int]:
    """The empty pages (not in `read`) that are scans whose content stream is damaged: PDFium draws nothing on them,
    yet they have content and a picture (pypdf reads their dictionaries); a blank page has neither."""
    empty = [i for i, text in enumerate(texts) if i not in read and not text.strip() and pages.draws_nothing(i)]
    if not empty:
        return []
    try:
        reader = open_pypdf(path, password)
    except LoadError:
        return []
    return [i for i in empty if holds_undrawn_picture(reader, i)]


def _page_sections(pages, cleaned: list[str], tables: dict[int, PageTables], recognised: dict[int, list[Piece]],
                   table_chars: int):
    """Each page's text as one Section (a recognised one with its boxes), then its tables as Markdown row groups
    with the header repeated."""
    for index, text in enumerate(cleaned):
        if text.strip():
            lines = page_lines(recognised[index], text, index + 1, pages.size(index)) if index in recognised else ()
            yield Section(text=text, page=index + 1, ocr=index in recognised, lines=lines)
        for rows in tables[index].tables if index in tables else ():
            yield from table_sections(rows, max_chars=table_chars, page=index + 1)


def load_pdf(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load a PDF: one Section per page with text, page numbers 1-based; scanned and broken pages are OCR'd
    within the file's OCR limits; pages left out are named in the file's notes."""
    context = context or LoadContext()
    quota, left_out = OcrQuota(context), LeftOut()
    pages = _open(path, context.password)
    try:
        texts, bad, unmapped, unloadable = _read_texts(pages)
        if bad:
            _reread(path, context.password, pages, texts, bad, unmapped)
        reasons = sorted(set(bad.values()))
        recognised, had_images = _recognise(pages, texts, bad, context, quota, left_out)
        undrawn = _undrawn(path, context.password, pages, texts, recognised.keys() | unloadable | bad.keys())
        tables = carry_headers({i: found for i, found in pages.tables.items() if i not in bad and i not in recognised})
        for index, found in tables.items():
            texts[index] = found.text
        cleaned = clean_pages(texts)
        sections = tuple(_page_sections(pages, cleaned, tables, recognised, context.table_chars))
    finally:
        pages.close()
    for index in sorted((unloadable - recognised.keys()) | set(undrawn)):
        left_out.add("page", index + 1)
    recovered = len(recognised.keys() & bad.keys())
    named = quota.skipped | set(left_out.parts.get("page", []))  # past a limit, or whose reading failed: noted so
    unread = len(bad) - recovered - len({i + 1 for i in bad} & named)
    if not sections:
        if (failure := left_out.failure()) is not None:  # the only pages failed: their reason is the file's
            raise failure
        if bad:
            raise LoadError.coded("pdf_broken" if context.ocr else "pdf_broken_ocr_off", reason=", ".join(reasons))
        if had_images and not context.ocr:
            raise LoadError.coded("pdf_no_text_ocr_off")
        raise LoadError.coded("pdf_no_text_recognised" if had_images else "pdf_no_text")
    notes = tuple(Phrase(note, n=n) for note, n in (("note.pdf_recovered", recovered), ("note.pdf_left_out", unread))
                  if n)
    return ParsedDocument(sections=sections, notes=notes + quota.notes() + left_out.notes())
