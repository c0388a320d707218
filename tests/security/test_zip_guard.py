"""Issue 37 item 5: one zip guard for every zip-based format. A zip bomb, a zip of too many members, one that
unpacks past the total, and a member that lies about its size are refused from the central directory (or with
a byte cap), each with its own reason; a .docx bomb fails alone and the next file is read."""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders import load
from desktop_rag.engine.ingest.loaders.zip_guard import open_zip, read_member
from tests.support import DATA

MIB = 1 << 20


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def test_a_member_that_inflates_200_to_1_is_a_zip_bomb(tmp_path: Path) -> None:
    bomb = _zip(tmp_path / "bomb.xlsx", {"xl/workbook.xml": bytes(64 * MIB)})  # 64 MiB of zeros, ~64 KB packed
    assert bomb.stat().st_size < MIB
    with pytest.raises(LoadError, match=r"This \.xlsx looks like a zip bomb \(it would expand to 64 MB"):
        open_zip(bomb)


def test_too_many_members(tmp_path: Path) -> None:
    many = _zip(tmp_path / "many.pptx", {f"ppt/m{i}.xml": b"x" for i in range(10_001)})
    with pytest.raises(LoadError, match=r"This \.pptx holds 10,001 parts, more than the limit of 10,000"):
        open_zip(many)
    open_zip(many, max_members=20_000).close()  # the limit is what decides


def test_total_unpacked_over_the_limit_is_too_large_not_a_bomb(tmp_path: Path) -> None:
    rand = _zip(tmp_path / "big.epub", {f"c{i}.xhtml": bytes(range(256)) * 4096 for i in range(3)})  # 3 x 1 MiB
    with pytest.raises(LoadError) as info:
        open_zip(rand, max_total_bytes=2 * MIB)
    assert "too large when unpacked (3 MB; the limit is 2 MB)" in str(info.value)
    assert "zip bomb" not in str(info.value)


def test_not_a_zip_has_a_format_message_or_the_callers(tmp_path: Path) -> None:
    f = tmp_path / "t.xlsx"
    f.write_bytes(b"PK not really a zip" * 10)
    with pytest.raises(LoadError, match=r"This \.xlsx file is damaged or not a \.xlsx file"):
        open_zip(f)
    with pytest.raises(LoadError, match=r"^Not an Excel \.xlsx file") as caught:  # the caller's own error code
        open_zip(f, not_zip="not_xlsx")
    assert caught.value.code == "not_xlsx"


def test_read_member_stops_at_its_cap(tmp_path: Path) -> None:
    z = _zip(tmp_path / "a.odt", {"content.xml": b"a" * 5000})
    with open_zip(z) as zf:
        assert read_member(zf, "content.xml", 5000) == b"a" * 5000
        with pytest.raises(LoadError, match=r"content\.xml\) is larger than the limit"):
            read_member(zf, "content.xml", 4999)
        with pytest.raises(LoadError, match=r"missing \(styles\.xml\)"):
            read_member(zf, "styles.xml", 5000)


def test_a_member_that_lies_about_its_size_is_not_inflated_past_it(tmp_path: Path) -> None:
    z = _zip(tmp_path / "liar.docx", {"word/document.xml": bytes(8 * MIB)})
    data = bytearray(z.read_bytes())
    cd = data.rfind(b"PK\x01\x02")  # the central directory entry: uncompressed size at offset 24
    struct.pack_into("<I", data, cd + 24, 1000)
    z.write_bytes(bytes(data))
    with open_zip(z) as zf:  # declares 1000 bytes: passes the checks
        assert zf.getinfo("word/document.xml").file_size == 1000
        with pytest.raises(LoadError, match="is damaged"):
            read_member(zf, "word/document.xml", 10 * MIB)  # reading stops at the declared size, the CRC fails


def test_docx_zip_bomb_fails_alone(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("word/document.xml", "<w:document/>")
        zf.writestr("word/media/zeros.bin", bytes(32 * MIB))
    bomb = tmp_path / "bomb.docx"
    bomb.write_bytes(buf.getvalue())
    with pytest.raises(LoadError, match=r"This \.docx looks like a zip bomb"):
        load(bomb, max_bytes=100 * MIB)
    assert load(DATA / "good" / "manual.docx", max_bytes=100 * MIB).sections  # the next file is read
