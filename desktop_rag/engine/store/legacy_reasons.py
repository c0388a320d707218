"""The reasons an older library (schema 3 and before) or an archive stored as English prose, read once into codes
and values (issue 49): the schema 3 -> 4 migration (`sqlite/schema.migrate`, one transaction) runs it on every file row
with a reason, an archive's import on each of its rows, so nothing ever matches English texts when a reason is
shown.

Linear in the text: a template's fixed words are found left to right with `str.find` (no regular expression, so
nothing backtracks: the patterns this replaces took 100 s on a crafted 7.8k-character name). The first way a
text splits into a template's values must render that template again exactly; a value that is itself a text of
the table is read the same way (two levels, as before). A text that does not parse, or is longer than
`MAX_TEXT_CHARS`, or comes after the time budget is spent, stays plain text, shown as it is.
"""

from __future__ import annotations

import itertools
import sqlite3
import string
import time
from collections.abc import Iterator
from functools import lru_cache

from desktop_rag.engine.error_texts import ERROR_TEXTS
from desktop_rag.engine.messages import Phrase, message
from desktop_rag.engine.reasons import Reason

MAX_TEXT_CHARS = 8000  # a longer stored text stays plain
BUDGET_S = 20.0  # the whole migration's parsing; rows after it stay plain
DEPTH = 2  # a value read again as a text of the table (a quoted phrase), as the old read-back did


@lru_cache(maxsize=1)
def _templates() -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """(key, fixed words, fields) of every English text with a Chinese one and at least 8 fixed characters, most
    fixed characters first (the most specific wins): text = words[0] fields[0] words[1] ... fields[-1] words[-1]."""
    found = []
    for key, texts in ERROR_TEXTS.items():
        if "zh" not in texts:
            continue
        for words, fields in _spelled(texts["en"]):
            if sum(map(len, words)) >= 8:
                found.append((key, words, fields))
    return tuple(sorted(found, key=lambda t: -sum(map(len, t[1]))))


def _spelled(template: str) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(fixed words, fields) of each way `template` reads: a count ("{n:file|files}", `messages.Counted`) reads as
    its number followed by fixed words that begin with its singular noun, or with its plural one."""
    pieces = list(string.Formatter().parse(template))
    words = [text for text, _, _, _ in pieces]
    fields = tuple(field for _, field, _, _ in pieces if field is not None)
    if len(words) == len(fields):  # it ends with a field
        words.append("")
    nouns = [spec.split("|", 1) if "|" in spec else [""] for _, field, spec, _ in pieces if field is not None]
    for chosen in itertools.product(*nouns):
        yield (words[0], *(f" {noun}{word}" if noun else word for noun, word in zip(chosen, words[1:]))), fields


def parse(text: str, deadline: float = float("inf"), depth: int = DEPTH) -> Reason:
    """`text` as codes and values where it is one or more ("; "-joined) texts of the table, else as plain text."""
    if not text or len(text) > MAX_TEXT_CHARS:
        return Reason.of(text)
    if "; " in text:  # an indexed file's notes, joined (a text of the table may hold "; " too: then it is one)
        notes = [_phrase(part, deadline, depth) for part in text.split("; ")]
        if all(notes):
            return Reason.of(*notes)
    return Reason.of(_phrase(text, deadline, depth) or text)


def _phrase(text: str, deadline: float, depth: int) -> Phrase | None:
    for key, literals, fields in _templates():
        if time.monotonic() > deadline:
            return None
        values = _split(text, literals, fields)
        if values is None or message(key, "en", **values) != text:
            continue
        if depth > 1:
            values = {k: _phrase(v, deadline, depth - 1) or v for k, v in values.items()}
        return Phrase(key, **values)
    return None


def _split(text: str, words: tuple[str, ...], fields: tuple[str, ...]) -> dict[str, str] | None:
    """The values of `text` between the template's fixed words, each word found leftmost after at least one
    character of the value before it; None when the words are not there (or a repeated field differs)."""
    if not fields:
        return {} if text == words[0] else None
    stop = len(text) - len(words[-1])
    if not text.startswith(words[0]) or not text.endswith(words[-1]) or stop <= len(words[0]):
        return None
    values: dict[str, str] = {}
    position = len(words[0])
    for index, field in enumerate(fields):
        after = words[index + 1]
        if index == len(fields) - 1:
            end = stop
        else:
            end = text.find(after, position + 1, stop) if after else position + 1
        if end <= position:  # not found (-1), or an empty value
            return None
        if values.setdefault(field, text[position:end]) != text[position:end]:
            return None
        position = end + len(after)
    return values


def migrate(db: sqlite3.Connection) -> int:
    """Give every file row with a stored reason its codes (`files.reason`), inside the caller's transaction; how
    many rows were read into codes."""
    deadline = time.monotonic() + BUDGET_S
    rows = db.execute("SELECT id, error FROM files WHERE error != '' AND reason = ''").fetchall()
    read = 0
    for file_id, text in rows:
        reason = parse(text, deadline)
        stored = reason.to_json()
        if stored:
            db.execute("UPDATE files SET error = ?, reason = ? WHERE id = ?", (str(reason), stored, file_id))
            read += 1
        elif len(text) > len(str(reason)):  # plain, but longer than a reason may be
            db.execute("UPDATE files SET error = ? WHERE id = ?", (str(reason), file_id))
    return read
