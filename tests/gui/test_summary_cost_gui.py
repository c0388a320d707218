"""The window asks before a summary of several requests and, past the request limit (issue 49 item 3:
`summary_request_limit`, 3 here; the 50-page report takes 12), says the limit with the estimate; Yes runs it
(the engine needs the confirmation past the limit), No sends nothing. English and Chinese; real MainWindow and
engine, offscreen, the local chat server counting requests."""

from __future__ import annotations

from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait, llm_settings
from tests.support.long_document import write_long_pdf


def _box(qtbot, window, shown_before=None):
    """The estimate's question once it is shown (a new one, not `shown_before`: that one is deleted on close)."""
    qtbot.waitUntil(lambda: window.summaries.estimate_box not in (None, shown_before)
                    and window.summaries.estimate_box.isVisible(), timeout=30_000)
    return window.summaries.estimate_box


def test_the_estimate_says_the_limit_and_yes_runs_the_summary(make_window, qtbot, tmp_path, llm_server,
                                                              monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.reply = "The report surveys ten regions [1]."
    report = write_long_pdf(tmp_path / "docs" / "report.pdf")
    second = write_long_pdf(tmp_path / "docs" / "报告.pdf", edited=tuple(range(1, 51)))
    window = make_window(llm_settings(llm_server, translate_queries=False, summary_request_limit=3))
    add_and_wait(qtbot, window, [str(report.parent)])
    plan = window.backend.engine.summary_plan(report)
    assert plan.requests > 3

    window.summaries.summarise(str(report))
    box = _box(qtbot, window)
    assert box.text().startswith("“report.pdf” is too long for one request")
    assert f"{plan.sections} sections ({plan.tokens:,} tokens)" in box.text()
    assert f"takes {plan.requests} requests to the model" in box.text()
    assert "more than 3 requests, the most a summary may make before it is confirmed" in box.informativeText()
    assert box.grab().save(str(tmp_path / "summary-cost-en.png"))
    assert llm_server.chat_requests() == []
    with qtbot.waitSignal(window.chat.answer_finished, timeout=60_000) as blocker:
        box.button(box.StandardButton.Yes).click()
    message = blocker.args[0]
    assert not message.error and message.text.startswith("The report surveys ten regions")
    assert len(llm_server.chat_requests()) == plan.requests

    i18n.set_language("zh")
    window.chat_panel.input.setPlainText("总结 报告.pdf")  # a summary question: the same estimate first
    window.chat_panel.send_button.click()
    box = _box(qtbot, window, shown_before=box)
    assert box.text().startswith("“报告.pdf”太长，无法在一次请求中处理") and "次请求" in box.text()
    assert "这超过了 3 次请求" in box.informativeText()
    assert box.grab().save(str(tmp_path / "summary-cost-zh.png"))
    box.button(box.StandardButton.No).click()
    qtbot.waitUntil(lambda: not window.chat.checking, timeout=5_000)
    assert len(llm_server.chat_requests()) == plan.requests  # No: nothing was sent
    assert window.backend.engine.summary_plan(second).requests > 3
