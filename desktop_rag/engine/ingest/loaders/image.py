"""Image loader (.png .jpg .tif .webp .bmp): photos and scans of pages read by local OCR, one section per frame."""

from __future__ import annotations

from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.cleaning import clean_pages
from desktop_rag.engine.ingest.loaders import LoadContext, ocr
from desktop_rag.engine.ingest.documents import ParsedDocument, Section
from desktop_rag.engine.ingest.loaders.left_out import LeftOut
from desktop_rag.engine.ingest.loaders.ocr_quota import OcrQuota

MAX_FRAMES = 2000  # pages of a multi-page TIFF
_DAMAGED = (OSError, SyntaxError, ValueError, EOFError)  # what Pillow raises on truncated or corrupt data


def _open(path: Path):
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = None  # our own limit (ocr.MAX_PIXELS) applies, with a clearer reason
    try:
        image = Image.open(path)
    except (UnidentifiedImageError, SyntaxError, ValueError) as exc:
        raise LoadError.coded("not_image") from exc
    ocr.check_size(*image.size)
    return image


def _frame_count(image) -> int:
    """How many frames (pages) the image has, at most MAX_FRAMES; counting walks a TIFF's page directory."""
    try:
        return max(1, min(getattr(image, "n_frames", 1) or 1, MAX_FRAMES))
    except _DAMAGED as exc:
        if isinstance(exc, (FileNotFoundError, PermissionError)):
            raise
        raise LoadError.coded("not_image") from exc


ORIENTATION = 0x0112  # the EXIF tag a camera turns a photo by, instead of its pixels


def _read_frame(image, index: int, count: int) -> str:
    """The text of frame `index` (0-based) of `count`; a photo turned by its EXIF orientation as it is shown (a
    phone's portrait photo of a page is stored sideways: read as stored it cost four readings instead of one)."""
    from PIL import ImageOps

    if count > 1:
        image.seek(index)
        ocr.check_size(*image.size)
    image.load()
    if image.getexif().get(ORIENTATION, 1) != 1:
        image = ImageOps.exif_transpose(image)
    return ocr.recognise(image)


def load_image(path: Path, context: LoadContext) -> ParsedDocument:
    """Recognise the text of every frame, within the file's OCR limits (`ocr_quota`); a multi-page TIFF keeps its
    page numbers, and its frames past a limit, or that could not be read (damaged, too large), are named in the
    file's note while the others are indexed."""
    if not context.ocr:
        raise LoadError.coded("image_ocr_off")
    quota, left_out = OcrQuota(context), LeftOut()
    texts: list[str] = []
    with _open(path) as image:
        count = _frame_count(image)
        ocr.engine()  # OCR missing is the file's reason, not each frame's
        for index in range(count):
            texts.append("")
            if not quota.take(index + 1):
                continue
            context.page(index + 1, quota.total(count))
            with left_out.part("page", index + 1, passing=(FileNotFoundError, PermissionError)):
                texts[index] = _read_frame(image, index, count)
    if quota.used and len(left_out.parts.get("page", ())) == quota.used:  # no frame read: the first one's reason
        failure = left_out.failure()
        raise failure if failure is not None else LoadError.coded("not_image") from left_out.first_error
    pages = clean_pages(texts)
    sections = tuple(
        Section(text=t, page=i + 1 if count > 1 else None, ocr=True) for i, t in enumerate(pages) if t.strip()
    )
    if not sections:
        raise LoadError.coded("image_no_text")
    notes = quota.notes() + (left_out.notes() if count > 1 else ())
    return ParsedDocument(sections=sections, notes=notes)
