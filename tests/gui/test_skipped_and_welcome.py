"""Issue 37 item 4 in the window: after a folder scan the library panel says what was skipped (both languages),
and the empty chat's hint suggests a question once the library holds documents (not "Add documents")."""

from __future__ import annotations

from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait, wait_idle, write_docs


def test_skipped_files_are_said_and_the_hint_turns_to_a_question(make_window, qtbot, tmp_path):
    docs = tmp_path / "docs"
    write_docs(docs, count=1)
    for name in ("deck.key", "old.key", "memo.pages"):
        (docs / name).write_bytes(b"PK\x03\x04")
    window = make_window()
    wait_idle(qtbot, window)
    empty = window.chat_panel.messages._empty
    assert empty.text() == i18n.tr("chat.welcome") and "Add documents" in empty.text()
    report = add_and_wait(qtbot, window, [str(docs)])
    assert report.skipped == ((".key", 2), (".pages", 1))
    shown = window.library_panel.progress_label.text()
    assert shown.endswith("· 3 skipped: 2 .key, 1 .pages, not supported")
    qtbot.waitUntil(lambda: "Add documents" not in empty.text(), timeout=10_000)
    assert empty.text() == i18n.tr("chat.welcome_ready") and empty.isVisibleTo(window)
    assert "3 skipped" in window.index_label.text()
    i18n.set_language("zh")
    assert window.library_panel.progress_label.text().endswith("跳过 3 个文件：2 个 .key、1 个 .pages，不支持这些类型")
    assert empty.text() == i18n.tr("chat.welcome_ready") and "提问" in empty.text()
