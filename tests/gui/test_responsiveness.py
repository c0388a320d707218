"""Measured: the GUI thread keeps ticking while a few hundred documents index and while an answer streams."""

from __future__ import annotations

from tests.gui.conftest import add_and_wait, llm_settings, write_docs
from tests.support.gui_stall import STALL_LIMIT_MS, GapMeter


def test_gui_thread_does_not_stall(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    write_docs(tmp_path / "many", count=300, words=120)
    window = make_window(llm_settings(llm_server))
    qtbot.waitUntil(lambda: window.model_state[0] == "ready", timeout=30_000)

    with GapMeter() as indexing:
        report = add_and_wait(qtbot, window, [str(tmp_path / "many")], timeout=120_000)
    assert report.added == 300

    llm_server.tokens = [f"tok{i} " for i in range(300)] + ["[1]"]
    llm_server.token_delay = 0.002
    with GapMeter() as streaming:
        with qtbot.waitSignal(window.chat.answer_finished, timeout=60_000):
            window.chat_panel.input.setPlainText("What is topic7 about?")
            window.chat_panel.send_button.click()
    print(f"\nGUI stall while indexing 300 docs: longest gap {indexing.longest:.1f} ms over {indexing.ticks} ticks")
    print(f"GUI stall while streaming 301 tokens: longest gap {streaming.longest:.1f} ms over {streaming.ticks} ticks")
    assert indexing.longest < STALL_LIMIT_MS
    assert streaming.longest < STALL_LIMIT_MS
