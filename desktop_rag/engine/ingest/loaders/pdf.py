"""PDF loader (pypdf): one section per page, 1-based page numbers, headers/footers removed; scanned pages by OCR."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.cleaning import clean_pages
from desktop_rag.engine.ingest.loaders import LoadContext
from desktop_rag.engine.types import ParsedDocument, Section

DAMAGED = "This PDF is damaged or is not a valid PDF file, so it could not be read"
TRUNCATED = "This PDF is incomplete (cut off before its end); it may not have finished downloading or copying"
PASSWORD_PREFIX = "This PDF is password-protected"
HOW_TO_UNLOCK = (
    "the app asks for the password when it finds the file (Re-index the file to be asked again); "
    'on the command line run: desktop-rag index --password PASSWORD "FILE"'
)
PASSWORD = f"{PASSWORD_PREFIX}: give its password to index it ({HOW_TO_UNLOCK})"
WRONG_PASSWORD = f"{PASSWORD_PREFIX} and the password given was not accepted ({HOW_TO_UNLOCK})"
NOT_PDF = "This file is not a PDF (it has no PDF header); it may be another kind of file renamed .pdf"
NO_TEXT = "This PDF has no text layer and no scanned page images, so there is nothing to index"
NO_TEXT_OCR_OFF = (
    "This PDF has no text layer (its pages are scanned images) and text recognition (OCR) is turned off "
    "in Settings, so there is nothing to index"
)
NO_TEXT_RECOGNISED = "This PDF has no text layer, and text recognition (OCR) found no readable text on its scanned pages"
MIN_TEXT_CHARS = 16  # a page with less text than this, and an image, is read by OCR (a scan with a stray page number)
MAX_IMAGES_PER_PAGE = 32


def needs_password(reason: str) -> bool:
    """True when a file's failure reason says it needs a (different) password."""
    return reason.startswith(PASSWORD_PREFIX)


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


def _decrypt(reader, password: str) -> None:
    """Open an encrypted PDF with the empty user password, else with `password`."""
    if reader.decrypt(""):
        return
    if not password:
        raise LoadError(PASSWORD)
    if not reader.decrypt(password):
        raise LoadError(WRONG_PASSWORD)


def _open_reader(path: Path, password: str = ""):
    """Open with pypdf, decrypting (RC4, AES-128, AES-256) with the empty password or the one given."""
    if not _has_pdf_header(path):
        raise LoadError(NOT_PDF)
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError

    try:
        reader = PdfReader(path, strict=False)
        if reader.is_encrypted:
            _decrypt(reader, password)
        if len(reader.pages) == 0:  # also forces the page tree to load
            raise LoadError("This PDF has no pages")
    except LoadError:
        raise
    except FileNotDecryptedError as exc:
        raise LoadError(WRONG_PASSWORD if password else PASSWORD) from exc
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


def _page_images(page) -> Iterator:
    """The page's embedded images worth reading (a scan is one image per page), as PIL images, one at a time."""
    from desktop_rag.engine.ingest.loaders import ocr

    try:
        files = list(page.images)[:MAX_IMAGES_PER_PAGE]
    except (MemoryError, RecursionError):
        raise
    except Exception:  # a broken image dictionary: no image rather than no document
        return
    for image_file in files:
        try:
            image = image_file.image
        except (MemoryError, RecursionError):
            raise
        except Exception:
            continue
        if image is not None and ocr.worth_reading(*image.size):
            ocr.check_size(*image.size)
            yield image


def _has_images(page) -> bool:
    try:
        return len(page.images) > 0
    except (MemoryError, RecursionError):
        raise
    except Exception:
        return False


def _recognise_pages(reader, texts: list[str], context: LoadContext) -> tuple[set[int], bool]:
    """OCR the pages with (almost) no text layer; returns (pages read by OCR, whether any page had images)."""
    from desktop_rag.engine.ingest.loaders import ocr

    wanted = [i for i, t in enumerate(texts) if len("".join(t.split())) < MIN_TEXT_CHARS]
    scanned = [i for i in wanted if _has_images(reader.pages[i])]
    if not scanned or not context.ocr:
        return set(), bool(scanned)
    recognised: set[int] = set()
    for n, index in enumerate(scanned):
        context.page(n + 1, len(scanned))
        parts = [ocr.recognise(image) for image in _page_images(reader.pages[index])]
        text = "\n\n".join(p for p in parts if p.strip())
        if len("".join(text.split())) > len("".join(texts[index].split())):
            texts[index] = text
            recognised.add(index)
    return recognised, True


def load_pdf(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load a PDF: one Section per page with text, page numbers 1-based; pages without text are OCR'd."""
    context = context or LoadContext()
    reader = _open_reader(path, context.password)
    texts = _page_texts(reader)
    recognised, had_images = _recognise_pages(reader, texts, context)
    pages = clean_pages(texts)
    sections = tuple(
        Section(text=t, page=i + 1, ocr=i in recognised) for i, t in enumerate(pages) if t.strip()
    )
    if not sections:
        if had_images and not context.ocr:
            raise LoadError(NO_TEXT_OCR_OFF)
        raise LoadError(NO_TEXT_RECOGNISED if had_images else NO_TEXT)
    return ParsedDocument(sections=sections)
