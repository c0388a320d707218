"""A cited file renamed or deleted on disk after it was indexed: while the library still holds it the viewer shows
its stored text and offers Ask and Summarise but not Open in default app (nothing there); once the library dropped
it the viewer says it is gone and offers none of the three (Open said "not handed to another app: only supported
documents…", Summarise "not a file in the library (see `desktop-rag status`)"). English and Chinese."""

from __future__ import annotations

import pytest

from desktop_rag.engine import MISSING
from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait, llm_settings, wait_idle
from tests.support.viewer_window import click_citation

TEA = "Green tea steeps at eighty degrees for two minutes; boiling water makes it bitter."


def _actions(view) -> tuple[bool, bool, bool]:
    return view.ask_button.isEnabled(), view.summarise_button.isEnabled(), view.open_button.isEnabled()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_renamed_file_offers_only_what_its_state_allows(make_window, qtbot, tmp_path, llm_server, monkeypatch,
                                                           language):
    i18n.set_language(language)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["Eighty degrees ", "[1]", "."]
    docs = tmp_path / "docs"
    docs.mkdir()
    path = docs / "tea.md"
    path.write_text(f"# Tea\n\n{TEA}\n", encoding="utf-8")
    window = make_window(llm_settings(llm_server, ui_language=language))
    add_and_wait(qtbot, window, [str(docs)])
    window.backend.watcher.stop()  # the rename is seen when the test says so
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000):
        window.chat_panel.input.setPlainText("How hot should the water be for green tea?")
        window.chat_panel.send_button.click()

    assert click_citation(qtbot, window, 1).file_state != MISSING
    assert _actions(window.viewer.view) == (True, True, True)

    path.rename(docs / "green-tea.md")
    location = click_citation(qtbot, window, 1)
    view = window.viewer.view
    assert location.file_state == MISSING and TEA in view.text_pane.toPlainText()  # the library's stored text
    assert view.banner_label.text() == i18n.tr("viewer.missing_stored", path=str(path))
    assert _actions(view) == (True, True, False)  # asked and summarised from the stored text; nothing to open

    with qtbot.waitSignal(window.index_finished, timeout=60_000):
        window.backend.reconcile(None)  # the library drops tea.md and adds green-tea.md
    wait_idle(qtbot, window)
    location = click_citation(qtbot, window, 1)
    assert location.file_state == MISSING and not location.text
    assert view.banner_label.text() == i18n.tr("viewer.missing", path=str(path))
    assert _actions(view) == (False, False, False)
