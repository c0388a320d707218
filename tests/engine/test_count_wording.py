"""A count of things reads right: "1 file" and "3 files" in English, one form in Chinese ("1 个文件")."""

from __future__ import annotations

import pytest

from desktop_rag.engine import counted
from desktop_rag.engine.messages import TEXTS, message


@pytest.mark.parametrize("noun, one, many, zh", [
    ("sources", "1 source", "3 sources", "3 个来源"),
    ("files", "1 file", "3 files", "3 个文件"),
    ("chunks", "1 chunk", "3 chunks", "3 个片段"),
    ("collections", "1 collection", "3 collections", "3 个知识库"),
    ("new_chunks", "1 new chunk", "3 new chunks", "3 个新片段"),
    ("attachments", "1 e-mail attachment", "3 e-mail attachments", "3 个邮件附件"),
    ("kept_vectors", "1 kept its vector", "3 kept their vectors", "3 个片段沿用原有向量"),
    ("links", "1 link", "3 links", "3 个链接"),
])
def test_english_says_one_thing_and_many_things(noun: str, one: str, many: str, zh: str):
    assert counted(**{noun: 1}) == one and counted("en", **{noun: 1}) == one
    assert counted(**{noun: 3}) == many and counted(**{noun: 0}) == many.replace("3", "0")
    assert counted("zh", **{noun: 1}) == zh.replace("3", "1") and counted("zh", **{noun: 3}) == zh
    assert counted("fr", **{noun: 1}) == one  # another language: English, singular too


def test_several_counts_are_listed_in_the_order_given():
    assert counted(files=1, chunks=3, vectors=1) == "1 file, 3 chunks, 1 vector"
    assert counted("zh", files=1, chunks=3) == "1 个文件，3 个片段"


def test_every_count_has_one_and_many_in_english_and_a_chinese_text():
    for key in (k for k in TEXTS if k.startswith("count.")):
        assert "{n:" in TEXTS[key]["en"] and "|" in TEXTS[key]["en"] and "{n}" in TEXTS[key]["zh"], key


@pytest.mark.parametrize("key, values, one", [
    ("error.archive_model", {"model": "a", "library_model": "b", "count": 1}, "Its 1 passage would be embedded"),
    ("error.summary_over_limit", {"name": "r.pdf", "requests": 2, "sections": 1, "tokens": 900, "limit": 1},
     "(1 section, about 900 tokens)"),
    ("error.endpoint_count", {"got": 1, "sent": 1}, "returned 1 vector for 1 text."),
])
def test_an_error_with_a_count_of_one_says_it_in_the_singular(key: str, values: dict, one: str):
    assert one in message(key, "en", **values)
