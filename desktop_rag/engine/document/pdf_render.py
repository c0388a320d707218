"""PDF pages for the viewer (pypdfium2): page sizes, rendering to BGRx pixels, per-character text and boxes."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.system_errors import foreign_reason
from desktop_rag.engine.ingest.loaders.pdf_pages import PDFIUM_LOCK, to_display  # noqa: F401  (re-exported)

# PDFium is not thread-safe: every call into it, from any thread (the viewer here, the PDF loader when it runs in
# this process), holds PDFIUM_LOCK.
MAX_RENDER_PIXELS = 40_000_000  # a page rendered larger than this (a huge page at a high zoom) is scaled down
MAX_RENDER_SIDE = 16_384  # pixels on either side (a 1e-6 x 1e9 point MediaBox bounds no area, only its sides)

Rect = tuple[float, float, float, float]  # left, top, right, bottom in points, top-left origin (as displayed)


@dataclass(frozen=True)
class PageImage:
    """One rendered page: BGRx pixels (QImage.Format_RGB32 on little-endian), at `scale` pixels per point."""

    page_index: int  # 0-based
    scale: float
    width: int
    height: int
    stride: int
    data: bytes

    @property
    def nbytes(self) -> int:
        return len(self.data)


def _pdfium():
    import pypdfium2 as pdfium

    return pdfium


def open_error(path: Path, exc: Exception, in_memory: bool = False) -> LoadError:
    """A readable reason why PDFium could not open a file (`in_memory`: its bytes, read from another file)."""
    text = str(exc).lower()
    if "password" in text:
        return LoadError.coded("view_password")
    if isinstance(exc, FileNotFoundError) or not (in_memory or path.exists()):
        return LoadError.coded("view_vanished")
    if "format" in text or "data" in text:
        return LoadError.coded("view_damaged")
    code = _PDFIUM_CODES.get(getattr(exc, "err_code", None))  # (PdfiumError's, when PDFium gave one)
    return LoadError.coded("view_unopenable", detail=Phrase(f"phrase.system.{code}") if code else foreign_reason(exc))


_PDFIUM_CODES = {1: "pdfium_unknown", 2: "pdfium_file", 5: "pdfium_security", 6: "pdfium_page"}  # FPDF_ERR_*


def render_scale(width: float, height: float, scale: float) -> float:
    """The scale a page of `width` x `height` points is drawn at: `scale` unless the bitmap would exceed a side
    or the pixel budget; LoadError when the page is so thin or so large that it would be under a pixel wide."""
    if not (0 < width < math.inf and 0 < height < math.inf and scale > 0):
        raise LoadError.coded("page_no_size")
    scale = min(scale, MAX_RENDER_SIDE / max(width, height), (MAX_RENDER_PIXELS / (width * height)) ** 0.5)
    if min(width, height) * scale < 1:
        raise LoadError.coded("page_bad_size", width=f"{width:.6g}", height=f"{height:.6g}")
    return scale


class OpenPdf:
    """What an open PDF says without PDFium: its pages' sizes (as displayed), whether it was closed."""

    page_sizes: tuple[tuple[float, float], ...] = ()
    _closed = False

    @property
    def page_count(self) -> int:
        return len(self.page_sizes)

    @property
    def closed(self) -> bool:
        return self._closed


class PdfFile(OpenPdf):
    """An open PDF; every method is safe to call from any thread (PDFium calls are serialised)."""

    def __init__(self, path: str | Path, data: bytes | None = None) -> None:
        """The PDF at `path`; with `data`, the PDF made of those bytes, which `path` names (an e-mail's
        attachment, read from its message)."""
        self.path = Path(path)
        self._closed = False
        pdfium = _pdfium()
        with PDFIUM_LOCK:
            try:
                self._doc = pdfium.PdfDocument(data if data is not None else str(self.path))
            except (pdfium.PdfiumError, OSError) as exc:
                raise open_error(self.path, exc, in_memory=data is not None) from exc
            # as displayed (/Rotate applied), read from the page dictionaries: no page is loaded (parsed) here
            self.page_sizes: tuple[tuple[float, float], ...] = tuple(
                tuple(map(float, self._doc.get_page_size(i))) for i in range(len(self._doc)))

    def close(self) -> None:
        with PDFIUM_LOCK:
            if not self._closed:
                self._closed = True
                self._doc.close()

    def _check(self) -> None:
        if self._closed:
            raise LoadError.coded("document_closed")

    # ---- rendering ----

    def render(self, index: int, scale: float, into: Callable[[int], memoryview | None] | None = None) -> PageImage:
        """Render page `index` (0-based) at `scale` pixels per point, scaled down to at most MAX_RENDER_SIDE
        pixels a side and MAX_RENDER_PIXELS in all; LoadError for a page that would not show at that size. With
        `into`, the pixels go to the buffer it gives for their size in bytes (the PageImage's data is then empty);
        where it gives none, they are the data."""
        scale = render_scale(*self.page_sizes[index], scale)
        with PDFIUM_LOCK:
            self._check()
            page = self._doc[index]
            try:
                bitmap = page.render(scale=scale, prefer_bgrx=True, draw_annots=True)
                try:
                    size = bitmap.stride * bitmap.height
                    buffer = into(size) if into is not None else None
                    if buffer is not None:
                        buffer[:size] = memoryview(bitmap.buffer).cast("B")[:size]
                        data = b""
                    else:
                        data = bytes(bitmap.buffer)
                    return PageImage(index, scale, bitmap.width, bitmap.height, bitmap.stride, data)
                finally:
                    bitmap.close()
            finally:
                page.close()

    # ---- text ----

    def page_text(self, index: int) -> str:
        """The page's text with exactly one character per PDFium character index."""
        pdfium = _pdfium()
        raw = pdfium.raw
        with PDFIUM_LOCK:
            self._check()
            page = self._doc[index]
            textpage = page.get_textpage()
            try:
                n = textpage.count_chars()
                text = textpage.get_text_range(0, n) if n else ""
                if len(text) == n and "\ufffe" not in text and "\ufeff" not in text:
                    return text  # the usual case: one UTF-16 unit per character, in one call
                chars = []
                for i in range(n):
                    code = raw.FPDFText_GetUnicode(textpage, i)
                    chars.append(chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else " ")
                return "".join(chars)
            finally:
                textpage.close()
                page.close()

    def char_boxes(self, index: int, start: int, end: int) -> list[Rect]:
        """Display rectangles of characters start..end-1 (empty boxes of generated spaces/newlines skipped)."""
        with PDFIUM_LOCK:
            self._check()
            page = self._doc[index]
            textpage = page.get_textpage()
            try:
                boxes = []
                for i in range(start, end):
                    left, bottom, right, top = textpage.get_charbox(i)
                    if right > left and top > bottom:
                        boxes.append(self._to_display(page, index, left, bottom, right, top))
                return boxes
            finally:
                textpage.close()
                page.close()

    def text_rects(self, index: int, start: int, end: int) -> list[Rect]:
        """Line rectangles covering characters start..end-1, as PDFium groups them (for the highlight)."""
        if end <= start:
            return []
        with PDFIUM_LOCK:
            self._check()
            page = self._doc[index]
            textpage = page.get_textpage()
            try:
                count = textpage.count_rects(start, end - start)
                rects = [textpage.get_rect(i) for i in range(count)]
                return [self._to_display(page, index, *r) for r in rects if r[2] > r[0] and r[3] > r[1]]
            finally:
                textpage.close()
                page.close()

    def _to_display(self, page, index: int, left: float, bottom: float, right: float, top: float) -> Rect:
        """Page space (bottom-left origin, unrotated) to display points (top-left origin, rotation applied)."""
        (x0, y0), (x1, y1) = (to_display(page, self.page_sizes[index], x, y) for x, y in ((left, bottom), (right, top)))
        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)
