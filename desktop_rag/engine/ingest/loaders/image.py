"""Image loader (.png .jpg .tif .webp .bmp): photos and scans of pages read by local OCR, one section per frame."""

from __future__ import annotations

from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.cleaning import clean_pages
from desktop_rag.engine.ingest.loaders import LoadContext, ocr
from desktop_rag.engine.ingest.documents import ParsedDocument, Section
from desktop_rag.engine.ingest.loaders.ocr_quota import OcrQuota

MAX_FRAMES = 2000  # pages of a multi-page TIFF


def _open(path: Path):
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = None  # our own limit (ocr.MAX_PIXELS) applies, with a clearer reason
    try:
        image = Image.open(path)
    except (UnidentifiedImageError, SyntaxError, ValueError) as exc:
        raise LoadError.coded("not_image") from exc
    ocr.check_size(*image.size)
    return image


def _frames(image):
    """Each frame (page) of the image in turn."""
    count = min(getattr(image, "n_frames", 1) or 1, MAX_FRAMES)
    for index in range(count):
        if count > 1:
            image.seek(index)
            ocr.check_size(*image.size)
        yield index, count, image


def load_image(path: Path, context: LoadContext) -> ParsedDocument:
    """Recognise the text of every frame, within the file's OCR limits (`ocr_quota`); a multi-page TIFF keeps its
    page numbers, and its frames past a limit are named in the file's note."""
    if not context.ocr:
        raise LoadError.coded("image_ocr_off")
    quota = OcrQuota(context)
    texts: list[str] = []
    with _open(path) as image:
        count = 1
        try:
            for index, count, frame in _frames(image):
                if not quota.take(index + 1):
                    texts.append("")
                    continue
                context.page(index + 1, quota.total(count))
                frame.load()
                texts.append(ocr.recognise(frame))
        except (OSError, SyntaxError, ValueError, EOFError) as exc:  # truncated or corrupt pixel data
            if isinstance(exc, (FileNotFoundError, PermissionError)):
                raise
            raise LoadError.coded("not_image") from exc
    pages = clean_pages(texts)
    sections = tuple(
        Section(text=t, page=i + 1 if count > 1 else None, ocr=True) for i, t in enumerate(pages) if t.strip()
    )
    if not sections:
        raise LoadError.coded("image_no_text")
    return ParsedDocument(sections=sections, notes=quota.notes())
