"""The sources model may outlive its panel (a model made apart from the window, a panel closed): a later change of
the model's rows (a passage named "(changed)") or of the language must not reach the deleted panel's table. A lambda
connected to the model did (RuntimeError: Internal C++ object (QTableView) already deleted, in every later GUI test of
the same process); a method of the panel is disconnected with it."""

from __future__ import annotations

from shiboken6 import delete

from desktop_rag.engine import Hit
from desktop_rag.gui import i18n
from desktop_rag.gui.models.sources import SourcesModel
from desktop_rag.gui.views.sources_panel import SourcesPanel


def test_a_model_that_outlives_its_panel_changes_without_reaching_it(qtbot):
    i18n.set_language("en")
    model = SourcesModel()
    panel = SourcesPanel(model)
    hit = Hit(chunk_id=7, score=0.9, path="/docs/notes.md", page=None, heading="Notes", text="Some passage.",
              file_id=1, char_end=13)
    model.set_sources(((1, hit),))
    panel.table.selectRow(0)
    delete(panel)  # the panel's C++ side goes (a closed window); the Python model stays
    qtbot.wait(10)
    model.set_gone(frozenset(), frozenset({7}))  # dataChanged: the row is "(changed)"
    i18n.set_language("zh")  # the model re-words its rows
    i18n.set_language("en")
    qtbot.wait(10)
    assert "(changed)" in model.data(model.index(0, 1))
