"""The answer bubble while it streams reads as the finished answer: no thinking the chat template opened, no raw
citation marker (split across tokens or not), through the real local model server."""

from __future__ import annotations

from tests.gui.conftest import add_and_wait, llm_settings, write_docs

THINKING = ["Let me ", "think about [", "2] first", "\n</think>", "\n\n", "Alpha ", "【", "1】", " and beta [^", "2]",
            " not [7]", "."]


def _texts_while_streaming(qtbot, window, question: str, shown: list[str] | None = None) -> tuple[list[str], str]:
    """Ask `question`; the assistant message's text at every change while it streamed (its bubble's into `shown`),
    and its final text."""
    seen: list[str] = []
    shown = [] if shown is None else shown

    def changed(*_args) -> None:
        row = window.chat_model.last_assistant_row()
        message = window.chat_model.message(row)
        if message is not None and message.streaming:
            seen.append(message.text)
            bubble = window.chat_panel.messages.widget_at(row)
            if bubble is not None:
                shown.append(bubble.browser.toPlainText())

    window.chat_model.dataChanged.connect(changed)
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        window.chat_panel.input.setPlainText(question)
        window.chat_panel.send_button.click()
    window.chat_model.dataChanged.disconnect(changed)
    return seen, blocker.args[0].text


def test_thinking_and_raw_markers_never_show_while_streaming(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens, llm_server.token_delay = THINKING, 0.05
    write_docs(tmp_path / "docs", count=3)
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])

    shown: list[str] = []
    seen, final = _texts_while_streaming(qtbot, window, "What does topic1 say about gamma?", shown)
    assert final == "Alpha [1] and beta [2] not."
    for text in seen + shown:
        assert not any(raw in text for raw in ("think", "Let me", "【", "1】", "[^", "[7]")), (seen, shown)
    assert all(final.startswith(text) for text in seen), seen

    assert seen, "nothing was recorded while the answer streamed"
    llm_server.tokens = ["Beta ", "is ", "in ", "【2】", " plainly", "."]
    seen, final = _texts_while_streaming(qtbot, window, "And topic2?")  # this model opened thinking: still held
    assert final == "Beta is in [2] plainly." and not any(seen), seen


def test_a_model_seen_without_thinking_streams_at_once(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens, llm_server.token_delay = ["Beta ", "is ", "in ", "【2】", " plainly", "."], 0.05
    write_docs(tmp_path / "docs", count=3)
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])

    seen, final = _texts_while_streaming(qtbot, window, "What does topic1 say about gamma?")
    assert final == "Beta is in [2] plainly." and not any(seen), seen
    seen, final = _texts_while_streaming(qtbot, window, "And topic2?")
    assert "Beta is" in seen and "Beta is in" in seen, seen
    assert all(final.startswith(text) for text in seen), seen
