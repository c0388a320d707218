"""Issue 11 in the window: OCR page progress in the status panel, the OCR mark in the sources, the OCR setting."""

from __future__ import annotations

from desktop_rag.config import Settings
from desktop_rag.engine.ingest.reports import Progress
from desktop_rag.engine.store.values import Hit
from desktop_rag.gui.models.library import LibraryModel
from desktop_rag.gui.models.sources import COL_PAGE, SourcesModel
from desktop_rag.gui.views.library_panel import LibraryPanel
from desktop_rag.gui.views.settings_dialog import SettingsDialog


def test_status_panel_says_which_page_is_being_recognised(qtbot) -> None:
    panel = LibraryPanel(LibraryModel())
    qtbot.addWidget(panel)
    panel.show_progress(Progress("text", 2, 7, current_file="/docs/扫描合同.pdf", ocr_page=3, ocr_pages=40))
    text = panel.progress_label.text()
    assert "扫描合同.pdf" in text and "recognising text, page 3 of 40" in text
    panel.show_progress(Progress("text", 3, 7, current_file="/docs/plain.txt"))
    assert "recognising" not in panel.progress_label.text()


def test_sources_mark_recognised_passages(qtbot) -> None:
    model = SourcesModel()
    scanned = Hit(1, 0.9, "/docs/scan.pdf", 2, "", "Recognised words", ocr=True)
    typed = Hit(2, 0.8, "/docs/typed.pdf", 5, "", "Typed words")
    model.set_sources(((1, scanned), (2, typed)))
    assert model.index(0, COL_PAGE).data() == "2 · OCR"
    assert model.index(1, COL_PAGE).data() == "5"
    assert "OCR" in model.index(0, COL_PAGE).data(0x0003)  # ToolTipRole explains what it means


def test_settings_dialog_turns_ocr_off_and_on(qtbot) -> None:
    dialog = SettingsDialog(Settings(ocr_enabled=False), "")
    qtbot.addWidget(dialog)
    assert not dialog.ocr.isChecked() and dialog.result_settings().ocr_enabled is False
    dialog.ocr.setChecked(True)
    assert dialog.result_settings().ocr_enabled is True
