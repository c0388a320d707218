"""The model's reply limit in Settings' language model section ("Reply limit (tokens)", 2,048 by default), saved and
sent with the next answer; an answer cut at it, inside the model's thinking or after its answer began, says in the
window's words to raise it as the dialog names it (English and Chinese), through the real local model server."""

from __future__ import annotations

from desktop_rag.config import load_settings
from desktop_rag.gui import i18n
from desktop_rag.gui.views.settings_dialog import SettingsDialog
from tests.gui.conftest import add_and_wait, form_label, llm_settings, wait_idle, write_docs

THOUGHT = "<think>Weighing the first passage against the second at length before answering. "


def _ask(qtbot, window, question: str) -> str:
    """`question` asked in the chat: the finished bubble's text and notice."""
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000):
        window.chat_panel.input.setPlainText(question)
        window.chat_panel.send_button.click()
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    return f"{bubble.browser.toPlainText()}\n{bubble.notice_label.text()}"


def test_the_reply_limit_is_set_in_the_dialog_and_named_by_a_cut_reply(make_window, qtbot, tmp_path,
                                                                                  llm_server):
    needs = 8000  # the model's thinking takes this many tokens: under a lower limit its reply ends inside it
    llm_server.reply_for = lambda body: THOUGHT + ("</think>Alpha [1]." if body["max_tokens"] >= needs else "")
    llm_server.finish_for = lambda body: "stop" if body.get("max_tokens", 0) >= needs else "length"
    write_docs(tmp_path / "docs", count=2)
    window = make_window(llm_settings(llm_server, answer_cache=False, translate_queries=False))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    dialog = SettingsDialog(window.settings, "", window)
    qtbot.addWidget(dialog)
    field = dialog.reply_tokens
    assert field.value() == 2048 and form_label(dialog, field) == "Reply limit (tokens)"
    assert field.parentWidget() is dialog.provider.parentWidget()  # the language model section
    shown = _ask(qtbot, window, "What does topic1 say about gamma?")
    assert llm_server.chat_requests()[-1].body["max_tokens"] == 2048
    assert "Weighing" not in shown and "limit of 2,048 tokens" in shown, shown
    assert "Raise “Reply limit (tokens)” in Settings → Language model" in shown, shown
    assert "settings.json" not in shown  # the command line's wording is not the window's
    llm_server.reply_for = lambda body: THOUGHT + "</think>Alpha is the first"  # cut after its answer began
    shown = _ask(qtbot, window, "What does topic0 say about alpha?")
    assert shown.startswith("Alpha is the first") and "limit of 2,048 tokens" in shown, shown
    assert "Raise “Reply limit (tokens)” in Settings → Language model" in shown and "settings.json" not in shown
    llm_server.reply_for = lambda body: THOUGHT + ("</think>Alpha [1]." if body["max_tokens"] >= needs else "")

    field.setValue(8192)
    window.settings_flow.apply(dialog.result_settings(), dialog.api_key())
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.backend.engine.settings.max_reply_tokens == 8192, timeout=10_000)
    assert load_settings(window.paths).max_reply_tokens == 8192
    assert _ask(qtbot, window, "And topic2?").startswith("Alpha")
    assert llm_server.chat_requests()[-1].body["max_tokens"] == 8192

    i18n.set_language("zh")
    try:
        dialog = SettingsDialog(window.settings.replace(max_reply_tokens=2048), "", window)
        qtbot.addWidget(dialog)
        label = form_label(dialog, dialog.reply_tokens)
        assert label == "单次回复上限（token）"
        window.settings_flow.apply(dialog.result_settings(), dialog.api_key())
        wait_idle(qtbot, window)
        qtbot.waitUntil(lambda: window.backend.engine.settings.max_reply_tokens == 2048, timeout=10_000)
        shown = _ask(qtbot, window, "What does topic2 say about beta?")
        raise_it = f"请在“{i18n.tr('settings.title')} → {i18n.tr('settings.model_group')}”中调高“{label}”"
        assert raise_it in shown, shown
        llm_server.reply_for = lambda body: THOUGHT + "</think>Alpha is the first"
        shown = _ask(qtbot, window, "What does topic0 say about gamma?")
        assert "模型在单次回复 2,048 个 token 的上限处停止" in shown and raise_it in shown, shown
    finally:
        i18n.set_language("en")
