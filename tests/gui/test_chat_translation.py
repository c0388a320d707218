"""With a language model, the question's translation (searched too) shows under the question, with its language;
no call when the library holds only the question's language; Settings' switch turns it off."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait, llm_settings
from tests.support.chat_window import ask

QUESTION = "Which ticket discount do students get?"
TRANSLATION = "学生购买火车票有什么优惠？"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "火车票.txt").write_text("学生购买火车票可以享受半价优惠，需要出示学生证。", encoding="utf-8")
    (folder / "bus.txt").write_text("City buses run every ten minutes during the day.", encoding="utf-8")
    return folder


def _ask(qtbot, window, question: str):
    ask(qtbot, window, question)
    row = window.chat_model.last_assistant_row() - 1
    return window.chat_model.message(row), window.chat_panel.messages.widget_at(row)


def _translation_calls(server) -> int:
    return sum(1 for r in server.chat_requests() if not r.body.get("stream"))


def _oracle(server) -> None:
    server.reply_for = lambda body: TRANSLATION if not body.get("stream") else None
    server.tokens = ["Half ", "price ", "[1]."]


def test_the_translation_is_shown_small_under_the_question(make_window, qtbot, llm_server, monkeypatch, docs):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    _oracle(llm_server)
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(docs)])
    question, bubble = _ask(qtbot, window, QUESTION)
    assert question.role == "user" and question.translations == (("zh", TRANSLATION),)
    assert bubble.translation_label.isVisible()
    assert bubble.translation_label.text() == f"Also searched in Chinese: {TRANSLATION}"
    assert bubble.translation_label.textFormat().name == "PlainText"
    assert _translation_calls(llm_server) == 1  # one extra round trip
    i18n.set_language("zh")
    assert bubble.translation_label.text() == f"也以中文检索：{TRANSLATION}"


def test_no_call_and_no_line_when_the_library_holds_only_the_questions_language(
        make_window, qtbot, llm_server, monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    _oracle(llm_server)
    folder = tmp_path / "english"
    folder.mkdir()
    (folder / "bus.txt").write_text("City buses run every ten minutes during the day.", encoding="utf-8")
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(folder)])
    question, bubble = _ask(qtbot, window, "How often do the buses run?")
    assert question.translations == () and not bubble.translation_label.isVisible()
    assert _translation_calls(llm_server) == 0


def test_the_settings_switch_turns_the_translation_off(make_window, qtbot, llm_server, monkeypatch, docs):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    _oracle(llm_server)
    window = make_window(llm_settings(llm_server, translate_queries=False))
    add_and_wait(qtbot, window, [str(docs)])
    question, bubble = _ask(qtbot, window, QUESTION)
    assert question.translations == () and not bubble.translation_label.isVisible()
    assert _translation_calls(llm_server) == 0


def test_a_reopened_conversation_shows_the_translation_again(make_window, qtbot, llm_server, monkeypatch, docs):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    _oracle(llm_server)
    i18n.set_language("en")
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(docs)])
    _ask(qtbot, window, QUESTION)
    conversation = window.chat.conversation_id
    window.chat.new_conversation()
    with qtbot.waitSignal(window.chat.messages_loaded, timeout=10_000):
        window.chat.open_conversation(conversation)
    question, bubble = window.chat_model.message(0), window.chat_panel.messages.widget_at(0)
    assert question.role == "user" and question.translations == (("zh", TRANSLATION),)
    qtbot.waitUntil(bubble.translation_label.isVisible, timeout=5_000)  # (laid out once the loop runs)
    assert bubble.translation_label.text() == f"Also searched in Chinese: {TRANSLATION}"
    assert window.chat_model.message(1).role == "assistant" and window.chat_model.message(1).translations == ()


def test_a_reopened_follow_up_highlights_its_sources_as_it_did(make_window, qtbot, llm_server, monkeypatch, docs):
    """A follow-up is searched as the question made to stand alone; reopened, its sources are highlighted by those
    words again (they were highlighted by the follow-up's own words: "And for students?")."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    window = make_window(llm_settings(llm_server, translate_queries=False))
    add_and_wait(qtbot, window, [str(docs)])
    llm_server.tokens = ["Every ten minutes ", "[1]."]
    _ask(qtbot, window, "How often do city buses run?")
    llm_server.queue_reply("Which ticket discount do students get on city buses")  # the rewrite (not streamed)
    _ask(qtbot, window, "And for students?")
    live = window.chat_model.message(window.chat_model.last_assistant_row()).query
    assert live == "Which ticket discount do students get on city buses"
    conversation = window.chat.conversation_id
    window.chat.new_conversation()
    with qtbot.waitSignal(window.chat.messages_loaded, timeout=10_000):
        window.chat.open_conversation(conversation)
    assert window.chat_model.message(3).query == live and window.sources_model.query == live
