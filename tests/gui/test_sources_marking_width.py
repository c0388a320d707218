"""The sources panel's marking buttons ("✓ Right passage", "✗ Wrong passage", "None of them") stay whole in a narrow
panel, onto more lines (their text was cut: "Right passag", "one of ther"), and share one line in a wide one; in both
interface languages. Their tooltips wrap (rich text, which Qt wraps, instead of one line some 920 px wide) and show a
file's name literally."""

from __future__ import annotations


import pytest
from PySide6.QtCore import QPoint
from PySide6.QtGui import Qt
from PySide6.QtWidgets import QApplication, QLabel, QToolTip

from desktop_rag.engine import Hit
from desktop_rag.gui import i18n
from desktop_rag.gui.models.sources import SourcesModel
from desktop_rag.gui.views.sources_panel import SourcesPanel


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_marking_buttons_stay_whole_in_a_narrow_panel(qtbot, lang: str):
    i18n.set_language(lang)
    panel = SourcesPanel(SourcesModel())
    qtbot.addWidget(panel)
    buttons = (panel.mark_button, panel.wrong_button, panel.none_button)
    for width, lines in ((220, {2, 3}), (900, {1})):
        panel.resize(width, 600)
        panel.show()
        qtbot.waitExposed(panel)
        qtbot.wait(50)
        for button in buttons:
            assert button.width() >= button.sizeHint().width(), (width, button.text(), button.width())
            assert button.mapTo(panel, button.rect().topRight()).x() < panel.width(), (width, button.text())
        assert len({button.y() for button in buttons}) in lines, width


def _shown_tip(qtbot, button) -> QLabel:
    """The tooltip label Qt shows for `button`'s tooltip."""
    QToolTip.showText(button.mapToGlobal(QPoint(2, 2)), button.toolTip(), button)
    qtbot.waitUntil(QToolTip.isVisible, timeout=5_000)
    return next(w for w in QApplication.topLevelWidgets() if w.objectName() == "qtooltip_label" and w.isVisible())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_marking_tooltips_wrap_and_show_a_file_name_literally(qtbot, lang: str):
    i18n.set_language(lang)
    model = SourcesModel()
    panel = SourcesPanel(model)
    qtbot.addWidget(panel)
    panel.resize(900, 600)
    panel.show()
    qtbot.waitExposed(panel)
    hit = Hit(7, 1.0, "/docs/report<b>bold.md", None, "", "The passage.")
    model.set_sources(((1, hit),))
    panel.set_marking_enabled(True)
    panel.select_number(1)
    for gone in (frozenset(), frozenset({hit.path})):
        model.set_gone(gone)
        for button in (panel.mark_button, panel.wrong_button):
            tip = button.toolTip()
            assert Qt.mightBeRichText(tip) and "<b>" not in tip, tip
            if gone:
                assert "report&lt;b&gt;bold.md" in tip
            label = _shown_tip(qtbot, button)
            assert label.wordWrap() and label.width() < 700, (label.width(), tip)
            assert label.height() > 2 * label.fontMetrics().height()  # onto more lines
            QToolTip.hideText()
