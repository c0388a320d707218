"""The viewer's banner: what it says about the passage shown (the file's state, how the passage was found)."""

from __future__ import annotations

import re

from desktop_rag.engine import CHANGED, MISSING, NOT_FOUND, PAGES, PARTIAL, RECOGNISED, STORED, UNKNOWN, Location
from desktop_rag.gui import i18n
from desktop_rag.gui.views.viewer.strings import tr

# what indexing's reasons say it did with the file ("…; it was skipped", "…，已跳过"): not the viewer's to say
_INDEXING_TAIL = re.compile(r"(?:[;,] (?:so )?it was (?:skipped|not indexed)(?: \(.*\))?"
                            r"|，(?:因此)?(?:已跳过|未被索引)(?:（.*）)?)$")


def banner(location: Location, scan: bool = False, page: int | None = None) -> tuple[str, bool, str]:
    """The banner's text ("" for none), whether it offers Re-index, and its level ("warn" | "info") for `location`;
    `scan`: the passage was recognised on a scanned page (it has no text there to mark); `page`: the page shown
    (1-based) of a paged document: how the passage was matched is said only on its own page; elsewhere only that the
    passage beside, unmatched, is the one cited on its page."""
    if location.file_state == MISSING:  # with the stored text when the library still holds it
        return tr("missing_stored" if location.text else "missing", path=location.path), False, "warn"
    if location.file_state == STORED:
        return tr("stored_text"), False, "info"
    changed = location.file_state == CHANGED
    if location.unread:  # the file cannot be read now: the library's stored text
        return (tr("unread_changed" if changed else "unread", reason=reading_reason(location.unread)), changed,
                "warn" if changed else "info")
    if location.from_library:  # a picture's recognised text
        return tr("recognised_changed" if changed else "recognised"), changed, "warn" if changed else "info"
    if changed:
        return tr("changed_found" if location.found else "changed_lost"), True, "warn"
    if location.file_state == UNKNOWN:
        return tr("unknown"), False, "info"
    if location.outdated:  # indexed again without it since the answer
        return tr("passage_gone"), False, "warn"
    if page is not None and page != (location.page or 1):  # another page: nothing of the passage marked there
        if location.match == NOT_FOUND and not location.error:  # its text still beside: say whence it comes
            return tr("beside_elsewhere", page=location.page or 1), False, "info"
        return "", False, "warn"
    if location.match == PARTIAL:
        return tr("partial"), False, "info"
    if location.match == RECOGNISED:
        return tr("recognised_lines"), False, "info"
    if location.match == NOT_FOUND and not location.error:
        key = "not_found_text" if location.kind != PAGES else "unmatched_scan" if scan else "unmatched"
        return tr(key), False, "info"
    return "", False, "warn"


def reading_reason(reason) -> str:
    """Why a file cannot be read now, in the interface's language, without what indexing did about it (the
    reason tables are indexing's: "Reading this file took longer than 30 s; it was skipped")."""
    return _INDEXING_TAIL.sub("", i18n.error(reason))
