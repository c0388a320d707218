"""Without a model, an answer in the window says so once (its notice); the first-run banner explains more."""

from __future__ import annotations

from pathlib import Path

from tests.gui.conftest import add_and_wait
from tests.support.chat_window import ask


def _bubble_text(window) -> str:
    """Everything the user reads in the last answer's bubble: the answer and its notice."""
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    notice = bubble.notice_label.text() if bubble.notice_label.isVisibleTo(window) else ""
    return bubble.browser.toPlainText() + "\n" + notice


def test_an_extractive_answer_says_no_model_exactly_once(make_window, qtbot, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "leave.md").write_text("# Leave\n\nEmployees get 25 days of annual leave per year. Leave requests go to "
                                   "your manager.\n", encoding="utf-8")
    (docs / "tea.md").write_text("# 绿茶\n\n冲泡绿茶的水温一般在八十度左右。绿茶不宜用沸水冲泡。\n", encoding="utf-8")
    window = make_window()
    add_and_wait(qtbot, window, [str(docs)])

    message = ask(qtbot, window, "How many days of annual leave do employees get?")
    assert message.mode == "extractive" and "25 days" in message.text
    shown = _bubble_text(window).lower()
    assert shown.count("language model") == 1, shown
    assert shown.count("settings") == 1 and shown.count("extractive") <= 1

    message = ask(qtbot, window, "绿茶的水温是多少？")
    assert message.mode == "extractive" and "八十度" in message.text
    shown = _bubble_text(window)
    assert shown.count("语言模型") == 1, shown
    assert shown.count("设置") == 1
