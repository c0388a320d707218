"""The rules every request to a model or embedding server follows, whichever client sends it: a key as pasted
(`pasted_key`) and whether an HTTP header can carry it (`key_reason`), and an address's user:password@ part, never
sent (`without_userinfo`, `address_notice`), nor stored nor shown in an embedding model's id (`model_id_shown`)."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlparse

from desktop_rag.engine.messages import Phrase, message

API_PREFIX = "api:"  # an embedding endpoint's model id, `api:MODEL@BASE_URL` (models/embedders/api_backend.py)
_BEARER = re.compile(r"(?i)^(?:authorization:\s*)?bearer\s+")  # a key pasted with its header's words


def without_userinfo(url: str) -> str:
    """`url` without a user:password@ part ("https://me:secret@host/v1" -> "https://host/v1")."""
    try:
        parsed = urlparse(url)
    except ValueError:
        return url
    return parsed._replace(netloc=parsed.netloc.rpartition("@")[2]).geturl() if "@" in parsed.netloc else url


def model_id_shown(model_id: str) -> str:
    """An embedding model id as it is stored in a library and shown: an `api:MODEL@BASE_URL` id's address without
    its user:password@ (`without_userinfo`: it is never sent either); any other id as it is."""
    if not model_id.startswith(API_PREFIX):
        return model_id
    model, sep, url = model_id.partition("@")
    return f"{model}{sep}{without_userinfo(url)}" if sep else model_id


def address_notice(url: str, language: str = "en", dropped: bool = False) -> str | None:
    """What to say, in `language`, of a model server address with a user:password@ part (or of a config's that
    was `dropped`: `LLMConfig.userinfo_dropped`): it is not sent. None for any other address."""
    return message("llm_userinfo_dropped", language) if dropped or without_userinfo(url) != url else None


def key_problem(key: str, language: str = "en", fix: str = "api_key_fix.chat") -> str | None:
    """Why `key` cannot be sent (`key_reason`) said in `language` without the key; None when it can."""
    reason = key_reason(key, fix)
    return None if reason is None else reason.text(language)


def key_reason(key: str, fix: str = "api_key_fix.chat") -> Phrase | None:
    """Why `key` cannot be sent (a character outside printable ASCII, which an HTTP header cannot carry: an input
    method's text, a zero-width space from a web page, a control character; or a space, which no key holds: one
    pasted in two pieces), ending with where to fix it (`fix`: an api_key_fix.* text); None when it can. (Outer
    whitespace and a header's words are no part of a key: `pasted_key`.)"""
    for position, char in enumerate(key, 1):
        if char == " ":
            return Phrase("api_key_space", position=position, fix=Phrase(fix))
        if " " < char <= "~":
            continue
        kind = unicodedata.category(char)
        code = f"U+{ord(char):04X}"
        what = ("api_key_char_control" if kind == "Cc" else "api_key_char_invisible" if kind[0] in "CZ"
                else "api_key_char_other")
        return Phrase("api_key_unsendable", position=position, what=Phrase(what, code=code, char=char),
                      fix=Phrase(fix))
    return None


def pasted_key(raw: str) -> str:
    """A key as pasted, without whitespace around it or its header's words ("Bearer sk-…" from a curl example)."""
    return _BEARER.sub("", raw.strip())
