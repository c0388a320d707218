"""Summarise a document in the window (issue 40): the library's menu and the viewer's button; a document that
fits streams its summary in one request; a 50-page PDF first says what it will take (sections, tokens,
requests), shows progress, and Stop cancels at once (the server sees the request closed); both languages;
the summary and its turns are kept in the conversation. Real MainWindow and engine, offscreen, the local
chat server counting requests."""

from __future__ import annotations

import threading
import time

from desktop_rag.engine import STOPPED
from desktop_rag.gui import i18n
from desktop_rag.gui.models.library import COL_NAME, PathRole
from tests.gui.conftest import add_and_wait, llm_settings
from tests.support.long_document import write_long_pdf


def _row_of(window, path: str) -> int:
    model = window.library_model
    return next(r for r in range(model.rowCount()) if model.index(r, COL_NAME).data(PathRole) == path)


def test_summarise_from_the_library_menu_and_the_viewer(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["Brewing ", "coffee ", "well ", "[1]", "."]
    docs = tmp_path / "docs"
    docs.mkdir()
    guide = docs / "guide.md"
    guide.write_text("# Coffee\n\nBrew coffee at 92 degrees. Grind it fresh. Keep beans airtight.\n", "utf-8")
    window = make_window(llm_settings(llm_server, translate_queries=False))
    add_and_wait(qtbot, window, [str(docs)])
    qtbot.waitUntil(lambda: any(window.library_model.index(r, COL_NAME).data(PathRole) == str(guide)
                                for r in range(window.library_model.rowCount())), timeout=10_000)
    menu = window.library_panel.document_menu
    actions = menu.build(str(guide)).actions()
    assert [a.text() for a in actions] == ["Ask this document", "Summarise this document"]
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        actions[1].trigger()
    message = blocker.args[0]
    assert message.text == "Brewing coffee well [1]." and message.mode == "llm"
    assert len(llm_server.chat_requests()) == 1 and window.summaries.estimate_box is None  # one request: no question
    user = window.chat_model.message(window.chat_model.last_assistant_row() - 1)
    assert user.text == "Summarise guide.md"
    assert [h.path for _, h in message.sources] == [str(guide)]
    assert message.prompt is not None  # "What was sent" works for summaries too
    assert window.grab().save(str(tmp_path / "summary.png"))
    qtbot.waitUntil(lambda: len(window.conversations_model.rowCount() and window.chat.backend.engine.messages(
        window.chat.conversation_id)) == 2, timeout=10_000)  # both turns kept in the conversation

    with qtbot.waitSignal(window.viewer.located, timeout=30_000):  # the viewer's button: the stored summary
        window.viewer.open_passages(tuple(message.sources), 0)
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        window.viewer.view.summarise_button.click()
    assert blocker.args[0].cached and len(llm_server.chat_requests()) == 1
    i18n.set_language("zh")
    assert menu.build(str(guide)).actions()[1].text() == "总结此文档"
    assert window.viewer.view.summarise_button.text() == "总结此文档"


def test_a_long_document_asks_first_shows_progress_and_stops_at_once(make_window, qtbot, tmp_path, llm_server,
                                                                      monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    report = write_long_pdf(tmp_path / "docs" / "report.pdf")
    window = make_window(llm_settings(llm_server, translate_queries=False))
    add_and_wait(qtbot, window, [str(report.parent)])
    release = threading.Event()
    llm_server.hang_if = lambda body: len([r for r in llm_server.chat_requests()]) >= 3 and not release.is_set()
    window.summaries.summarise(str(report))
    qtbot.waitUntil(lambda: window.summaries.estimate_box is not None and window.summaries.estimate_box.isVisible(),
                    timeout=30_000)
    box = window.summaries.estimate_box
    text = box.text()
    assert "report.pdf" in text and "sections" in text and "requests to the model" in text
    assert box.textFormat().name == "PlainText"
    assert window.grab().save(str(tmp_path / "summary-estimate-window.png")) and box.grab().save(
        str(tmp_path / "summary-estimate.png"))
    assert llm_server.chat_requests() == []  # nothing is asked before the user agrees
    progress: list[str] = []
    window.chat_model.dataChanged.connect(lambda *_: progress.append(
        window.chat_model.message(window.chat_model.rowCount() - 1).notice))
    box.button(box.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: len(llm_server.chat_requests()) >= 3, timeout=30_000)  # the third request hangs
    assert any(p.startswith("Summarising: request 3 of ") for p in progress)
    hanging = llm_server.chat_requests()[-1]
    with qtbot.waitSignal(window.chat.answer_finished, timeout=10_000) as blocker:
        started = time.perf_counter()
        window.chat_panel.stop_button.click()
    stopped_ms = (time.perf_counter() - started) * 1000
    assert blocker.args[0].notice == STOPPED and stopped_ms < 2000
    assert hanging.client_gone.wait(5)  # the request was closed, not left running
    release.set()
    assert len(llm_server.chat_requests()) == 3  # no request after the stop
    print(f"summary stop: {stopped_ms:.0f} ms from Stop to the stopped answer")


def test_no_stall_while_a_long_summary_streams(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    from tests.support.gui_stall import STALL_LIMIT_MS, GapMeter

    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    report = write_long_pdf(tmp_path / "docs" / "report.pdf")
    window = make_window(llm_settings(llm_server, translate_queries=False))
    add_and_wait(qtbot, window, [str(report.parent)])
    llm_server.tokens = [f"tok{i} " for i in range(300)] + ["[1]"]
    llm_server.token_delay = 0.002
    window.summaries.summarise(str(report))
    qtbot.waitUntil(lambda: window.summaries.estimate_box is not None and window.summaries.estimate_box.isVisible(),
                    timeout=30_000)
    with GapMeter() as streaming:
        with qtbot.waitSignal(window.chat.answer_finished, timeout=60_000) as blocker:
            window.summaries.estimate_box.button(window.summaries.estimate_box.StandardButton.Yes).click()
    assert blocker.args[0].text.startswith("tok0 ") and len(llm_server.chat_requests()) > 2
    print(f"\nGUI stall while a map-reduce summary ran ({len(llm_server.chat_requests())} requests, the last "
          f"streaming 301 tokens): longest gap {streaming.longest:.1f} ms over {streaming.ticks} ticks")
    assert streaming.longest < STALL_LIMIT_MS
