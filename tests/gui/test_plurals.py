"""English texts with a count say "1 source", "1 file", "1 answer", never "1 sources" (the library's totals, the
Review view, collections); Chinese has no plural and reads the same."""

from __future__ import annotations

import re

from desktop_rag.gui import i18n

NOUNS = ("sources", "files", "chunks", "passages", "answers", "questions", "tokens", "messages", "requests",
         "sections", "seconds", "minutes", "attachments")
BARE_COUNT = re.compile(r"\{\w+\}\s+(?:[a-z-]+ )?(?:" + "|".join(NOUNS) + r")\b|\(s\)")


def test_library_totals_agree_with_their_numbers():
    assert i18n.tr("library.totals", sources=1, files=1, chunks=1, failed=0) == \
        "1 source · 1 file · 1 chunk · 0 failed"
    assert i18n.tr("library.totals", sources=2, files=5, chunks=84, failed=1) == \
        "2 sources · 5 files · 84 chunks · 1 failed"


def test_review_and_collection_texts_agree_with_their_numbers():
    assert i18n.tr("review.totals", answers=1, right=0, partly=0, wrong=0, refused=0, ungraded=1).startswith(
        "All time: 1 answer · ")
    assert i18n.tr("review.exported", count=1, path="/tmp/g.jsonl") == "Exported 1 graded question to /tmp/g.jsonl."
    assert i18n.tr("review.measured", queries=1) == "1 labelled question measured."
    assert i18n.tr("review.running", done=1, total=1) == "Measuring: 1 of 1 question…"
    assert "(1 file, 3 chunks)" in i18n.tr("collections.confirm_delete", name="Work", files=1, chunks=3)
    assert i18n.tr("collections.imported", name="Work", chunks=1) == "Imported “Work”: 1 passage."


def test_a_number_given_as_text_counts_too():
    assert "(1 passage)" in i18n.tr("status.index_loading", count="1")
    assert "(1,000 passages)" in i18n.tr("status.index_loading", count="1,000")


def test_chinese_reads_the_same_for_any_number():
    i18n.set_language("zh")
    assert i18n.tr("library.totals", sources=1, files=1, chunks=1, failed=0) == "1 个来源 · 1 个文件 · 1 个片段 · 0 个失败"
    assert i18n.tr("review.measured", queries=1) == "已衡量 1 个标注问题。"


def test_no_english_text_puts_a_bare_count_before_a_plural_noun():
    bare = {key: en for key, (en, _zh) in i18n._TEXT.items() if BARE_COUNT.search(en)}
    assert not bare, f"use {{n:noun|nouns}}: {bare}"
