"""The viewer's banner for a file it cannot read now gives indexing's reason without what indexing did about it
("…; it was skipped" / "…，已跳过" read as if the viewer had skipped the file), in English and Chinese."""

from __future__ import annotations

import pytest

from desktop_rag.engine.document.locate import (
    CHANGED, EXACT, MISSING, NOT_FOUND, PARTIAL, RECOGNISED, STORED, UNCHANGED, UNKNOWN, Location,
)
from desktop_rag.engine.file_types import PAGES, TEXT
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.reasons import Reason
from desktop_rag.gui import i18n
from desktop_rag.gui.controllers.viewer_banner import banner
from desktop_rag.gui.views.viewer.strings import tr

REASONS = {  # what the viewer's parser child says, and the words of the reason the banner keeps
    "read_timeout": ({"budget": Phrase("phrase.seconds", n=30)}, ("took longer than 30 s", "超过了 30 秒")),
    "out_of_memory": ({"mb": 2048}, ("limit of 2,048 MB", "2,048 MB 的上限")),
    "reader_crashed": ({}, ("may be damaged", "可能已损坏")),
    "too_much_text": ({"chars": 20_000_000}, ("20,000,000 characters", "20,000,000 个字符的上限")),
}


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("code", list(REASONS))
@pytest.mark.parametrize("state", [UNCHANGED, CHANGED])
def test_the_unread_banner_gives_the_reason_without_indexings_tail(code: str, language: str, state: str):
    values, kept = REASONS[code]
    i18n.set_language(language)
    location = Location("/d/notes.rtf", TEXT, state, EXACT, text="stored", unread=Reason.coded(code, **values))
    text, offer_reindex, _level = banner(location)
    assert kept[language == "zh"] in text and offer_reindex == (state == CHANGED)
    for tail in ("skipped", "not indexed", "split it", "已跳过", "未被索引", "拆分"):
        assert tail not in text
    assert "text the library stored" in text if language == "en" else "资料库保存的文本" in text


TIMED_OUT = Reason.coded("read_timeout", budget=Phrase("phrase.seconds", n=30))


@pytest.mark.parametrize("state, match, kind, extra, scan, key, offer, level", [
    (MISSING, NOT_FOUND, TEXT, {"text": "stored"}, False, "missing_stored", False, "warn"),
    (MISSING, NOT_FOUND, TEXT, {}, False, "missing", False, "warn"),
    (STORED, EXACT, TEXT, {"text": "stored"}, False, "stored_text", False, "info"),
    (UNCHANGED, EXACT, TEXT, {"unread": TIMED_OUT}, False, "unread", False, "info"),
    (CHANGED, EXACT, TEXT, {"unread": TIMED_OUT}, False, "unread_changed", True, "warn"),
    (UNCHANGED, EXACT, TEXT, {"from_library": True}, False, "recognised", False, "info"),
    (CHANGED, EXACT, TEXT, {"from_library": True}, False, "recognised_changed", True, "warn"),
    (CHANGED, EXACT, TEXT, {}, False, "changed_found", True, "warn"),
    (CHANGED, NOT_FOUND, TEXT, {}, False, "changed_lost", True, "warn"),
    (UNKNOWN, EXACT, TEXT, {}, False, "unknown", False, "info"),
    (UNCHANGED, PARTIAL, TEXT, {}, False, "partial", False, "info"),
    (UNCHANGED, NOT_FOUND, TEXT, {}, False, "not_found_text", False, "info"),
    (UNCHANGED, NOT_FOUND, PAGES, {}, False, "unmatched", False, "info"),
    (UNCHANGED, NOT_FOUND, PAGES, {}, True, "unmatched_scan", False, "info"),
    # found as indexed, or not read at all (the error is said elsewhere): no banner, nothing offered
    (UNCHANGED, EXACT, TEXT, {}, False, None, False, "warn"),
    (UNCHANGED, NOT_FOUND, TEXT, {"error": Reason.coded("reader_crashed")}, False, None, False, "warn"),
])
def test_each_state_of_the_file_and_the_passage_has_its_banner(state, match, kind, extra, scan, key, offer, level):
    location = Location("/d/notes.pdf", kind, state, match, **extra)
    reason = i18n.error(TIMED_OUT).removesuffix("; it was skipped")  # indexing's tail, not the viewer's
    expected = "" if key is None else tr(key, path="/d/notes.pdf", reason=reason)
    # the level names the banner's style (an unknown one has none); only a file that changed offers Re-index
    assert (banner(location, scan) if scan else banner(location)) == (expected, offer, level)


@pytest.mark.parametrize("state, match, extra, scan, key, elsewhere", [
    (UNCHANGED, RECOGNISED, {}, True, "recognised_lines", None),
    (UNCHANGED, PARTIAL, {}, False, "partial", None),
    (UNCHANGED, NOT_FOUND, {}, False, "unmatched", "beside_elsewhere"),  # the passage beside: whence it comes
    (UNCHANGED, NOT_FOUND, {}, True, "unmatched_scan", "beside_elsewhere"),
    (CHANGED, NOT_FOUND, {}, False, "changed_lost", "changed_lost"),  # the file's state: on every page
    (MISSING, NOT_FOUND, {"text": "stored"}, False, "missing_stored", "missing_stored"),
])
def test_how_the_passage_was_matched_is_said_on_its_page_only(state, match, extra, scan, key, elsewhere):
    """A paged document's banner about the passage's match speaks of "this page": on another page it says nothing,
    or, when the passage could not be marked and is shown beside, that it is the one cited on its page; what it
    says of the file holds on every page."""
    location = Location("/d/notes.pdf", PAGES, state, match, page=2, **extra)
    expected = tr(key, path="/d/notes.pdf")
    assert banner(location, scan, page=2)[0] == banner(location, scan)[0] == expected
    assert banner(location, scan, page=1)[0] == ("" if elsewhere is None else tr(elsewhere, path="/d/notes.pdf",
                                                                                 page=2))
