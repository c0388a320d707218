"""A count of things reads right: "1 file" and "3 files" in English, one form in Chinese ("1 个文件")."""

from __future__ import annotations

import pytest

from desktop_rag.engine import counted


@pytest.mark.parametrize("noun, one, many, zh", [
    ("sources", "1 source", "3 sources", "3 个来源"),
    ("files", "1 file", "3 files", "3 个文件"),
    ("chunks", "1 chunk", "3 chunks", "3 个片段"),
])
def test_english_says_one_thing_and_many_things(noun: str, one: str, many: str, zh: str):
    assert counted(noun, 1) == one and counted(noun, 1, "en") == one
    assert counted(noun, 3) == many and counted(noun, 0) == many.replace("3", "0")
    assert counted(noun, 1, "zh") == zh.replace("3", "1") and counted(noun, 3, "zh") == zh
    assert counted(noun, 1, "fr") == one  # another language: English, singular too

