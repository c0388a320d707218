"""Why a file failed, or what its reader noted about an indexed file, as texts of the message table with their
values (issue 49): made from the error as it is raised (`Reason.of(exc)`), stored as JSON beside its English text
(`files.reason`, `files.error`), shown in either language from its codes, bounded in size (each value and the
whole).

Nothing reads a reason back from English prose: matching the English texts' patterns against a failed file's
stored reason froze the Chinese window for 100 s on a crafted file name. A text without a code (an older
library's row that did not parse, a foreign exception's words) is kept and shown as it is.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass

from desktop_rag.engine.messages import CLI, TEXTS, Localised, Phrase, template_fields
from desktop_rag.engine.system_errors import os_reason

MAX_VALUE_CHARS = 300  # one value: a file or member name, a server's or a library's words
MAX_PLAIN_CHARS = 1000  # one text without a code
MAX_PARTS = 8  # texts in one reason (an indexed file's notes)
MAX_DEPTH = 3  # phrases quoted inside phrases
MAX_TEXT_CHARS = 4000  # the whole reason's English text (files.error)
MAX_STORED_CHARS = 16_000  # the whole reason's JSON (files.reason); a longer stored one is not read
CUT = "…"
MAX_INT = 1 << 63  # a larger number is kept as a string (a huge int cannot even be printed)

Part = Phrase | str


@dataclass(frozen=True)
class Reason(Localised):
    """Texts of the table with their values (`Phrase`s) or plain texts, in order; empty: nothing to say."""

    parts: tuple[Part, ...] = ()

    @classmethod
    def of(cls, *items: BaseException | Localised | str | None) -> Reason:
        """The reason `items` give, bounded: a coded engine error as its code and values; a Phrase (a reader's
        note) as it is; another error, or a string, as its words; empty ones left out."""
        parts: list[Part] = []
        for item in items:
            if isinstance(item, Reason):
                parts.extend(item.parts)
            elif isinstance(item, Phrase):
                parts.append(_bounded_phrase(item, 1))
            elif isinstance(item, BaseException):
                parts.append(_error_part(item))
            elif item:
                parts.append(_cut(str(item), MAX_PLAIN_CHARS))
        return cls(_fitted(parts))

    @classmethod
    def coded(cls, code: str, /, **values: object) -> Reason:
        """The reason of error "error.<code>" with `values` (what `SomeError.coded(code, ...)` would say)."""
        return cls.of(Phrase(f"error.{code}", **values))

    @classmethod
    def stored(cls, text: str, stored_json: str = "") -> Reason:
        """A reason as a row keeps it: its JSON (`to_json`) when there is one that fits the table, else its
        English `text` as plain text."""
        if not stored_json:
            return cls.of(text) if text else NO_REASON
        if len(stored_json) <= MAX_STORED_CHARS:
            try:  # bounded as it is read: at most 16,000 characters of JSON, each value cut, parts as `of` fits them
                return cls(_fitted(_parts_from_json(json.loads(stored_json))))
            except (ValueError, TypeError, KeyError, RecursionError):
                pass  # written by another version, or edited: its English text stands
        return cls.of(text)

    def text(self, language: str = "en", front: str = CLI) -> str:
        """Every part in `language` as the front end `front` words it, "; "-joined ("；" in Chinese)."""
        shown = (_rendered(p, language, front) if isinstance(p, Phrase) else p for p in self.parts)
        return ("；" if language == "zh" else "; ").join(shown)

    @property
    def code(self) -> str | None:
        """The first part's code ("pdf_password" for the text "error.pdf_password"; a note keeps its "note."
        key), None when it has none."""
        first = self.parts[0] if self.parts else None
        return first.key.removeprefix("error.") if isinstance(first, Phrase) else None

    def codes(self) -> tuple[str, ...]:
        """Every part's code (as `code` says it), the plain ones left out."""
        return tuple(p.key.removeprefix("error.") for p in self.parts if isinstance(p, Phrase))

    def to_json(self) -> str:
        """The parts as JSON for `files.reason` ("" when none has a code: the English text says it all)."""
        if not any(isinstance(p, Phrase) for p in self.parts):
            return ""
        return json.dumps([_part_json(p) for p in self.parts], ensure_ascii=False)

    def __bool__(self) -> bool:
        return bool(self.parts)

    def __str__(self) -> str:
        return self.text("en")


NO_REASON = Reason()


def _error_part(exc: BaseException) -> Part:
    """An error as a part: its code and values when it is a coded engine error; the system's reason (with the file
    it names) when it is an OSError; else its words (or its type)."""
    code, values = getattr(exc, "code", None), getattr(exc, "values", None)
    if isinstance(code, str) and f"error.{code}" in TEXTS and isinstance(values, Mapping):
        return _bounded_phrase(Phrase(f"error.{code}", **values), 1)
    if isinstance(exc, OSError):
        reason = os_reason(exc)
        path = exc.filename if isinstance(exc.filename, (str, bytes)) else None
        if path is not None:
            reason = Phrase("phrase.system.at_path", reason=reason, path=os.fsdecode(path))
        return _bounded_phrase(reason, 1)
    return _cut(str(exc) or type(exc).__name__, MAX_PLAIN_CHARS)


def _bounded_phrase(phrase: Phrase, depth: int) -> Part:
    """`phrase` with every value bounded; past MAX_DEPTH, or missing a value its texts take, its English words."""
    if depth > MAX_DEPTH or not template_fields(phrase.key) <= phrase.values.keys():
        return _cut(_rendered(phrase, "en"), MAX_VALUE_CHARS)
    return Phrase(phrase.key, **{k: _bounded_value(v, depth) for k, v in phrase.values.items()})


def _bounded_value(value: object, depth: int) -> object:
    if isinstance(value, Reason) and len(value.parts) == 1:
        value = value.parts[0]
    if isinstance(value, Phrase):
        return _bounded_phrase(value, depth + 1)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return value if -MAX_INT < value < MAX_INT else "…"
    if isinstance(value, float):
        return value
    return _cut(str(value), MAX_VALUE_CHARS)


def _rendered(phrase: Phrase, language: str, front: str = CLI) -> str:
    """`phrase` in `language` (as `front` words it); its key when a value does not fit its format (a stored row
    someone edited)."""
    try:
        return phrase.text(language, front)
    except (KeyError, IndexError, ValueError, TypeError):
        return phrase.key


def _cut(text: str, limit: int) -> str:
    """`text` at most `limit` characters (its start and end kept around "…"), lone surrogates replaced (SQLite
    cannot store them)."""
    if len(text) > limit:
        head = limit * 2 // 3
        text = text[:head] + CUT + text[len(text) - (limit - head - 1):]
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        text = "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)
    return text


def _fitted(parts: list[Part]) -> tuple[Part, ...]:
    """The first parts whose English text and JSON stay within the bounds (a part too large alone becomes its cut
    English text); "…" says that some were left out."""
    kept: list[Part] = []
    chars = stored = 0
    for part in parts[:MAX_PARTS]:
        text = _rendered(part, "en") if isinstance(part, Phrase) else part
        size = len(json.dumps(_part_json(part), ensure_ascii=False))
        if isinstance(part, Phrase) and (len(text) > MAX_TEXT_CHARS // 2 or size > MAX_STORED_CHARS // 2):
            part = text = _cut(text, MAX_PLAIN_CHARS)
            size = len(text) + 2
        if chars + len(text) + 2 > MAX_TEXT_CHARS or stored + size + 1 > MAX_STORED_CHARS - 8:
            kept.append(CUT)
            break
        kept.append(part)
        chars, stored = chars + len(text) + 2, stored + size + 1
    else:
        if len(parts) > MAX_PARTS:
            kept.append(CUT)
    return tuple(kept)


def _part_json(part: Part) -> object:
    if isinstance(part, str):
        return part
    return {"key": part.key, "values": {k: _part_json(v) if isinstance(v, Phrase) else v
                                        for k, v in part.values.items()}}


def _parts_from_json(data: object) -> list[Part]:
    """The parts of a stored reason (the first MAX_PARTS and the one that may say "…"), each value cut to
    MAX_VALUE_CHARS (ValueError for anything but what `to_json` writes, or a key the table does not have)."""
    if not isinstance(data, list) or not data:
        raise ValueError("not a list of parts")
    return [_cut(part, MAX_PLAIN_CHARS) if isinstance(part, str) else _phrase_from_json(part, 1)
            for part in data[:MAX_PARTS + 1]]


def _phrase_from_json(data: object, depth: int) -> Phrase:
    if depth > MAX_DEPTH or not isinstance(data, dict) or not isinstance(data.get("key"), str):
        raise ValueError("not a phrase")
    key, values = data["key"], data.get("values")
    if key not in TEXTS or "en" not in TEXTS[key] or not isinstance(values, dict):
        raise ValueError("not a text of the table")
    read = {}
    for name, value in values.items():
        if isinstance(value, dict):
            value = _phrase_from_json(value, depth + 1)
        elif not isinstance(value, (str, int, float)):
            raise ValueError("not a value")
        read[str(name)] = _bounded_value(value, depth)
    if not template_fields(key) <= read.keys():
        raise ValueError("a value is missing")
    return Phrase(key, **read)
