"""A repeated question in the window answers from the answer cache at once, says so, and offers Regenerate."""

from __future__ import annotations

import time

from tests.gui.conftest import add_and_wait, llm_settings, write_docs

QUESTION = "What does topic1 say about gamma?"


def _ask(qtbot, window, question: str):
    """Send a question; (final message, ms from Send to its first source in the panel, ms to the whole answer)."""
    shown: list[float] = []
    model = window.sources_model
    on_sources = lambda *_: shown.append(time.perf_counter()) if model.rowCount() and not shown else None  # noqa: E731
    model.modelReset.connect(on_sources)
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        window.chat_panel.input.setPlainText(question)
        started = time.perf_counter()
        window.chat_panel.send_button.click()
    done = time.perf_counter()
    model.modelReset.disconnect(on_sources)
    return blocker.args[0], (shown[0] - started) * 1000 if shown else None, (done - started) * 1000


def test_second_ask_is_cached_on_screen_and_regenerate_asks_the_model(make_window, qtbot, tmp_path, llm_server,
                                                                      monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["Topic1 ", "is ", "about ", "gamma ", "[1]", "."]
    write_docs(tmp_path / "docs", count=3)
    window = make_window(llm_settings(llm_server, translate_queries=False))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    first, first_source, first_answer = _ask(qtbot, window, QUESTION)
    assert not first.cached and llm_server.streamed() == 1
    second, source_ms, answer_ms = _ask(qtbot, window, QUESTION)
    assert second.cached and second.text == first.text and llm_server.streamed() == 1
    assert [h.chunk_id for _, h in second.sources] == [h.chunk_id for _, h in first.sources]
    assert source_ms is not None
    print(f"GUI ask (bench/cache.py): first ask {first_source:.1f} ms to first source, {first_answer:.1f} ms to the "
          f"answer; second ask {source_ms:.1f} ms to first source, {answer_ms:.1f} ms to the cached answer")
    row = window.chat_model.last_assistant_row()
    bubble = window.chat_panel.messages.widget_at(row)
    assert bubble.regenerate_button.isVisibleTo(window) and "Cached answer" in bubble.notice_label.text()
    first_bubble = window.chat_panel.messages.widget_at(row - 2)
    assert not first_bubble.regenerate_button.isVisibleTo(window)
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        bubble.regenerate_button.click()
    assert not blocker.args[0].cached and llm_server.streamed() == 2


def test_clear_stored_answers_in_settings_and_turning_reuse_off_empty_the_cache(make_window, qtbot, tmp_path,
                                                                               llm_server, monkeypatch):
    from desktop_rag.engine.store import answer_cache
    from desktop_rag.gui import i18n

    from tests.gui.conftest import wait_idle

    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["Topic1 ", "is ", "about ", "gamma ", "[1]", "."]
    write_docs(tmp_path / "docs", count=3)
    settings = llm_settings(llm_server, translate_queries=False)
    window = make_window(settings)
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    _ask(qtbot, window, QUESTION)
    stored = lambda: answer_cache.count(window.backend.engine.store.db)  # noqa: E731 - read from the test thread
    assert stored() == 1
    window.settings_flow.open()
    dialog = window.settings_flow.dialog
    assert dialog.clear_answers_button.text() == i18n.tr("settings.clear_answers") == "Clear stored answers"
    dialog.clear_answers_button.click()
    qtbot.waitUntil(lambda: dialog.clear_answers_result.text() == "Stored answers removed: 1.", timeout=10_000)
    assert stored() == 0 and dialog.clear_answers_button.isEnabled()
    dialog.reject()
    assert not _ask(qtbot, window, QUESTION)[0].cached and llm_server.streamed() == 2
    assert stored() == 0, "asked with the conversation's history: not stored"
    window.chat.new_conversation()
    assert not _ask(qtbot, window, QUESTION)[0].cached and llm_server.streamed() == 3 and stored() == 1
    with qtbot.waitSignal(window.app_settings.changed, timeout=10_000):
        window.settings_flow.apply(settings.replace(answer_cache=False))
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: stored() == 0, timeout=10_000)  # applied on the index worker
    i18n.set_language("zh")
    assert i18n.tr("settings.clear_answers") == "清除已保存的回答"
    assert i18n.tr("settings.answers_cleared", count=3) == "已删除已保存的回答：3 条。"
