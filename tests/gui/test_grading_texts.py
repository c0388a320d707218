"""Issue 39's texts: every grading / Review key has Chinese, and the Review view in Chinese shows no English."""

from __future__ import annotations

import re

from desktop_rag.gui import i18n
from tests.support.english import english_words

PREFIXES = ("grade.", "review.", "conv.keep", "conv.forget", "menu.review", "sources.mark_", "settings.feedback",
            "settings.forget_grades", "settings.grades_")
HAN = re.compile(r"[\u4e00-\u9fff]")


def _keys() -> list[str]:
    return [k for k in i18n._TEXT if k.startswith(PREFIXES)]


def test_every_grading_key_has_chinese():
    keys = _keys()
    assert len(keys) > 50
    for key in keys:
        en, zh = i18n._TEXT[key]
        assert HAN.search(zh), f"{key}: no Chinese in {zh!r}"
        assert not english_words(re.sub(r"{\w+}", "", zh)), f"{key}: English words in the Chinese text {zh!r}"
        assert sorted(re.findall(r"{(\w+)[:}]", en)) == sorted(re.findall(r"{(\w+)[:}]", zh)), key
