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
from desktop_rag.engine.messages import message

PASSWORD_CODES = ("pdf_password", "pdf_wrong_password")  # the errors a password given later may cure
UNSUPPORTED_SECURITY = message("error.pdf_security")


def _password_error(password: str) -> LoadError:
    return LoadError.coded("pdf_wrong_password" if password else "pdf_password")


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
    return LoadError.coded("pdf_damaged" if has_eof_marker(path) else "pdf_truncated")


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
                raise _password_error(password) from exc
            if code == raw.FPDF_ERR_SECURITY:
                raise LoadError.coded("pdf_security") from exc
            raise Unreadable(str(exc)) from exc
        if len(doc) == 0:
            doc.close()
            raise LoadError.coded("pdf_no_pages")
        return doc
    raise AssertionError("unreachable")


def _decrypt(reader, password: str) -> None:
    """Open an encrypted PDF with the empty user password, else with `password`."""
    if reader.decrypt(""):
        return
    if not password:
        raise LoadError.coded("pdf_password")
    if not reader.decrypt(password):
        raise LoadError.coded("pdf_wrong_password")


def open_pypdf(path: Path, password: str = ""):
    """A pypdf PdfReader, decrypted (RC4, AES-128, AES-256) with the empty password or the one given."""
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError

    try:
        reader = PdfReader(path, strict=False)
        if reader.is_encrypted:
            _decrypt(reader, password)
        if len(reader.pages) == 0:  # also forces the page tree to load
            raise LoadError.coded("pdf_no_pages")
    except LoadError:
        raise
    except FileNotDecryptedError as exc:
        raise _password_error(password) from exc
    except DependencyError as exc:
        raise LoadError.coded("pdf_needs_cryptography") from exc
    except (OSError, MemoryError):
        raise
    except Exception as exc:  # pypdf raises many exception types on broken files
        raise damaged(path) from exc
    return reader
