"""The sources panel's marking buttons ("✓ Right passage", "✗ Wrong passage", "None of them") stay whole in a narrow
panel, onto more lines (their text was cut: "Right passag", "one of ther"), and share one line in a wide one; in both
interface languages."""

from __future__ import annotations


import pytest

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
