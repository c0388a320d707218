"""A crafted failure reason does not freeze the Chinese window (issue 49 item 5): the library's tooltip and the
selection's detail show the reason of an EPUB whose container names a 7.8k-character package path, in Chinese,
from its code, in well under a second on the GUI thread (matching it against the English texts took 101.5 s)."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from desktop_rag.engine.messages import message
from desktop_rag.gui.models.library import COL_STATE
from tests.gui.conftest import FAST, add_and_wait
from tests.support.crafted_reasons import crafted_epub, crafted_name

MISSING_PART = {language: message("error.part_missing", language, name="\0").split("\0")[0] for language in ("en", "zh")}


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_crafted_reason_shows_at_once_in_the_tooltip_and_the_detail(make_window, qtbot, tmp_path,
                                                                       language: str) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    crafted_epub(docs / "crafted.epub")
    (docs / "good.md").write_text("# Good\n\nA good document about lighthouses.\n", encoding="utf-8")
    window = make_window(FAST.replace(ui_language=language))
    report = add_and_wait(qtbot, window, [str(docs)])
    assert [f.error.code for f in report.failed] == ["part_missing"]
    row = window.library_model.index_of(str(docs / "crafted.epub"))
    panel = window.library_panel

    started = time.perf_counter()
    tip = row.siblingAtColumn(COL_STATE).data(Qt.ItemDataRole.ToolTipRole)
    panel.tree.setCurrentIndex(row)  # the selection's detail under the tree
    took = time.perf_counter() - started
    assert took < 0.5, f"the reason took {took:.1f} s to show on the GUI thread"
    for shown in (tip, panel.detail.text()):
        assert MISSING_PART[language] in shown and crafted_name()[:80] in shown, shown[:200]
        assert len(shown) < 1000  # the stored value is bounded

    QToolTip.hideText()  # hovered as Qt does it, in the real view
    pos = panel.tree.visualRect(row.siblingAtColumn(COL_STATE)).center()
    started = time.perf_counter()
    QApplication.sendEvent(panel.tree.viewport(), QHelpEvent(QEvent.Type.ToolTip, pos,
                                                             panel.tree.viewport().mapToGlobal(pos)))
    assert time.perf_counter() - started < 0.5
    qtbot.waitUntil(QToolTip.isVisible, timeout=5_000)
    assert MISSING_PART[language] in QToolTip.text()
