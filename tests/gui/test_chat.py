"""Chat: streamed tokens in order, stop, citations select sources, extractive mode, errors, persistence."""

from __future__ import annotations

import re

from PySide6.QtCore import QUrl

from desktop_rag.engine import STOPPED
from tests.gui.conftest import add_and_wait, llm_settings, wait_idle, write_docs
from tests.support.chat_window import ask
from tests.support.highlight import highlighted_runs, marked_occurrences, retrieval_matched_words


def test_streams_tokens_in_order_and_citation_selects_source(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["Topic1 ", "is ", "about ", "alpha ", "[1]", " and ", "beta ", "[2]", "."]
    write_docs(tmp_path / "docs", count=3)
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])

    tokens: list[str] = []
    window.chat.token_received.connect(tokens.append)
    message = ask(qtbot, window, "What does topic1 say about gamma?")
    assert tokens == llm_server.tokens
    assert message.mode == "llm" and message.text == "".join(llm_server.tokens) and not message.error
    assert len(message.sources) >= 2
    assert window.sources_model.rowCount() == len(message.sources)

    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    html = bubble.browser.document().toHtml()
    assert 'href="cite:2"' in html
    bubble.browser.anchorClicked.emit(QUrl("cite:2"))  # what a click on the [2] link delivers
    assert window.sources_panel.current_number() == 2
    hit = dict(message.sources)[2]
    assert hit.text[:20] in window.sources_panel.detail.toPlainText()
    marked = highlighted_runs(window.sources_panel.detail.document())
    # exactly the words keyword retrieval matched (asked of FTS5), every time they occur, and nothing else
    # ("does", "about" are stop words)
    matched = retrieval_matched_words(hit.text, "What does topic1 say about gamma?")
    assert "gamma" in matched and {m.lower() for m in marked} == matched, marked
    assert len(marked) == marked_occurrences(hit.text, matched) == len(re.findall(r"\b(?:topic1|gamma)\b", hit.text))


def test_the_sources_show_the_passage_the_answers_first_claim_cites(make_window, qtbot, tmp_path, llm_server,
                                                                     monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["Beta ", "[2]", " comes before ", "alpha ", "[1]", "."]
    write_docs(tmp_path / "docs", count=3)
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])

    message = ask(qtbot, window, "What does topic1 say about gamma?")
    assert len(message.sources) >= 3
    assert window.sources_panel.current_number() == 2  # not the first passage: the one the answer leads with
    assert dict(message.sources)[2].text[:20] in window.sources_panel.detail.toPlainText()
    window.sources_panel.select_number(3)  # a passage the person chose stays chosen
    window.chat._show_first_cited((dict(message.sources)[2],))
    assert window.sources_panel.current_number() == 3


def test_stop_keeps_partial_answer(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = [f"word{i} " for i in range(400)]
    llm_server.token_delay = 0.02
    write_docs(tmp_path / "docs", count=2)
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    got: list[str] = []
    window.chat.token_received.connect(got.append)
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        window.chat_panel.input.setPlainText("Tell me everything about topic0")
        window.chat_panel.send_button.click()
        qtbot.waitUntil(lambda: len(got) >= 5, timeout=15_000)
        assert window.chat_panel.stop_button.isEnabled()
        window.chat_panel.stop_button.click()
    message = blocker.args[0]
    assert message.notice == STOPPED and 5 <= len(got) < 400
    assert message.text.startswith("word0 word1")
    assert window.chat_panel.send_button.isEnabled() and not window.chat_panel.stop_button.isEnabled()


def test_extractive_answer_without_model_has_label_and_hint(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=2)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    message = ask(qtbot, window, "topic1 fact2")
    assert message.mode == "extractive" and message.notice
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    assert bubble.notice_label.isVisibleTo(window)
    assert "Settings" in bubble.notice_label.text()


def test_model_error_is_a_message_not_a_freeze(make_window, qtbot, tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    write_docs(tmp_path / "docs", count=2)
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    llm_server.tokens = ["Partial ", "answer ", "here ", "and ", "more"]
    llm_server.cut_after = 3
    message = ask(qtbot, window, "What is topic0?")
    assert message.error and "cut off" in str(message.error)
    assert message.text.startswith("Partial answer here")
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    assert bubble.notice_label.isVisibleTo(window) and "cut off" in bubble.notice_label.text()

    llm_server.cut_after = None
    llm_server.fail_next(401, times=2, code="invalid_api_key", message="bad key test-key")  # rewrite + answer
    message = ask(qtbot, window, "And topic1?")
    assert "rejected" in str(message.error) and "test-key" not in str(message.error)


def test_conversations_persist_across_restart(make_window, qtbot, tmp_path, monkeypatch):
    write_docs(tmp_path / "docs", count=2)
    home = tmp_path / "home"
    window = make_window(home=home)
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    ask(qtbot, window, "topic0 alpha")
    qtbot.waitUntil(lambda: window.conversations_model.rowCount() == 1, timeout=10_000)
    cid = window.chat.conversation_id
    monkeypatch.setattr("PySide6.QtWidgets.QInputDialog.getText", lambda *a, **k: ("Renamed chat", True))
    window.rename_conversation(cid)
    qtbot.waitUntil(lambda: window.conversations_model.title_of(cid) == "Renamed chat", timeout=10_000)
    window.close()

    again = make_window(home=home)
    qtbot.waitUntil(lambda: again.conversations_model.rowCount() == 1, timeout=10_000)
    assert again.conversations_model.title_of(cid) == "Renamed chat"
    with qtbot.waitSignal(again.chat.messages_loaded, timeout=10_000):
        again.conversations_panel.opened.emit(cid)
    assert [again.chat_model.message(r).role for r in range(again.chat_model.rowCount())] == ["user", "assistant"]
    assert again.sources_model.rowCount() >= 1  # the stored answer's cited passages

    monkeypatch.setattr("PySide6.QtWidgets.QMessageBox.question",
                        lambda *a, **k: __import__("PySide6.QtWidgets").QtWidgets.QMessageBox.StandardButton.Yes)
    again.delete_conversation(cid)
    qtbot.waitUntil(lambda: again.conversations_model.rowCount() == 0, timeout=10_000)
    assert again.chat_model.rowCount() == 0
    wait_idle(qtbot, again)
