"""The viewer open while the interface language changes (Settings → Interface language): its title, the passage and
page counters and the banner follow, as its buttons did; they stayed in the old language until another passage
was opened ("tea.txt — Desktop RAG viewer", "Passage [1] · 1 of 2" in the Chinese interface)."""

from __future__ import annotations

from desktop_rag.gui import i18n
from tests.data.make_fixtures import build_pdf
from tests.support import viewer_window as viewing


def test_an_open_viewer_follows_the_language_switch(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    i18n.set_language("en")
    notes, birds = tmp_path / "docs" / "notes.md", tmp_path / "docs" / "birds.pdf"
    notes.parent.mkdir()
    viewing.long_markdown(notes, viewing.MD_TARGET)
    birds.write_bytes(build_pdf(viewing.bird_pages()))
    window, message = viewing.window_with_answer(make_window, qtbot, llm_server, monkeypatch, [notes, birds],
                                                 "When should climbing roses be pruned? Where does the heron nest?")
    window.backend.watcher.stop()  # the edit below must not be re-indexed behind the test's back
    notes.write_text("# Garden notes\n\nEverything about roses was removed from this file.\n", encoding="utf-8")
    view = window.viewer.view
    try:
        viewing.click_citation(qtbot, window, viewing.number_of(message, lambda h: viewing.MD_TARGET in h.text))
        view = window.viewer.view
        assert view.windowTitle().endswith("— Desktop RAG viewer") and "changed since" in view.banner_label.text()
        i18n.set_language("zh")
        assert view.windowTitle().startswith("notes.md") and view.windowTitle().endswith("— Desktop RAG 查看器")
        assert view.passage_label.text().startswith("段落 [") and "第 " in view.passage_label.text()
        assert view.banner_label.text().startswith("此文件") and view.reindex_button.isVisible()

        viewing.click_citation(qtbot, window, viewing.number_of(message, lambda h: h.page == viewing.TARGET_PAGE))
        qtbot.waitUntil(lambda: view.page_view.image is not None, timeout=15_000)
        assert view.page_label.text() == f"第 {viewing.TARGET_PAGE} / {len(viewing.BIRDS)} 页"
        i18n.set_language("en")
        assert view.page_label.text() == f"Page {viewing.TARGET_PAGE} of {len(viewing.BIRDS)}"
        assert view.passage_label.text().startswith("Passage [") and not view.banner.isVisible()
    finally:
        i18n.set_language("en")
