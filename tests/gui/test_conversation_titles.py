"""A conversation is titled by its whole question; the list and the chat's heading show it cut after a whole word
(by characters in Chinese) with "…", the whole title in the tooltip; the heading is cut to its panel's width too."""

from __future__ import annotations

from PySide6.QtCore import Qt

from desktop_rag.gui.text import TITLE_CHARS, short_title
from tests.support.chat_window import ask

ENGLISH = "How did rainfall change in the Birch 1 station between 2019 and 2023?"
CHINESE = "办公室搬迁通知里说新办公室在哪一层楼，具体的搬迁日期是哪一天，员工需要自己打包个人物品吗？还有停车位怎么安排？"
SHORT = {ENGLISH: "How did rainfall change in the Birch 1…", CHINESE: "办公室搬迁通知里说新办公室在哪一层楼，具体的搬迁日期是哪一天，员工需要自己打包…"}


def test_a_long_title_is_cut_after_a_whole_word_or_by_characters():
    assert short_title(ENGLISH) == SHORT[ENGLISH]
    assert short_title(CHINESE) == SHORT[CHINESE] == CHINESE[:TITLE_CHARS - 1] + "…"
    assert short_title("x" * 60) == "x" * (TITLE_CHARS - 1) + "…"  # one long word: by characters
    assert short_title("Short question?") == "Short question?"
    exact = "How did rainfall change in the Birch 1 s and more"  # a word that ends at the 40th character
    assert short_title(exact) == "How did rainfall change in the Birch 1…"  # "…" needs the 40th character
    assert all(len(short_title(t)) <= TITLE_CHARS for t in (ENGLISH, CHINESE, "x" * 60, exact))


def test_the_window_lists_a_long_question_cut_with_its_whole_title_in_the_tooltip(make_window, qtbot):
    window = make_window()
    for question in (CHINESE, ENGLISH):
        window.chat.new_conversation()
        ask(qtbot, window, question)
        qtbot.waitUntil(lambda q=question: window.conversations_model.title_of(window.chat.conversation_id) == q,
                        timeout=10_000)
        row = window.conversations_model.row_of(window.chat.conversation_id)
        index = window.conversations_model.index(row)
        assert index.data(Qt.ItemDataRole.DisplayRole) == SHORT[question]
        assert index.data(Qt.ItemDataRole.ToolTipRole) == question
        heading = window.chat_panel.title  # the same words, cut again to the panel's width: it never widens the panel
        assert heading.fontMetrics().horizontalAdvance(heading.text()) <= heading.contentsRect().width()
        assert SHORT[question].startswith(heading.text().removesuffix("…")) and question in heading.toolTip()
        assert heading.full_text == SHORT[question]
