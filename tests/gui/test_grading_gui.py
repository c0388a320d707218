"""Grading answers in the window (issue 39), on a real engine and a temp library (extractive answers: no model):
a click grades, another changes it, a restart shows it; a marked right passage; the "source opened" signal;
deleting a conversation keeps or forgets its grades, as the user says."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from desktop_rag.engine import STOPPED
from tests.gui.conftest import add_and_wait, llm_settings, wait_idle, write_docs
from tests.support.chat_window import ask


def logged(window, conversation_id: int) -> list:
    """The review log's answers of a conversation, read from the test thread."""
    return window.backend.engine.review.logged_answers(conversation_id=conversation_id)


def last_bubble(window):
    return window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())


def test_grade_by_click_change_it_mark_a_passage_and_a_restart_keeps_them(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=3)
    home = tmp_path / "home"
    window = make_window(home=home)
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    message = ask(qtbot, window, "What does topic1 say about gamma?")
    assert message.answer_id is not None and len(message.sources) >= 2
    cid = window.chat.conversation_id
    bar = last_bubble(window).grade_bar
    assert bar.isVisibleTo(window) and bar.grade() == ""
    assert [b.text() for b in bar.buttons.values()] == ["Fully right", "Partly right", "Wrong", "Refused"]

    bar.buttons["wrong"].click()
    assert bar.grade() == "wrong"  # at once, before the engine wrote it
    qtbot.waitUntil(lambda: logged(window, cid)[0].grade == "wrong", timeout=10_000)
    bar.buttons["partly"].click()
    qtbot.waitUntil(lambda: logged(window, cid)[0].grade == "partly", timeout=10_000)
    assert bar.grade() == "partly" and not bar.buttons["wrong"].isChecked()

    panel = window.sources_panel
    assert panel.mark_button.isEnabled()
    panel.select_number(2)
    panel.mark_button.click()
    second = dict(message.sources)[2].chunk_id
    qtbot.waitUntil(lambda: logged(window, cid)[0].right_chunk == second, timeout=10_000)
    assert bar.passage_label.text() == "Right passage: [2]"
    wait_idle(qtbot, window)
    window.close()

    again = make_window(home=home)
    qtbot.waitUntil(lambda: again.conversations_model.rowCount() == 1, timeout=10_000)
    with qtbot.waitSignal(again.chat.messages_loaded, timeout=10_000):
        again.conversations_panel.opened.emit(cid)
    bar = last_bubble(again).grade_bar
    qtbot.waitUntil(lambda: bar.grade() == "partly", timeout=10_000)
    assert bar.isVisibleTo(again) and bar.passage_label.text() == "Right passage: [2]"
    again.sources_panel.none_button.click()  # "none of them" replaces the marked passage
    qtbot.waitUntil(lambda: logged(again, cid)[0].none_right, timeout=10_000)
    assert logged(again, cid)[0].right_chunk is None and bar.passage_label.text() == "Right passage: none of them"
    wait_idle(qtbot, again)


def test_an_answer_stopped_before_its_first_word_offers_no_grade(make_window, qtbot, tmp_path, llm_server,
                                                                 monkeypatch):
    """Stopped while the real local server had not written a word: the bubble showed the grade bar for an empty
    answer and the review log kept it."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    write_docs(tmp_path / "docs", count=2)
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    llm_server.hang = True  # the model says nothing
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000) as blocker:
        window.chat_panel.input.setPlainText("What is topic0?")
        window.chat_panel.send_button.click()
        qtbot.waitUntil(lambda: bool(llm_server.chat_requests()), timeout=15_000)
        window.chat_panel.stop_button.click()
    message = blocker.args[0]
    assert message.text == "" and message.notice == STOPPED and message.answer_id is None
    assert not last_bubble(window).grade_bar.isVisibleTo(window)
    wait_idle(qtbot, window)
    assert logged(window, window.chat.conversation_id) == []


def test_opening_a_cited_source_is_recorded(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=3)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    ask(qtbot, window, "What does topic2 say about beta?")
    engine = window.backend.engine
    assert engine.review.stats().opened == 0
    window.sources_panel.passage_requested.emit(1)  # a double-click on source row 1 opens it in the viewer
    qtbot.waitUntil(lambda: engine.review.stats().opened == 1, timeout=10_000)
    assert window.viewer.view is not None and window.viewer.view.isVisible()
    wait_idle(qtbot, window)


def _delete(qtbot, window, monkeypatch, cid: int, choice: str | None) -> None:
    """Delete conversation `cid` from the window; `choice`: the button pressed in "keep the grades?" (None: the
    question must not be asked)."""
    monkeypatch.setattr("PySide6.QtWidgets.QMessageBox.question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    before = window.conversations_model.rowCount()
    window.delete_conversation(cid)
    if choice is not None:
        qtbot.waitUntil(lambda: window.grading.keep_question is not None, timeout=10_000)
        box = window.grading.keep_question
        button = next(b for b in box.buttons() if b.text() == choice)
        button.click()
    qtbot.waitUntil(lambda: window.conversations_model.rowCount() == before - 1, timeout=10_000)


def test_deleting_a_graded_conversation_asks_to_keep_or_forget_its_grades(make_window, qtbot, tmp_path,
                                                                          monkeypatch):
    write_docs(tmp_path / "docs", count=3)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    engine = window.backend.engine
    cids = []
    for question in ("What does topic0 say?", "What does topic1 say?", "What does topic2 say?"):
        window.chat.new_conversation()
        ask(qtbot, window, question)
        cids.append(window.chat.conversation_id)
    for cid in cids[:2]:  # the third stays ungraded
        window.chat.open_conversation(cid)
        answer_id = logged(window, cid)[0].id
        qtbot.waitUntil(lambda a=answer_id: last_bubble(window) is not None  # its grades shown
                        and last_bubble(window).message.answer_id == a, timeout=10_000)
        last_bubble(window).grade_bar.buttons["right"].click()
        qtbot.waitUntil(lambda c=cid: logged(window, c)[0].grade == "right", timeout=10_000)
    assert engine.review.stats().answers == 3

    _delete(qtbot, window, monkeypatch, cids[2], None)  # nothing graded: not asked
    qtbot.waitUntil(lambda: engine.review.stats().answers == 2, timeout=10_000)
    _delete(qtbot, window, monkeypatch, cids[0], "Keep the grades")
    stats = engine.review.stats()
    assert stats.answers == 2 and dict(stats.grades)["right"] == 2
    _delete(qtbot, window, monkeypatch, cids[1], "Delete them too")
    qtbot.waitUntil(lambda: engine.review.stats().answers == 1, timeout=10_000)
    assert dict(engine.review.stats().grades)["right"] == 1  # the kept one
    wait_idle(qtbot, window)


def test_a_passage_marked_wrong_is_not_given_for_the_same_question_again(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=3)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    question = "What does topic1 say about gamma?"
    message = ask(qtbot, window, question)
    cid = window.chat.conversation_id
    panel = window.sources_panel
    assert panel.wrong_button.isEnabled() and panel.wrong_button.text() == "✗ Wrong passage"
    first = dict(message.sources)[1].chunk_id
    panel.select_number(1)
    panel.wrong_button.click()
    qtbot.waitUntil(lambda: first in logged(window, cid)[0].wrong_chunks, timeout=10_000)
    qtbot.waitUntil(lambda: "[1]" in window.statusBar().currentMessage(), timeout=10_000)
    again = ask(qtbot, window, question)
    assert again.sources and first not in {hit.chunk_id for _, hit in again.sources}
    wait_idle(qtbot, window)
