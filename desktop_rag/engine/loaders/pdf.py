"""PDF loader (pypdf): one section per page, 1-based page numbers, headers/footers removed."""

from __future__ import annotations

from pathlib import Path

from desktop_rag.engine.cleaning import clean_pages
from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.types import ParsedDocument, Section

DAMAGED = "This PDF is damaged or is not a valid PDF file, so it could not be read"
TRUNCATED = "This PDF is incomplete (cut off before its end); it may not have finished downloading or copying"
PASSWORD = "This PDF is password-protected; remove the password (or save an unprotected copy) to index it"
NOT_PDF = "This file is not a PDF (it has no PDF header); it may be another kind of file renamed .pdf"
NO_TEXT = (
    "This PDF has no text layer (it is probably scanned images); "
    "text recognition (OCR) is not supported, so there is nothing to index"
)


def _has_pdf_header(path: Path) -> bool:
    """PDFs start with %PDF- (some tools put a little junk before it)."""
    with path.open("rb") as fh:
        return b"%PDF-" in fh.read(1024)


def _has_eof_marker(path: Path) -> bool:
    """A complete PDF ends with %%EOF (allowing a little trailing junk)."""
    with path.open("rb") as fh:
        fh.seek(0, 2)
        size = fh.tell()
        fh.seek(max(0, size - 2048))
        return b"%%EOF" in fh.read()


def _open_reader(path: Path):
    """Open with pypdf, decrypting with the empty password when needed."""
    if not _has_pdf_header(path):
        raise LoadError(NOT_PDF)
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError

    try:
        reader = PdfReader(path, strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise LoadError(PASSWORD)
        if len(reader.pages) == 0:  # also forces the page tree to load
            raise LoadError("This PDF has no pages")
    except LoadError:
        raise
    except FileNotDecryptedError as exc:
        raise LoadError(PASSWORD) from exc
    except DependencyError as exc:
        raise LoadError(
            "This PDF uses an encryption method that needs the 'cryptography' package to read"
        ) from exc
    except (OSError, MemoryError):
        raise
    except Exception as exc:  # pypdf raises many exception types on broken files
        raise LoadError(DAMAGED if _has_eof_marker(path) else TRUNCATED) from exc
    return reader


def _page_texts(reader) -> list[str]:
    """Text of every page; a page that fails to extract counts as empty."""
    texts: list[str] = []
    failures = 0
    for page in reader.pages:
        try:
            texts.append(page.extract_text() or "")
        except (MemoryError, RecursionError):
            raise
        except Exception:  # a broken page should not lose the others
            failures += 1
            texts.append("")
    if texts and failures == len(texts):
        raise LoadError(DAMAGED)
    return texts


def load_pdf(path: Path) -> ParsedDocument:
    """Load a PDF: one Section per page with text, page numbers 1-based."""
    reader = _open_reader(path)
    pages = clean_pages(_page_texts(reader))
    sections = tuple(Section(text=t, page=i + 1) for i, t in enumerate(pages) if t.strip())
    if not sections:
        raise LoadError(NO_TEXT)
    return ParsedDocument(sections=sections)
