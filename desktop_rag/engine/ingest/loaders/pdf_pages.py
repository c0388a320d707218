"""A PDF's pages through one engine: text, the share of characters without a Unicode value, scanned images, renders.

`PdfiumPages` (the usual reader) and `PypdfPages` (a file PDFium cannot parse, or a second reading of a page
whose PDFium text is broken) answer the same questions, so `pdf.py` does not care which it has. PDFium is not
thread-safe: every PDFium call here holds `PDFIUM_LOCK`, the lock the viewer (`document.pdf_render`) holds too.
"""

from __future__ import annotations

import ctypes
import re
import threading
from collections.abc import Iterator
from dataclasses import replace

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders.pdf_tables import PageTables, find_tables, looks_tabular

_LINE_END_HYPHEN = re.compile("\ufffe")  # PDFium's mark of a hyphen at a line end
PDFIUM_LOCK = threading.RLock()
MAX_IMAGES_PER_PAGE = 32
UNMAPPED_SAMPLE = 256  # characters of a page checked for a missing Unicode value (spread over the page)
RENDER_DPI = 200  # a page whose text layer is broken is rendered at this resolution for OCR
MAX_RENDER_PIXELS = 25_000_000  # ... and scaled down to at most this many pixels
DEVICE_PRECISION = 8  # device coordinates are integers: compute them at 8 px per point, then divide


def to_display(page, size: tuple[float, float], x: float, y: float) -> tuple[float, float]:
    """A point of `page` (a loaded pypdfium2 page; page space: bottom-left origin, unrotated) in display points
    (top-left origin, /Rotate applied) of a page `size` as displayed; the caller holds PDFIUM_LOCK."""
    import pypdfium2.raw as raw

    size_x, size_y = int(size[0] * DEVICE_PRECISION), int(size[1] * DEVICE_PRECISION)
    dx, dy = ctypes.c_int(), ctypes.c_int()
    raw.FPDF_PageToDevice(page.raw, 0, 0, size_x, size_y, 0, x, y, ctypes.byref(dx), ctypes.byref(dy))
    return dx.value / DEVICE_PRECISION, dy.value / DEVICE_PRECISION


class PdfiumPages:
    """Pages of a PDFium document (pypdfium2 PdfDocument); closes it with `close`."""

    def __init__(self, doc) -> None:
        self._doc = doc
        self.tables: dict[int, PageTables] = {}  # page index -> its tables and its text without them (`text`)

    def __len__(self) -> int:
        return len(self._doc)

    def close(self) -> None:
        with PDFIUM_LOCK:
            self._doc.close()

    def text(self, index: int) -> tuple[str | None, float]:
        """The page's text (PDFium's reading order, lines ended by CR LF; None when the page cannot be loaded) and
        the share of its characters that have no Unicode value (a font with no usable ToUnicode map or encoding).
        A page that looks tabular is searched for tables (`pdf_tables`), kept in `tables`."""
        import pypdfium2 as pdfium
        import pypdfium2.raw as raw

        with PDFIUM_LOCK:
            try:
                page = self._doc[index]
            except pdfium.PdfiumError:
                return None, 0.0
            try:
                textpage = page.get_textpage()
                try:
                    count = textpage.count_chars()
                    if count <= 0:
                        return "", 0.0
                    raw_text = textpage.get_text_range(0, count)
                    text = _LINE_END_HYPHEN.sub(_hyphen, raw_text)
                    if (spans := looks_tabular(textpage, text)) and (found := find_tables(textpage, raw_text, spans)):
                        self.tables[index] = replace(found, text=_LINE_END_HYPHEN.sub(_hyphen, found.text))
                    step = max(1, count // UNMAPPED_SAMPLE)
                    sample = range(0, count, step)
                    unmapped = sum(1 for i in sample if raw.FPDFText_HasUnicodeMapError(textpage, i) == 1)
                    return text, unmapped / len(sample)
                finally:
                    textpage.close()
            finally:
                page.close()

    def _ask(self, index: int, question) -> bool:
        """`question(page)` about a loaded page, under the PDFium lock; False when the page cannot be loaded."""
        import pypdfium2 as pdfium

        with PDFIUM_LOCK:
            try:
                page = self._doc[index]
            except pdfium.PdfiumError:
                return False
            try:
                return question(page)
            finally:
                page.close()

    def has_images(self, index: int) -> bool:
        import pypdfium2.raw as raw

        return self._ask(index, lambda page: next(iter(page.get_objects(filter=(raw.FPDF_PAGEOBJ_IMAGE,),
                                                                        max_depth=3)), None) is not None)

    def draws_nothing(self, index: int) -> bool:
        """True when PDFium finds no object at all on the page (blank, or its content stream is damaged)."""
        import pypdfium2.raw as raw

        return self._ask(index, lambda page: raw.FPDFPage_CountObjects(page.raw) == 0)

    def size(self, index: int) -> tuple[float, float]:
        """Page `index`'s size in points as displayed (/Rotate applied), from its dictionary."""
        with PDFIUM_LOCK:
            return tuple(map(float, self._doc.get_page_size(index)))  # type: ignore[return-value]

    def images(self, index: int) -> Iterator:
        """The page's images worth reading (a scan is one image per page), as PIL images with where each is drawn
        on the page (`ocr_boxes.Placement`; None for one inside a form), one at a time; LoadError when there were
        some and none could be decoded (a damaged scan: the page is left out, named)."""
        from desktop_rag.engine.ingest.loaders import ocr
        import pypdfium2.raw as raw

        size = self.size(index)
        with PDFIUM_LOCK:
            page = self._doc[index]
            found = list(page.get_objects(filter=(raw.FPDF_PAGEOBJ_IMAGE,), max_depth=3))[:MAX_IMAGES_PER_PAGE]
        decoded = damaged = 0
        try:
            for obj in found:  # the lock is held while an image is decoded, not while it is read by OCR
                with PDFIUM_LOCK:
                    width, height = obj.get_px_size()
                    if not ocr.worth_reading(width, height):
                        continue
                    ocr.check_size(width, height)
                    image, drawn = _decoded(obj)
                    placement = _placement(page, size, obj, *image.size) if image is not None and not drawn else None
                if image is None:
                    damaged += 1
                    continue
                decoded += 1
                yield image, placement
        finally:
            with PDFIUM_LOCK:
                page.close()
        if damaged and not decoded:
            raise LoadError.coded("scan_damaged")

    def render(self, index: int):
        """The page drawn as a PIL image (white background) at RENDER_DPI, for OCR of a page whose text is broken."""
        with PDFIUM_LOCK:
            page = self._doc[index]
            try:
                width, height = page.get_size()
                scale = RENDER_DPI / 72
                if width * height * scale * scale > MAX_RENDER_PIXELS:
                    scale = (MAX_RENDER_PIXELS / max(width * height, 1.0)) ** 0.5
                bitmap = page.render(scale=scale, draw_annots=False, grayscale=True)
                try:
                    return bitmap.to_pil().copy()
                finally:
                    bitmap.close()
            finally:
                page.close()


def _placement(page, size: tuple[float, float], obj, width: int, height: int):
    """Where an image object of `page` is drawn, in display points (its matrix maps the unit square, the image's
    bottom-left corner at its origin, onto the page); None for one inside a form (its matrix is the form's)."""
    from desktop_rag.engine.ingest.loaders.ocr_boxes import Placement

    if obj.level > 0:
        return None
    import pypdfium2 as pdfium

    try:
        m = obj.get_matrix()
    except pdfium.PdfiumError:  # no matrix: the image is read, its boxes are not kept
        return None

    def corner(u: float, v: float) -> tuple[float, float]:
        return to_display(page, size, m.a * u + m.c * v + m.e, m.b * u + m.d * v + m.f)

    return Placement(corner(0, 1), corner(1, 1), corner(0, 0), width, height)


def _hyphen(match: re.Match) -> str:
    """PDFium writes U+FFFE for a hyphen at a line end and joins the lines: "exam\ufffeple" is "example"; before
    anything but a lower-case letter the hyphen stays ("Jean\ufffeMarc")."""
    after = match.string[match.end():match.end() + 1]
    return "" if after.islower() else "-"


def _decoded(obj):
    """An image object's pixels as a PIL image: its own bitmap, else PDFium's rendering of it (drawn as the page
    shows it: True second); None if neither (a rendering with nothing drawn: PDFium draws a damaged JPEG as a
    transparent rectangle)."""
    import pypdfium2 as pdfium

    for render in (False, True):
        try:
            bitmap = obj.get_bitmap(render=render)
            try:
                image = bitmap.to_pil().copy()
            finally:
                bitmap.close()
        except (pdfium.PdfiumError, ValueError, KeyError, OSError):
            continue
        if render and image.mode == "RGBA" and image.getchannel("A").getextrema() == (0, 0):
            return None, True
        return image, render
    return None, True


class PypdfPages:
    """Pages of a pypdf PdfReader: text and scanned images (no rendering: pypdf cannot draw a page)."""

    def __init__(self, reader) -> None:
        self._reader = reader
        self.tables: dict[int, PageTables] = {}  # pypdf gives no character boxes: no tables

    def __len__(self) -> int:
        return len(self._reader.pages)

    def close(self) -> None:
        return None

    def text(self, index: int) -> tuple[str | None, float]:
        """The page's text; None for a page that fails to extract."""
        try:
            return self._reader.pages[index].extract_text() or "", 0.0
        except (MemoryError, RecursionError):
            raise
        except Exception:  # a broken page should not lose the others
            return None, 0.0

    def size(self, index: int) -> tuple[float, float]:
        """(0, 0): pypdf's pictures have no placement here (`images`), so no box is placed on its pages."""
        return 0.0, 0.0

    def draws_nothing(self, index: int) -> bool:
        """False: pypdf lists a page's pictures from its resources (`has_images`), whatever its content stream."""
        return False

    def has_images(self, index: int) -> bool:
        try:
            return len(self._reader.pages[index].images) > 0
        except (MemoryError, RecursionError):
            raise
        except Exception:
            return False

    def images(self, index: int) -> Iterator:
        """As PdfiumPages.images (no placement: pypdf does not say where a picture is drawn): LoadError when the page
        had pictures and none could be decoded."""
        from desktop_rag.engine.ingest.loaders import ocr

        try:
            files = self._reader.pages[index].images  # each decoded when taken: one damaged fails alone
            count = min(len(files), MAX_IMAGES_PER_PAGE)
        except (MemoryError, RecursionError):
            raise
        except Exception:  # a broken image dictionary: no image rather than no document
            return
        decoded = damaged = 0
        for number in range(count):
            try:
                image = files[number].image
            except (MemoryError, RecursionError):
                raise
            except Exception:  # a damaged picture
                image = None
            if image is None:
                damaged += 1
            elif ocr.worth_reading(*image.size):
                ocr.check_size(*image.size)
                decoded += 1
                yield image, None
        if damaged and not decoded:
            raise LoadError.coded("scan_damaged")

    def render(self, index: int):
        return None


def holds_undrawn_picture(reader, index: int) -> bool:
    """True when page `index` of a pypdf PdfReader has content (or content that cannot be decoded) and a picture
    among its resources: a page PDFium draws nothing on (`draws_nothing`) is then a scan whose content stream is
    damaged, not a blank page."""
    try:
        page = reader.pages[index]
        resources = page.get("/Resources")
        objects = resources.get_object().get("/XObject") if resources is not None else None
        if objects is None or not any(o.get_object().get("/Subtype") == "/Image"
                                      for o in objects.get_object().values()):
            return False
    except (MemoryError, RecursionError):
        raise
    except Exception:  # a broken resource dictionary
        return False
    try:
        contents = page.get_contents()
        return contents is not None and bool(contents.get_data().strip())
    except (MemoryError, RecursionError):
        raise
    except Exception:  # content that cannot be decoded
        return True
