"""The file dialog and the "not added" message come from the engine's reader registry."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QFileDialog

from desktop_rag.engine.file_types import READERS, SUPPORTED_SUFFIXES
from desktop_rag.gui import i18n
from desktop_rag.gui.models.library import LibraryModel
from desktop_rag.gui.views.library_panel import LibraryPanel


@pytest.fixture(params=["en", "zh"])
def language(request):
    i18n.set_language(request.param)
    return request.param


def documents_patterns(dialog_filter: str) -> set[str]:
    first = dialog_filter.split(";;")[0]
    return set(re.fullmatch(r"[^(]+\(([^)]*)\)", first).group(1).split())


def test_the_file_dialog_offers_every_supported_suffix(language, qtbot, monkeypatch):
    offered = []
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        lambda parent, caption, folder, dialog_filter: offered.append(dialog_filter) or ([], ""))
    panel = LibraryPanel(LibraryModel())
    qtbot.addWidget(panel)
    panel.choose_files()
    assert offered == [i18n.tr("library.file_filter")]
    patterns = documents_patterns(offered[0])
    assert patterns == {f"*{suffix}" for suffix in SUPPORTED_SUFFIXES}
    assert "*.markdown" in patterns and offered[0].endswith("(*)")  # and "all files" stays last


def test_the_not_added_message_names_every_kind(language):
    message = i18n.tr("library.unsupported", names="slides.key")
    for kind in READERS:
        assert (kind.label_zh if language == "zh" else kind.label) in message
    assert message.endswith("slides.key")
    if language == "en":
        assert message == ("Not added (unsupported type; PDF, Word .docx, PowerPoint .pptx, spreadsheets (.xlsx, .ods), "
                           "CSV/TSV, web pages (.html), EPUB e-books, e-mail (.eml, .mbox), OpenDocument .odt, RTF, Word 97-2003 .doc, PowerPoint 97-2003 .ppt, Excel 97-2003 .xls, .md, .txt and images only): slides.key")
    else:
        assert message == ("未添加（不支持的类型，仅支持 PDF、Word .docx、PowerPoint .pptx、电子表格（.xlsx、.ods）、CSV/TSV、网页（.html）、EPUB 电子书、电子邮件（.eml、.mbox）、OpenDocument .odt、RTF、Word 97-2003 .doc、PowerPoint 97-2003 .ppt、Excel 97-2003 .xls、.md、.txt "
                           "和图片）：slides.key")
