""""Measure my library" measures the collection chosen in the window (as `desktop-rag eval --collection`): its
labelled questions, searched within it; the page says which, in either language. Real window and engine."""

from __future__ import annotations

from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait, wait_idle, write_docs
from tests.support.chat_window import ask
from tests.support.window_views import open_review


def _measure(qtbot, window, page):
    page.run_button.click()
    qtbot.waitUntil(lambda: window.review.measuring is None and page.run_button.isEnabled(), timeout=60_000)


def test_the_chosen_collection_is_measured(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=3)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    engine = window.backend.engine
    message = ask(qtbot, window, "What does topic1 say about beta?")
    window.sources_panel.select_number(1)
    window.sources_panel.mark_button.click()
    qtbot.waitUntil(lambda: engine.review.logged_answers([message.answer_id])[0].right_chunk is not None,
                    timeout=10_000)
    other = engine.create_collection("Other")  # holds none of the marked passages
    window.collections.refresh()
    qtbot.waitUntil(lambda: window.collections.name_of(other) == "Other", timeout=10_000)
    window.collections.select(other)
    page = open_review(qtbot, window).measure
    _measure(qtbot, window, page)
    assert engine.review.evaluate().main.queries == 1 and engine.review.evaluate(other).main.queries == 0
    assert page.status.text().startswith("No labelled questions yet")  # the whole library has one
    assert page.scope.text() == "Measured: the questions asked in the collection “Other”, searched within it."
    i18n.set_language("zh")
    assert page.scope.text() == "衡量范围：在知识库“Other”中提出的问题，只在其中检索。"
    i18n.set_language("en")
    window.collections.select(None)
    _measure(qtbot, window, page)
    assert page.status.text() == "1 labelled question measured."
    assert page.scope.text().startswith("Measured: the questions of all collections")
    window.review.view.close()
    wait_idle(qtbot, window)
