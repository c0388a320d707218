"""The sources table words a slide as "slide 3" (both languages) and keeps a PDF's bare page number (issue 37)."""

from __future__ import annotations

from desktop_rag.engine import Hit
from desktop_rag.gui import i18n
from desktop_rag.gui.models.sources import _unit


def test_the_page_column_says_slide_or_page():
    assert _unit(Hit(1, 1.0, "/d/a.pdf", 3, "", "x")) == "3"
    assert _unit(Hit(1, 1.0, "/d/deck.pptx", 3, "", "x")) == "slide 3"
    assert _unit(Hit(1, 1.0, "/d/book.xlsx", None, "Staff > rows 2-9", "x")) == ""
    i18n.set_language("zh")
    assert _unit(Hit(1, 1.0, "/d/deck.PPTX", 3, "", "x")) == "第 3 张幻灯片"
