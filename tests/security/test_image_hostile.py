"""Crafted and damaged pictures against the image reader (OCR): a multi-page TIFF with one damaged page keeps its
other pages (the whole scan failed as "not a readable image"), a picture whose only page is damaged still fails
with that reason."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders import load
from desktop_rag.engine.reasons import Reason
from tests.support import scans


def _tiff_with_a_damaged_page(path: Path, damaged: int) -> Path:
    """A three-page LZW TIFF (English, Chinese, English) whose page `damaged` (1-based) holds garbage pixel data."""
    from PIL import Image

    pages = [scans.strip(scans.ENGLISH[:1], False), scans.strip(scans.CHINESE[:1], True),
             scans.strip(scans.ENGLISH[2:3], False)]
    buf = io.BytesIO()
    pages[0].save(buf, "TIFF", save_all=True, append_images=pages[1:], compression="tiff_lzw")
    data = bytearray(buf.getvalue())
    with Image.open(io.BytesIO(bytes(data))) as tiff:
        tiff.seek(damaged - 1)
        for offset, length in zip(tiff.tag_v2[273], tiff.tag_v2[279]):  # StripOffsets, StripByteCounts
            data[offset:offset + length] = b"\xff" * length
    path.write_bytes(bytes(data))
    return path


def test_a_damaged_page_of_a_scanned_tiff_is_left_out_and_named(tmp_path: Path) -> None:
    doc = load(_tiff_with_a_damaged_page(tmp_path / "scan.tif", 2), max_bytes=1 << 26)
    assert [s.page for s in doc.sections] == [1, 3]
    assert "Scanned letters" in doc.sections[0].text and "warranty card" in doc.sections[1].text
    assert [Reason.of(n).text("en") for n in doc.notes] == ["Page(s) 2 could not be read and were left out"]
    assert Reason.of(doc.notes[0]).text("zh") != Reason.of(doc.notes[0]).text("en")


def test_a_picture_whose_only_page_is_damaged_fails_as_not_readable(tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "scan.png"
    scans.strip(scans.ENGLISH[:1], False).save(path)
    path.write_bytes(path.read_bytes()[:-3000])  # cut short
    with Image.open(path) as check:
        assert check.size == (scans.PAGE[0], 1000)  # the header is whole: the damage is in the pixels
    with pytest.raises(LoadError) as info:
        load(path, max_bytes=1 << 26)
    assert info.value.code == "not_image"
