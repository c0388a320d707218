"""Renaming a conversation keeps the rule of a new one's title: white space (a pasted paragraph's line breaks) folded
into single spaces, at most 300 characters. A pasted page was kept whole, shown whole in the list's tooltip and in
the "Delete conversation?" question."""

from __future__ import annotations

from tests.gui.conftest import add_and_wait, write_docs
from tests.support.chat_window import ask


def test_a_pasted_page_as_a_title_is_folded_and_cut(make_window, qtbot, tmp_path, monkeypatch):
    write_docs(tmp_path / "docs", count=1)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    ask(qtbot, window, "topic0 alpha")
    cid = window.chat.conversation_id
    page = "\n".join(f"Line {i} of the pasted   notes\tabout tea." for i in range(400))  # 15,000 characters
    monkeypatch.setattr("PySide6.QtWidgets.QInputDialog.getText", lambda *a, **k: (page, True))
    window.rename_conversation(cid)
    qtbot.waitUntil(lambda: window.conversations_model.title_of(cid).startswith("Line 0 of"), timeout=10_000)
    title = window.backend.engine.conversations()[0].title
    assert title == window.conversations_model.title_of(cid)
    assert len(title) <= 300 and title.endswith("…") and "\n" not in title and "  " not in title
    assert title.startswith("Line 0 of the pasted notes about tea. Line 1 of the pasted notes about tea.")
