"""RTF: English and Chinese as Word and WordPad write them (code-page escapes, \\uN with fallbacks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders.rtf import load_rtf


def _escaped(text: str, codec: str) -> str:
    return "".join("\\'%02x" % b for b in text.encode(codec))


def test_english_and_chinese_paragraphs(tmp_path: Path) -> None:
    picture = "89504e470d0a1a0a" * 400  # an embedded PNG as Word writes it: hexadecimal in a \pict group
    rtf = (r"{\rtf1\ansi\ansicpg936\deff0{\fonttbl{\f0\fnil\fcharset134 SimSun;}{\f1\fswiss Arial;}}"
           r"{\colortbl;\red255\green0\blue0;}{\*\generator Msftedit 5.41;}\viewkind4\uc1\pard\f1\fs22 "
           r"Quarterly report\par The caf\u233? opened in \b March\b0 .\par "
           r"{\*\shppict{\pict\pngblip " + picture + r"}}"
           r"\f0 " + _escaped("长江是中国最长的河流。", "gbk") + r"\par "
           r"\u19977?\u23777?\u22823?\u22365?\par}")
    path = tmp_path / "r.rtf"
    path.write_bytes(rtf.encode("ascii"))
    doc = load_rtf(path)
    assert len(doc.sections) == 1 and doc.sections[0].page is None
    text = doc.sections[0].text
    assert text.startswith("Quarterly report\n\nThe café opened in March.")
    assert "长江是中国最长的河流。" in text and "三峡大坝" in text
    assert "SimSun" not in text and "Msftedit" not in text and "89504e47" not in text


def test_not_rtf(tmp_path: Path) -> None:
    path = tmp_path / "x.rtf"
    path.write_bytes(b"plain text renamed")
    with pytest.raises(LoadError, match="Not an RTF"):
        load_rtf(path)
    path.write_bytes(br"{\rtf1\ansi{\fonttbl{\f0 Arial;}}\pard\par}")
    with pytest.raises(LoadError, match="no text"):
        load_rtf(path)


def test_western_code_page(tmp_path: Path) -> None:
    path = tmp_path / "w.rtf"
    path.write_bytes(rb"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}}\pard The caf\'e9 serves cr\'e8me br\'fbl\'e9e.\par}")
    assert load_rtf(path).sections[0].text == "The café serves crème brûlée."


def test_an_escape_beyond_16_bits_is_a_question_mark(tmp_path: Path) -> None:
    """Issue 49 item 9: \\u99999999999 made striprtf's chr() raise OverflowError and the file fail."""
    path = tmp_path / "u.rtf"
    digits = "9" * 5000  # also past int()'s 4,300-digit limit
    path.write_bytes(rb"{\rtf1\ansi Over \u99999999999? the limit; \u" + digits.encode() + rb"? far over; "
                     rb"\u-40000? under; \u8364? euro.\par}")
    assert load_rtf(path).sections[0].text == "Over ? the limit; far over; ? under; \u20ac euro."


def test_binary_data_after_bin_is_skipped_not_called_binary(tmp_path: Path) -> None:
    """Issue 49 item 9: a picture embedded with \\binN (raw bytes, NULs and control bytes among them) made the whole
    file "binary data ... renamed .txt?"; an escaped backslash before "bin" is text."""
    raw = bytes(range(256)) * 4
    path = tmp_path / "b.rtf"
    path.write_bytes(rb"{\rtf1\ansi Before the picture. {\*\shppict{\pict\pngblip\bin" + str(len(raw)).encode()
                     + b" " + raw + rb"}} After the picture.\par}")
    assert load_rtf(path).sections[0].text == "Before the picture. After the picture."
    path.write_bytes(rb"{\rtf1\ansi The tool sits in C:\\bin5 on the \'e9quipe's disk.\par}")
    assert load_rtf(path).sections[0].text == "The tool sits in C:\\bin5 on the \u00e9quipe's disk."
