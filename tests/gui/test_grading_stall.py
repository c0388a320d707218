"""Measured (bench/gui_stall): grading answers and opening the Review view cost the GUI thread no visible delay."""

from __future__ import annotations

from tests.gui.conftest import add_and_wait, wait_idle, write_docs
from tests.support.gui_stall import STALL_LIMIT_MS, GapMeter
from tests.support.chat_window import ask

ANSWERS = 12


def test_grading_and_the_review_view_do_not_stall(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=40, words=200)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")], timeout=120_000)
    for i in range(ANSWERS):
        ask(qtbot, window, f"What does topic{i} say about gamma and beta?")
    engine = window.backend.engine
    rows = [r for r in range(window.chat_model.rowCount()) if window.chat_model.message(r).role == "assistant"]
    clicks = 0
    with GapMeter() as grading:
        for grade in ("wrong", "partly", "right"):
            for row in rows:
                window.chat_panel.messages.widget_at(row).grade_bar.buttons[grade].click()
                clicks += 1
                qtbot.wait(10)
        for row in rows:  # the right passage: select the answer, mark its source [1]
            window.chat.sources.select(row)
            window.sources_panel.mark_button.click()
            clicks += 1
            qtbot.wait(10)
        qtbot.waitUntil(lambda: window.backend.reader.pending == 0, timeout=30_000)
    assert dict(engine.review.stats().grades)["right"] == ANSWERS and engine.review.stats().labelled == ANSWERS
    with GapMeter() as reviewing:
        window.review_action.trigger()
        view = window.review.view
        qtbot.waitUntil(lambda: view.overview.table.rowCount() == 1 and window.backend.reader.pending == 0,
                        timeout=30_000)
        view.tabs.setCurrentWidget(view.spot)
        view.tabs.setCurrentWidget(view.measure)
        view.measure.run_button.click()
        qtbot.waitUntil(lambda: window.review.measuring is None and view.measure.table.rowCount() > 0,
                        timeout=120_000)
        view.close()
    print(f"\nGUI stall while grading {clicks} clicks: longest gap {grading.longest:.1f} ms over {grading.ticks} ticks")
    print(f"GUI stall while reviewing (open, spot check, measure {ANSWERS} questions): longest gap "
          f"{reviewing.longest:.1f} ms over {reviewing.ticks} ticks")
    assert grading.longest < STALL_LIMIT_MS
    assert reviewing.longest < STALL_LIMIT_MS
    wait_idle(qtbot, window)
