"""Broken text layers: garbage is named, readable text in any script (and mixes of them) is not."""

from __future__ import annotations

import pytest

from desktop_rag.engine.ingest.cleaning import remove_cjk_spaces
from desktop_rag.engine.ingest.loaders.pdf_layer import broken

CHINESE = "扫描的合同、通知和书页常常只以图片的形式保存在电脑里。请在购买后三十天内寄回保修卡。"
ENGLISH = "The lighthouse keeper recorded the storm at four in the morning, when the harbour wall gave way."


@pytest.mark.parametrize("text, reason", [
    # XiaoBiaoSong.pdf as pypdf read it (issue 36): GBK bytes shown as Latin-1
    ("Ä¿ ¡¡ ¡¡ Â¼ ¹Ø ÓÚ ºì ¾ü ×÷ Õ½ µÄ Ô Ôò", "mojibake"),
    (CHINESE.encode("gb2312").decode("latin-1"), "mojibake"),
    ("日本語のテキストを正しく抽出できるか確認します。".encode("cp932").decode("cp1252", "replace"), "mojibake"),
    ("(cid:12)(cid:34)(cid:5) (cid:77)(cid:3)(cid:9)(cid:41) (cid:8)", "(cid:n) marks"),
    ("\ue000\ue011\ue022 \ue033\ue044\ue055\ue066 \ue077\ue088 abc", "private-use or control characters"),
    ("\x84\x85\x86\x87 \x90\x91\x92\x93\x94 \x95\x96 text", "private-use or control characters"),
    ("\ufffd" * 20, "private-use or control characters"),
    # the Japanese file of issue 36 (Sinhala, Devanagari, Greek and IPA inside words), a page of it
    ("ඪ४ ϚʔέοτϞσϧ " * 4, "script mix"),
])
def test_garbage_is_caught(text: str, reason: str) -> None:
    assert broken(text) == reason


def test_glyph_numbers_are_caught_only_with_pdfiums_unmapped_sign() -> None:
    shifted = "7KH OLJKWKRXVH NHHSHU UHFRUGHG WKH VWRUP DW IRXU LQ WKH PRUQLQJ ZKHQ WKH KDUERXU ZDOO"
    assert broken(shifted, unmapped=0.0) is None  # could be a table of codes
    assert broken(shifted, unmapped=0.9) == "no Unicode map"
    assert broken("5(&20('$&,Ï1 5(&20('$&,Ï1", unmapped=1.0) == "no Unicode map"
    assert broken("ɍɝɥɨɜɚɹɲɥɢɮɨɜɚɥɶɧɚɹɦɚɲɢɧɚ", unmapped=1.0) == "no Unicode map"
    # PDFium also flags glyphs it named right: readable text stays readable
    assert broken("KEY INVESTOR INFORMATION", unmapped=1.0) is None
    assert broken(ENGLISH, unmapped=1.0) is None
    assert broken("à À â Â ä Ä ç Ç é É è È ê Ê ë Ë î Î ï Ï ô Ô ù Ù û Û ü Ü", unmapped=0.5) is None


@pytest.mark.parametrize("text", [
    ENGLISH, CHINESE, "日本語のテキストを正しく抽出できるか確認します。東京都の天気は晴れでしょう。",
    "한국어 문서의 텍스트를 올바르게 추출합니다. 서울의 날씨는 맑겠습니다.",
    "Le garçon a mangé une crème brûlée à côté de l'église, où il a été très ému.",
    "Straße, Größe, Übung und Ärger: die Prüfung war schwierig.",
    "Привет, мир! Это обычный русский текст без ошибок.",
    # a polyglot page: one script per word
    "English: Hello World Arabic: مرحبا بالعالم Russian: Привет, мир Chinese: 你好世界 Thai: สวัสดีชาวโลก",
    "In β-cells, TGF-β and IFN-γ raise the α-subunit; the Δ-mutants did not.",
    "使用Python编程，并在macOS和Windows上测试。第3章 安装",
    "Pinyin: nǐ hǎo, xièxie, zàijiàn, wǒ ài nǐ",
    "12", "",
])
def test_readable_text_is_not_broken(text: str) -> None:
    assert broken(text) is None


def test_cjk_spaces() -> None:
    assert remove_cjk_spaces("目 录 关 于 红 军") == "目录关于红军"
    assert remove_cjk_spaces("（ 一 九 三 七 年 ）") == "（一九三七年）"
    assert remove_cjk_spaces("日 本 語 の テ キ ス ト") == "日本語のテキスト"
    assert remove_cjk_spaces("the quick brown fox") == "the quick brown fox"
    assert remove_cjk_spaces("使用 Python 编程 第 3 章") == "使用 Python 编程第 3 章"
    assert remove_cjk_spaces("한국어 문서의 텍스트") == "한국어 문서의 텍스트"  # Korean words are spaced
