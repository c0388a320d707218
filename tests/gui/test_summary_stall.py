"""No stall while summaries run (issue 40; bench/gui_stall reads the printed lines): the longest gap of a 5 ms
timer on the GUI thread while a summary of a 50-page PDF starts (the plan read and the estimate shown: from the
document's menu, and from a typed question), while its section requests run with progress, while the summary
streams, and from Stop to the stopped answer. Real MainWindow and engine, offscreen, the local chat server."""

from __future__ import annotations

import threading

from desktop_rag.engine import STOPPED
from tests.gui.conftest import add_and_wait, llm_settings
from tests.support.gui_stall import STALL_LIMIT_MS, GapMeter
from tests.support.long_document import write_long_pdf


def _report(name: str, meter: GapMeter, what: str) -> float:
    print(f"\nGUI stall while {name} ({what}): longest gap {meter.longest:.1f} ms over {meter.ticks} ticks")
    return meter.longest


def _estimate_shown(window, previous=None):
    box = window.summaries.estimate_box
    return box is not None and box is not previous and box.isVisible()


def test_no_stall_while_a_summary_starts_runs_streams_and_stops(make_window, qtbot, tmp_path, llm_server,
                                                                 monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    report = write_long_pdf(tmp_path / "docs" / "report.pdf")
    window = make_window(llm_settings(llm_server, translate_queries=False))
    add_and_wait(qtbot, window, [str(report.parent)])
    llm_server.tokens = [f"tok{i} " for i in range(300)] + ["[1]"]
    llm_server.token_delay = 0.002
    gaps = []

    with GapMeter() as meter:  # the plan on the reader thread, then the estimate
        window.summaries.summarise(str(report))
        qtbot.waitUntil(lambda: _estimate_shown(window), timeout=30_000)
    gaps.append(_report("summary-start", meter, "from the document's menu until the estimate shows"))
    first_token = threading.Event()
    window.chat.token_received.connect(lambda _t: first_token.set())
    with GapMeter() as meter:
        window.summaries.estimate_box.button(window.summaries.estimate_box.StandardButton.Yes).click()
        qtbot.waitUntil(first_token.is_set, timeout=60_000)
    sections = len(llm_server.chat_requests()) - 1
    gaps.append(_report("summary-progress", meter, f"{sections} section requests with progress"))
    with GapMeter() as meter, qtbot.waitSignal(window.chat.answer_finished, timeout=60_000):
        pass
    gaps.append(_report("summary-streaming", meter, "the summary's 301 tokens"))

    box = window.summaries.estimate_box
    with GapMeter() as meter:  # asked as a question, in Chinese: new section summaries
        window.chat_panel.input.setPlainText("总结一下 report.pdf")
        window.chat_panel.send_button.click()
        qtbot.waitUntil(lambda: _estimate_shown(window, box), timeout=30_000)
    gaps.append(_report("summary-question", meter, "a typed question until the estimate shows"))
    assert "At this model's recent speed" in window.summaries.estimate_box.informativeText()  # it has answered
    before = len(llm_server.chat_requests())
    llm_server.hang_if = lambda body: len(llm_server.chat_requests()) >= before + 3
    window.summaries.estimate_box.button(window.summaries.estimate_box.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: len(llm_server.chat_requests()) >= before + 3, timeout=30_000)
    with GapMeter() as meter, qtbot.waitSignal(window.chat.answer_finished, timeout=10_000) as blocker:
        window.chat_panel.stop_button.click()
    assert blocker.args[0].notice == STOPPED
    gaps.append(_report("summary-cancel", meter, "from Stop to the stopped answer"))
    llm_server.hang_if = None
    assert max(gaps) < STALL_LIMIT_MS
