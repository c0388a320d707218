"""Opening a PDF for text: PDFium first, pypdf where PDFium cannot; the reasons a person reads when neither can.

PDFium (pypdfium2, also the viewer's engine) decrypts every standard security handler (RC4 40/128, AES-128,
AES-256 R5 and R6) with the user or the owner password, so pypdf is kept only for what PDFium does not do: a
file PDFium refuses as malformed (pypdf repairs some files differently), a file whose owner password is empty
(pypdf opens it with "", PDFium asks for the user password), and re-reading a page whose PDFium text is broken
(`pdf.py`). Both are opened with the empty password first, then with the one given.
"""

from __future__ import annotations

from pathlib import Path

from desktop_rag.engine.errors import LoadError

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
NO_PAGES = "This PDF has no pages"
UNSUPPORTED_SECURITY = "This PDF is protected by a security handler other than the standard one, so it cannot be read"


def has_pdf_header(path: Path) -> bool:
    """PDFs start with %PDF- (some tools put a little junk before it)."""
    with path.open("rb") as fh:
        return b"%PDF-" in fh.read(1024)


def has_eof_marker(path: Path) -> bool:
    """A complete PDF ends with %%EOF (allowing a little trailing junk)."""
    with path.open("rb") as fh:
        fh.seek(0, 2)
        size = fh.tell()
        fh.seek(max(0, size - 2048))
        return b"%%EOF" in fh.read()


def damaged(path: Path) -> LoadError:
    return LoadError(DAMAGED if has_eof_marker(path) else TRUNCATED)


class Unreadable(Exception):
    """PDFium could not parse the file (not a password or security problem): pypdf may still read it."""


def open_pdfium(path: Path, password: str = ""):
    """A pypdfium2 PdfDocument, decrypted with the empty password or `password`; Unreadable when PDFium cannot
    parse the file, LoadError for a password or security handler problem or a file without pages."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    tries = [None, password] if password else [None]
    for attempt in tries:
        try:
            doc = pdfium.PdfDocument(str(path), password=attempt)
        except pdfium.PdfiumError as exc:
            code = getattr(exc, "err_code", None)
            if code == raw.FPDF_ERR_PASSWORD:
                if attempt is None and password:
                    continue
                raise LoadError(WRONG_PASSWORD if password else PASSWORD) from exc
            if code == raw.FPDF_ERR_SECURITY:
                raise LoadError(UNSUPPORTED_SECURITY) from exc
            raise Unreadable(str(exc)) from exc
        if len(doc) == 0:
            doc.close()
            raise LoadError(NO_PAGES)
        return doc
    raise AssertionError("unreachable")


def _decrypt(reader, password: str) -> None:
    """Open an encrypted PDF with the empty user password, else with `password`."""
    if reader.decrypt(""):
        return
    if not password:
        raise LoadError(PASSWORD)
    if not reader.decrypt(password):
        raise LoadError(WRONG_PASSWORD)


def open_pypdf(path: Path, password: str = ""):
    """A pypdf PdfReader, decrypted (RC4, AES-128, AES-256) with the empty password or the one given."""
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError

    try:
        reader = PdfReader(path, strict=False)
        if reader.is_encrypted:
            _decrypt(reader, password)
        if len(reader.pages) == 0:  # also forces the page tree to load
            raise LoadError(NO_PAGES)
    except LoadError:
        raise
    except FileNotDecryptedError as exc:
        raise LoadError(WRONG_PASSWORD if password else PASSWORD) from exc
    except DependencyError as exc:
        raise LoadError("This PDF uses an encryption method that needs the 'cryptography' package to read") from exc
    except (OSError, MemoryError):
        raise
    except Exception as exc:  # pypdf raises many exception types on broken files
        raise damaged(path) from exc
    return reader
