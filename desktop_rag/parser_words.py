"""argparse's own words (its "usage:", its errors, its help's headings) in the command line's language.

argparse asks gettext for each of them (`argparse._`, `argparse.ngettext`); while the parser is built and used
(`said_by_argparse`), those two answer from `ARGPARSE_WORDS` (their "en" is argparse's message id), so
`desktop-rag ask` under LANG=zh_CN.UTF-8 says "用法：" and "缺少以下必需的参数：". A message the table does not hold
(another Python's) stays argparse's English. Command names, options and `--json` output are not words of this
table. Below the command line (`cli/`, whose table holds these too) and `platform_check` (its own parser, for
scripts/install.sh), which both use it.

`Parser` lays its usage and help out by display columns (`WideHelpFormatter`): argparse counts characters, so
under "用法：" (three characters, six columns) the usage's continuation lines sat three columns left, and it wraps
only at spaces, so a Chinese help text ran past the terminal's edge."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator

from desktop_rag.engine import display_width, is_wide

# argparse's gettext message ids as "en" (%-formatted by argparse) and what Chinese says for each
ARGPARSE_WORDS: dict[str, dict[str, str]] = {
    "argparse.usage": {"en": "usage: ", "zh": "用法："},
    "argparse.error": {"en": "%(prog)s: error: %(message)s\n", "zh": "%(prog)s：错误：%(message)s\n"},
    "argparse.positionals": {"en": "positional arguments", "zh": "位置参数"},
    "argparse.options": {"en": "options", "zh": "选项"},
    "argparse.help": {"en": "show this help message and exit", "zh": "显示此帮助信息并退出"},
    "argparse.version": {"en": "show program's version number and exit", "zh": "显示程序的版本号并退出"},
    "argparse.argument": {"en": "argument %(argument_name)s: %(message)s", "zh": "参数 %(argument_name)s：%(message)s"},
    "argparse.required": {"en": "the following arguments are required: %s", "zh": "缺少以下必需的参数：%s"},
    "argparse.unrecognized": {"en": "unrecognized arguments: %s", "zh": "无法识别的参数：%s"},
    "argparse.choice": {"en": "invalid choice: %(value)r (choose from %(choices)s)",
                        "zh": "无效的选择：%(value)r（可选：%(choices)s）"},
    "argparse.type": {"en": "invalid %(type)s value: %(value)r", "zh": "无效的 %(type)s 值：%(value)r"},
    "argparse.one": {"en": "expected one argument", "zh": "需要一个值"},
    "argparse.at_most_one": {"en": "expected at most one argument", "zh": "最多需要一个值"},
    "argparse.at_least_one": {"en": "expected at least one argument", "zh": "至少需要一个值"},
    "argparse.n": {"en": "expected %s argument", "zh": "需要 %s 个值"},  # ngettext's singular and plural
    "argparse.n_plural": {"en": "expected %s arguments", "zh": "需要 %s 个值"},
    "argparse.ambiguous": {"en": "ambiguous option: %(option)s could match %(matches)s",
                           "zh": "有歧义的选项：%(option)s 可能是 %(matches)s"},
    "argparse.not_allowed": {"en": "not allowed with argument %s", "zh": "不能与参数 %s 同时使用"},
    "argparse.one_required": {"en": "one of the arguments %s is required", "zh": "必须给出参数 %s 之一"},
    "argparse.explicit": {"en": "ignored explicit argument %r", "zh": "多余的参数值 %r 被忽略"},
    "argparse.unknown_parser": {"en": "unknown parser %(parser_name)r (choices: %(choices)s)",
                                "zh": "未知的命令 %(parser_name)r（可选：%(choices)s）"},
    "argparse.cannot_open": {"en": "can't open '%(filename)s': %(error)s", "zh": "无法打开“%(filename)s”：%(error)s"},
}

_CLOSING = set("，。、；：！？）」』】》〉”’,.;:!?)]}%")  # never begins a line: kept with the character before it
_OPENING = set("（「『【《〈“‘([{")  # never ends a line: kept with the character after it


def _translations(language: str) -> dict[str, str]:
    """argparse's message ids and what `language` says for each ({} for English)."""
    if language != "zh":
        return {}
    return {texts["en"]: texts["zh"] for texts in ARGPARSE_WORDS.values()}


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
