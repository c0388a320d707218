"""Upside-down and sideways scans (issue 36): a page OCR reads with low confidence is read again turned 180
degrees, a page whose lines stand on end is read turned 90 and 270 degrees, and the best reading is kept;
upright pages are read once.
Real RapidOCR on pages rendered with Pillow (tests/support/scans.py)."""

from __future__ import annotations

import pytest

from desktop_rag.engine.ingest.loaders import load, ocr
from tests.support import scans

pytestmark = pytest.mark.skipif(scans.cjk_font_path() is None, reason=scans.NO_CJK_FONT)


@pytest.fixture
def reads(monkeypatch) -> list[float]:
    """The confidence of every reading `ocr.recognise` makes (the real reader, counted)."""
    seen: list[float] = []
    real = ocr._read

    def counted(bgr, **kwargs):
        reading = real(bgr, **kwargs)
        seen.append(reading.confidence)
        return reading

    monkeypatch.setattr(ocr, "_read", counted)
    return seen


def _upright(lines: tuple[str, ...], chinese: bool):
    """A short scan and its text as read upright (a strip shows the first lines only)."""
    image = scans.strip(lines, chinese)
    return image, ocr.recognise(image)


def test_an_upside_down_scanned_pdf_is_read_upright(tmp_path, reads) -> None:
    image, upright = _upright(scans.ENGLISH, False)
    assert scans.cer(scans.page_text(scans.ENGLISH)[:len(upright)], upright) < 0.05
    path = scans.image_pdf([image.rotate(180)], tmp_path / "upside-down.pdf")
    text = "\n".join(s.text for s in load(path, max_bytes=0).sections)
    assert scans.cer(upright, text) < 0.02
    assert len(reads) == 3 and reads[1] < ocr.LOW_CONFIDENCE <= reads[2]


@pytest.mark.parametrize("angle, chinese", [(90, True), (270, False)])
def test_a_sideways_page_is_read_upright(reads, angle, chinese) -> None:
    image, upright = _upright(scans.CHINESE if chinese else scans.ENGLISH, chinese)
    text = ocr.recognise(image.rotate(angle, expand=True))
    assert scans.cer(upright, text) < 0.02
    assert len(reads) == 4 and reads[1] == 0.0 and max(reads[2:]) >= 0.95  # turned before it is read


def test_an_upright_page_is_read_once(reads) -> None:
    _image, text = _upright(scans.CHINESE, True)
    assert scans.cer(scans.page_text(scans.CHINESE)[:len(text)], text) < 0.05
    assert len(reads) == 1 and reads[0] >= 0.95


@pytest.mark.parametrize("orientation, turn", [(6, 90), (8, 270), (3, 180)])
def test_a_photo_turned_by_its_exif_orientation_is_read_once_as_shown(tmp_path, reads, orientation, turn) -> None:
    """A phone stores a portrait photo of a page sideways and says so in EXIF: it is read as shown, once (it was
    read as stored, then turned: three or four readings of a 12-megapixel photo)."""
    from PIL import Image

    image, upright = _upright(scans.ENGLISH, False)
    exif = Image.Exif()
    exif[0x0112] = orientation
    path = tmp_path / "photo.jpg"
    image.convert("RGB").rotate(turn, expand=True).save(path, exif=exif.tobytes(), quality=95)
    text = "\n".join(s.text for s in load(path, max_bytes=0).sections)
    assert scans.cer(upright, text) < 0.02
    assert len(reads) == 2  # the upright reference above, then the photo once
