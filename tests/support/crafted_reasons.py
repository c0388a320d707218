"""A file whose failure reason is crafted to make the old English -> Chinese read-back backtrack (issue 49 item 5):
an EPUB whose container.xml names a 7.8k-character `full-path` made of the fixed words of a four-value error text
("Not enough free disk space for {what}: about {needed} needed on {where}, {free} free. ..."), so the stored
reason ("This file is missing a part (...)") quotes it. Matching the table's patterns against it took 101.5 s.
"""

from __future__ import annotations

import string
import zipfile
from pathlib import Path

from desktop_rag.engine.error_texts import ERROR_TEXTS

CRAFTED_CHARS = 7800


def crafted_name(chars: int = CRAFTED_CHARS, key: str = "error.import_no_space") -> str:
    """A name that starts like the text `key` and repeats its inner fixed words, never its last ones."""
    words = [text for text, _, _, _ in string.Formatter().parse(ERROR_TEXTS[key]["en"])]
    unit = "x".join(words[1:-1]) + "x"
    return words[0] + (unit * (chars // len(unit) + 1))[:chars - len(words[0])]


def crafted_epub(path: Path, chars: int = CRAFTED_CHARS) -> Path:
    """An EPUB whose package file is the crafted name, which it does not hold: it fails "missing a part"."""
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip")
        zf.writestr("META-INF/container.xml",
                    '<?xml version="1.0"?><container version="1.0" '
                    'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
                    f'<rootfile full-path="{crafted_name(chars)}" media-type="application/oebps-package+xml"/>'
                    "</rootfiles></container>")
    return path
