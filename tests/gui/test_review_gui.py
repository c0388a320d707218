"""The Review view (issue 39) on a real engine: opened by its shortcut, a spot check done with the keyboard alone,
"Measure my library" in the background, the Chinese interface without English, the feedback settings."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait, wait_idle, write_docs
from tests.support.chat_window import ask
from tests.support.english import english_words
from tests.support.shown_texts import visible_texts
from tests.support.window_views import open_review

QUESTIONS = ("What does topic0 say?", "What does topic1 say about beta?", "What does topic2 say about gamma?")


def key(widget, k, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    """A key press delivered where the keyboard focus is in `widget`'s window (as a user's keyboard does)."""
    focus = QApplication.focusWidget()
    QTest.keyClick(focus if focus is not None and widget.isAncestorOf(focus) else widget, k, modifier)


def test_spot_check_with_the_keyboard_alone(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=3)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    for question in QUESTIONS:
        ask(qtbot, window, question)
    engine = window.backend.engine
    view = open_review(qtbot, window)
    qtbot.waitUntil(lambda: view.overview.table.rowCount() == 1, timeout=10_000)
    assert "3 answers" in view.overview.totals.text()
    view.activateWindow()
    view.tabs.tabBar().setFocus()
    key(view, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Tab: the next page
    assert view.tabs.currentWidget() is view.spot
    spot = view.spot
    qtbot.waitUntil(lambda: len(spot.items) == 3, timeout=10_000)
    spot.setFocus()  # the page's first button takes it (set_items); the keys work anywhere on the page
    key(view, Qt.Key.Key_Tab)
    assert spot.isAncestorOf(QApplication.focusWidget())
    first = spot.current.id
    key(view, Qt.Key.Key_1)  # fully right, then the next question
    assert spot.position == 1
    key(view, Qt.Key.Key_N)
    assert spot.position == 2
    key(view, Qt.Key.Key_3)  # wrong (the last one: stays)
    key(view, Qt.Key.Key_Left)
    key(view, Qt.Key.Key_P)
    assert spot.position == 0 and spot.grade_bar.grade() == "right"
    key(view, Qt.Key.Key_Right)
    key(view, Qt.Key.Key_2)  # partly right
    grades = lambda: {a.id: a.grade for a in engine.review.logged_answers([i.id for i in spot.items])}  # noqa: E731
    qtbot.waitUntil(lambda: sorted(g or "" for g in grades().values()) == ["partly", "right", "wrong"],
                    timeout=10_000)
    assert grades()[first] == "right"
    qtbot.waitUntil(lambda: "1 fully right" in view.overview.totals.text(), timeout=10_000)
    # "New sample" with Tab and Enter: nothing is left ungraded
    spot.sample_button.setFocus()
    key(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not spot.items, timeout=10_000)
    assert spot.position_label.text() == "Every recent question is graded: nothing to check."
    key(view, Qt.Key.Key_Escape)
    assert not view.isVisible()
    wait_idle(qtbot, window)


def test_measure_my_library_and_the_view_in_chinese(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=3)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    engine = window.backend.engine
    for question in QUESTIONS[1:]:
        message = ask(qtbot, window, question)
        window.sources_panel.select_number(1)
        window.sources_panel.mark_button.click()
        qtbot.waitUntil(lambda m=message: engine.review.logged_answers([m.answer_id])[0].right_chunk is not None,
                        timeout=10_000)
    view = open_review(qtbot, window)
    view.tabs.setCurrentWidget(view.measure)
    page = view.measure
    page.run_button.click()
    qtbot.waitUntil(lambda: window.review.measuring is None and page.table.rowCount() > 0, timeout=60_000)
    expected = engine.review.evaluate()
    assert [page.table.item(r, 0).text() for r in range(page.table.rowCount())][0] == "Hybrid (keywords + meaning)"
    assert page.table.item(0, 1).text() == f"{expected.main.recall_at_5:.3f}"
    assert page.table.item(0, 4).text() == str(expected.main.queries) == "2"
    assert page.status.text() == "2 labelled questions measured." and page.run_button.isEnabled()

    i18n.set_language("zh")
    assert view.windowTitle() == "回顾回答" and page.table.item(0, 0).text() == "混合（关键词 + 语义）"
    for tab in (view.overview, view.spot, view.measure):
        view.tabs.setCurrentWidget(tab)
        content = {view.spot.question.text(), *[view.spot.sources.item(r).text()
                                                for r in range(view.spot.sources.count())]}
        shown = [t for t in visible_texts(view) if t not in content]  # the user's questions are theirs
        english = {t: english_words(t) for t in shown if english_words(t)}
        assert not english, english
    i18n.set_language("en")
    view.close()
    wait_idle(qtbot, window)


def test_settings_learn_switch_and_forget_all_grades(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=2)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    message = ask(qtbot, window, QUESTIONS[0])
    window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row()).grade_bar.buttons["right"].click()
    engine = window.backend.engine
    qtbot.waitUntil(lambda: engine.review.logged_answers([message.answer_id])[0].grade == "right", timeout=10_000)
    window.settings_flow.open()
    feedback = window.settings_flow.dialog.feedback
    assert feedback.learn.isChecked()
    feedback.forget_button.click()
    assert feedback.confirm is not None
    feedback.confirm.button(QMessageBox.StandardButton.No).click()
    assert engine.review.logged_answers([message.answer_id])[0].grade == "right"
    feedback.forget_button.click()
    feedback.confirm.button(QMessageBox.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: feedback.result.text() == "Grades removed: 1.", timeout=10_000)
    assert engine.review.logged_answers([message.answer_id])[0].grade is None
    feedback.learn.setChecked(False)
    window.settings_flow.dialog.accept()
    qtbot.waitUntil(lambda: not window.settings.feedback, timeout=10_000)
    wait_idle(qtbot, window)


def test_forgetting_all_grades_clears_them_in_the_open_conversation(make_window, qtbot, tmp_path):
    """Settings → Forget all grades: the open conversation's answers show no grade and no marked passage any more
    (they still showed "Fully right" checked and "Right passage: [1]", which the library no longer held)."""
    write_docs(tmp_path / "docs", count=2)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    message = ask(qtbot, window, QUESTIONS[0])
    bar = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row()).grade_bar
    bar.buttons["right"].click()
    window.sources_panel.select_number(1)
    window.sources_panel.mark_button.click()
    engine = window.backend.engine
    qtbot.waitUntil(lambda: engine.review.logged_answers([message.answer_id])[0].right_chunk is not None,
                    timeout=10_000)
    assert bar.grade() == "right" and bar.passage_label.text() == "Right passage: [1]"
    window.settings_flow.open()
    feedback = window.settings_flow.dialog.feedback
    feedback.forget_button.click()
    feedback.confirm.button(QMessageBox.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: feedback.result.text() == "Grades removed: 1.", timeout=10_000)
    qtbot.waitUntil(lambda: bar.grade() == "", timeout=10_000)
    shown = window.chat_model.message(window.chat_model.last_assistant_row())
    assert (shown.grade, shown.passage) == ("", None) and not bar.passage_label.text()
    window.settings_flow.dialog.reject()
    wait_idle(qtbot, window)


def test_a_grade_given_in_one_place_shows_in_the_other(make_window, qtbot, tmp_path):
    """The Review view open beside the chat: a grade given in the spot check shows on the answer in the chat, and
    one given in the chat counts in the Review view's overview (each kept what it had read: the chat showed no
    grade, the overview "0 graded")."""
    write_docs(tmp_path / "docs", count=2)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    first = ask(qtbot, window, QUESTIONS[0])
    second = ask(qtbot, window, QUESTIONS[1])
    view = open_review(qtbot, window)
    qtbot.waitUntil(lambda: len(view.spot.items) == 2, timeout=10_000)
    view.spot.graded.emit(first.answer_id, "wrong")  # what the spot check's grade buttons (and keys) say
    first_bar = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row() - 2).grade_bar
    qtbot.waitUntil(lambda: first_bar.grade() == "wrong", timeout=10_000)
    assert window.chat_model.message(window.chat_model.last_assistant_row() - 2).answer_id == first.answer_id
    graded = lambda: dict(window.backend.engine.review.stats().grades)  # noqa: E731
    window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row()).grade_bar.buttons["right"].click()
    qtbot.waitUntil(lambda: graded()["right"] == 1, timeout=10_000)
    qtbot.waitUntil(lambda: dict(view.overview._stats.grades)["right"] == 1, timeout=10_000)
    assert second.answer_id != first.answer_id
    view.close()
    wait_idle(qtbot, window)
