"""The start screen's and the MCP server's words for the supported types come from the one table of types
(engine/file_types: READERS, the reader registry): a format added there shows up in both."""

from __future__ import annotations

import dataclasses

import pytest

from desktop_rag import mcp_server
from desktop_rag.engine import file_types
from desktop_rag.engine.file_types import READERS, TYPE_NAMES
from desktop_rag.gui import i18n
from desktop_rag.gui.i18n_tables.type_texts import types_phrase
from desktop_rag.gui.views.start_screen import StartScreen


@pytest.fixture(params=["en", "zh"])
def language(request):
    i18n.set_language(request.param)
    return request.param


def _name(kind: file_types.Reader, language: str) -> str:
    return kind.label_zh if language == "zh" else kind.label


def test_the_start_screen_names_every_supported_kind(language, qtbot):
    screen = StartScreen()
    qtbot.addWidget(screen)
    shown = screen.types_label.text()
    assert [k.kind for k in READERS if _name(k, language) not in shown] == []
    assert shown == {"en": "PDF, Word .docx, PowerPoint .pptx, spreadsheets (.xlsx, .ods), CSV/TSV, web pages (.html), EPUB e-books, e-mail (.eml, .mbox), OpenDocument .odt, RTF, Word 97-2003 .doc, PowerPoint 97-2003 .ppt, Excel 97-2003 .xls, .md, .txt and images",
                     "zh": "支持 PDF、Word .docx、PowerPoint .pptx、电子表格（.xlsx、.ods）、CSV/TSV、网页（.html）、EPUB 电子书、电子邮件（.eml、.mbox）、OpenDocument .odt、RTF、Word 97-2003 .doc、PowerPoint 97-2003 .ppt、Excel 97-2003 .xls、.md、.txt 和图片"}[language]


def test_the_mcp_texts_name_every_kind_and_every_filter_value():
    text, search = mcp_server.instructions(), mcp_server.search_description()
    assert [k.kind for k in READERS if k.label not in text] == []
    assert "OCR" in text  # images are among the kinds: they are read with OCR
    assert [name for name in TYPE_NAMES if f" {name}" not in search] == []
    assert "only pdf, docx, pptx, xlsx, csv, html, epub, email, odt, rtf, doc, ppt, xls, md, txt or image files" in search
    # every reader of the registry can be chosen as a filter value (so the list above is the whole registry)
    assert TYPE_NAMES == tuple(k.name for k in READERS)


def test_a_kind_added_to_the_table_reaches_the_texts(monkeypatch):
    """The texts are made from the tables, not written out: a new kind appears without touching them."""
    sheet = dataclasses.replace(READERS[0], name="xyz", kind="sheet", suffixes=(".xyz",), label="Xyz .xyz")
    monkeypatch.setattr(file_types, "READERS", (*READERS, sheet))
    monkeypatch.setattr(i18n, "READERS", file_types.READERS)
    monkeypatch.setattr(file_types, "TYPE_NAMES", (*TYPE_NAMES, "xyz"))
    assert "Xyz .xyz" in mcp_server.instructions() and "or xyz files" in mcp_server.search_description()
    assert types_phrase("en").endswith("and Xyz .xyz")
    assert i18n.type_name("xyz") == "Xyz .xyz"
