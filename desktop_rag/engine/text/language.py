"""Which language a text, or the user's interface, is in (the library's own languages: `store.languages`)."""

from __future__ import annotations

import locale
import os

from desktop_rag.engine.text.terms import cjk_ratio

CJK_CHUNK_SHARE = 0.2  # a chunk this CJK (of its letters) is Chinese text; below 0.05 with letters, English


def interface_is_chinese(language: str) -> bool:
    """For a UI language ("zh", "en", "auto"): "auto" follows the system locale (LC_ALL, LC_MESSAGES, LANG)."""
    if language in ("zh", "en"):
        return language == "zh"
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(name)
        if value:
            return value.lower().startswith("zh")
    try:
        code = locale.getlocale()[0] or ""
    except ValueError:
        code = ""
    return code.lower().startswith(("zh", "chinese"))


def text_languages(text: str) -> set[str]:
    """"zh" for Chinese text, "en" for text in Latin letters (other Latin-script languages count as "en")."""
    ratio = cjk_ratio(text)
    if ratio >= CJK_CHUNK_SHARE:
        return {"zh"}
    return {"en"} if ratio < 0.05 and any(ch.isascii() and ch.isalpha() for ch in text) else set()
