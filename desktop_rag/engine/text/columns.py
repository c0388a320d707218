"""How many columns a text takes in a fixed-width font (a terminal, the viewer's table grids): wide and full-width
characters (East Asian Width W and F: Chinese, Japanese, Korean, full-width forms) two, combining marks none."""

from __future__ import annotations

import unicodedata


def is_wide(ch: str) -> bool:
    """Whether the character `ch` takes two columns."""
    return unicodedata.east_asian_width(ch) in "WF"


def display_width(text: str) -> int:
    """Display columns of `text` in a fixed-width font."""
    return sum(2 if is_wide(ch) else 0 if unicodedata.combining(ch) else 1 for ch in text)
