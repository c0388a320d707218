"""argparse's own words (its "usage:", its errors, its help's headings) in the command line's language.

argparse asks gettext for each of them (`argparse._`, `argparse.ngettext`); while the parser is built and used
(`said_by_argparse`), those two answer from the command line's table (`texts.TEXTS`' "argparse.*" entries: their
"en" is argparse's message id), so `desktop-rag ask` under LANG=zh_CN.UTF-8 says "用法：" and "缺少以下必需的参数：".
A message the table does not hold (another Python's) stays argparse's English. Command names, options and
`--json` output are not words of this table.

`Parser` lays its usage and help out by display columns (`WideHelpFormatter`): argparse counts characters, so
under "用法：" (three characters, six columns) the usage's continuation lines sat three columns left, and it wraps
only at spaces, so a Chinese help text ran past the terminal's edge."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator

from desktop_rag.cli.texts import TEXTS
from desktop_rag.engine import display_width, is_wide

_CLOSING = set("，。、；：！？）」』】》〉”’,.;:!?)]}%")  # never begins a line: kept with the character before it
_OPENING = set("（「『【《〈“‘([{")  # never ends a line: kept with the character after it


def _translations(language: str) -> dict[str, str]:
    """argparse's message ids and what `language` says for each ({} for English)."""
    if language != "zh":
        return {}
    return {texts["en"]: texts["zh"] for key, texts in TEXTS.items() if key.startswith("argparse.")}


@contextlib.contextmanager
def said_by_argparse(language: str) -> Iterator[None]:
    """Within the block, argparse says its words in `language` ("en" or "zh"); as before after it."""
    words = _translations(language)
    before: tuple[Callable[..., str], ...] = (argparse._, argparse.ngettext)  # type: ignore[attr-defined]

    def said(message: str) -> str:
        return words.get(message, message)

    def said_counted(singular: str, plural: str, n: int) -> str:
        return said(singular if n == 1 else plural)

    argparse._, argparse.ngettext = said, said_counted  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = before  # type: ignore[attr-defined]


def wrapped(text: str, width: int) -> list[str]:
    """`text` (whitespace folded) in lines of at most `width` display columns: broken at spaces and between wide
    characters, never before closing punctuation nor after opening; a word longer than a line fills the line begun
    and goes on in lines of its own, as textwrap cuts it."""
    lines: list[str] = []
    line, used, space = "", 0, False
    for piece in _pieces(" ".join(text.split())):
        if piece == " ":
            space = bool(line)
            continue
        size, gap = display_width(piece), 1 if space else 0
        if line and used + gap + size > width and (size <= width or used + gap >= width):
            lines.append(line)
            line, used, gap = "", 0, 0
        while used + gap + size > width:  # longer than a line
            cut = _fitting(piece, width - used - gap) or (0 if line else 1)
            lines.append(line + " " * gap + piece[:cut] if cut else line)
            line, used, gap, piece = "", 0, 0, piece[cut:]
            size = display_width(piece)
        line, used, space = line + " " * gap + piece, used + gap + size, False
    return lines + [line] if line else lines


def _pieces(text: str) -> list[str]:
    """The units a line may break between: a space, a word (a run of narrow characters), a wide character; closing
    punctuation joined to what comes before it, opening punctuation to what comes after."""
    pieces: list[str] = []
    for char in text:
        last = pieces[-1] if pieces else " "
        if char == " ":
            pieces.append(" ")
        elif last == " ":
            pieces.append(char)
        elif char in _CLOSING or last[-1] in _OPENING or not (is_wide(char) or is_wide(last[-1])):
            pieces[-1] = last + char  # closing punctuation, what follows opening punctuation, a word going on
        else:
            pieces.append(char)
    return pieces


def _fitting(piece: str, columns: int) -> int:
    """How many of `piece`'s first characters fit in `columns` (0: not one), not leaving closing punctuation to
    begin the rest."""
    used = count = 0
    for char in piece:
        used += display_width(char)
        if used > columns:
            break
        count += 1
    while 1 < count < len(piece) and piece[count] in _CLOSING:
        count -= 1
    return count


class WideHelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter measuring display columns: the usage's indent under a wide "用法：", and help
    texts wrapped by `wrapped`."""

    def _format_usage(self, usage, actions, groups, prefix) -> str:  # noqa: ANN001 - argparse's signature
        prefix = argparse._("usage: ") if prefix is None else prefix  # type: ignore[attr-defined]
        stand_in = "u" * display_width(prefix)  # as many characters as the prefix has columns: argparse counts
        return prefix + super()._format_usage(usage, actions, groups, stand_in)[len(stand_in):]

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrapped(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrapped(text, width - display_width(indent)))


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help is laid out by `WideHelpFormatter`, its sub-commands' too."""

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003 - ArgumentParser's
        kwargs.setdefault("formatter_class", WideHelpFormatter)
        super().__init__(*args, **kwargs)
