"""argparse's own words (its "usage:", its errors, its help's headings) in the command line's language.

argparse asks gettext for each of them (`argparse._`, `argparse.ngettext`); while the parser is built and used
(`said_by_argparse`), those two answer from the command line's table (`texts.TEXTS`' "argparse.*" entries: their
"en" is argparse's message id), so `desktop-rag ask` under LANG=zh_CN.UTF-8 says "用法：" and "缺少以下必需的参数：".
A message the table does not hold (another Python's) stays argparse's English. Command names, options and
`--json` output are not words of this table."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator

from desktop_rag.cli.texts import TEXTS


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
