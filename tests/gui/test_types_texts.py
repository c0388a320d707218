"""The start screen's and the MCP server's words for the supported types come from the one table of types
(engine/file_types: FILE_TYPES, TYPE_NAMES): a type added there shows up in both."""

from __future__ import annotations

import dataclasses

import pytest

from desktop_rag import mcp_server
from desktop_rag.engine import file_types
from desktop_rag.engine.file_types import FILE_TYPES, TYPE_NAMES
from desktop_rag.gui import i18n
from desktop_rag.gui.views.start_screen import StartScreen


@pytest.fixture(params=["en", "zh"])
def language(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def _name(kind: file_types.FileType, language: str) -> str:
    return i18n._TYPE_NAMES_ZH.get(kind.kind, kind.label) if language == "zh" else kind.label


def test_the_start_screen_names_every_supported_kind(language, qtbot):
    screen = StartScreen()
    qtbot.addWidget(screen)
    shown = screen.types_label.text()
    assert [k.kind for k in FILE_TYPES if _name(k, language) not in shown] == []
    assert shown == {"en": "PDF, Word .docx, .txt, .md and images", "zh": "支持 PDF、Word .docx、.txt、.md 和图片"}[language]


def test_the_mcp_texts_name_every_kind_and_every_filter_value():
    text, search = mcp_server.instructions(), mcp_server.search_description()
    assert [k.kind for k in FILE_TYPES if k.label not in text] == []
    assert "OCR" in text  # images are among the kinds: they are read with OCR
    assert [name for name in TYPE_NAMES if f" {name}" not in search] == []
    assert "only pdf, docx, md, txt or image files" in search
    # every kind of the table can be chosen as a filter value (so the list above is the whole table)
    assert sorted(file_types._KINDS[name] for name in TYPE_NAMES) == sorted(k.kind for k in FILE_TYPES)


def test_a_kind_added_to_the_table_reaches_the_texts(monkeypatch):
    """The texts are made from the tables, not written out: a new kind appears without touching them."""
    sheet = dataclasses.replace(FILE_TYPES[0], kind="sheet", suffixes=(".xlsx",), label="Excel .xlsx")
    monkeypatch.setattr(file_types, "FILE_TYPES", (*FILE_TYPES, sheet))
    monkeypatch.setattr(i18n, "FILE_TYPES", file_types.FILE_TYPES)
    monkeypatch.setattr(file_types, "TYPE_NAMES", (*TYPE_NAMES, "xlsx"))
    assert "Excel .xlsx" in mcp_server.instructions() and "image or xlsx files" in mcp_server.search_description()
    assert i18n.types_phrase("en").endswith("images and Excel .xlsx")
