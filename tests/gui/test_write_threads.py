"""Which thread writes what (docs/ARCHITECTURE.md, "Threads, and who writes what"): the index only on the index worker;
conversations and the translation cache in short transactions of their own on the reader / answer threads;
the GUI thread never."""

from __future__ import annotations

import sys

import pytest

from desktop_rag.engine.runtime import Runtime
from desktop_rag.engine.store.sqlite.store import SqliteStore as Store
from tests.gui.conftest import add_and_wait, llm_settings, thread_name, wait_idle

INDEX_THREAD = "desktop-rag-index"
# Write transactions allowed off the index worker: (module, function) -> the threads that may run them
SIDE_WRITES = {
    ("desktop_rag.engine.store.conversations", "create"): {"desktop-rag-reader"},
    ("desktop_rag.engine.store.conversations", "rename"): {"desktop-rag-reader"},
    ("desktop_rag.engine.store.conversations", "delete"): {"desktop-rag-reader"},
    ("desktop_rag.engine.store.conversations", "add_message"): {"desktop-rag-answer"},
    ("desktop_rag.engine.store.collections", "set_conversation_collection"): {"desktop-rag-reader"},
    ("desktop_rag.engine.store.translations", "remember"): {"desktop-rag-answer"},
    ("desktop_rag.engine.answer.replay", "put"): {"desktop-rag-answer"},  # the answer cache
    ("desktop_rag.engine.review.recording", "_log"): {"desktop-rag-answer"},  # the review log (issue 39)
    ("desktop_rag.engine.review.grading", "set_grade"): {"desktop-rag-reader"},  # grading in the window
    ("desktop_rag.engine.review.grading", "mark_passage"): {"desktop-rag-reader"},
    ("desktop_rag.engine.review.grading", "record_source_opened"): {"desktop-rag-reader"},
    ("desktop_rag.engine.review.review", "keep_graded"): {"desktop-rag-reader"},
}
QUESTION = "How hot should the water be for green tea?"


@pytest.fixture
def audit(monkeypatch):
    """Every write transaction (Store.transaction) with its thread and the function that opened it, and every
    use of the library's writer lock (Runtime.writing) with its thread."""
    writes: list[tuple[str, str, str]] = []
    locked: list[str] = []
    transaction, writing = Store.transaction, Runtime.writing

    def audited_transaction(self):
        caller = sys._getframe(1)
        writes.append((thread_name(), caller.f_globals["__name__"], caller.f_code.co_name))
        return transaction(self)

    def audited_writing(self):
        locked.append(thread_name())
        return writing(self)

    monkeypatch.setattr(Store, "transaction", audited_transaction)
    monkeypatch.setattr(Runtime, "writing", audited_writing)
    return writes, locked


def test_each_write_happens_on_the_thread_the_rule_names(make_window, qtbot, tmp_path, llm_server, monkeypatch, audit):
    writes, locked = audit
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "茶.md").write_text("# 绿茶\n\n龙井绿茶应该用八十度左右的水冲泡。\n", encoding="utf-8")
    (docs / "bus.md").write_text("# Buses\n\nCity buses run every ten minutes during the day.\n", encoding="utf-8")
    llm_server.reply_for = lambda body: "绿茶用多少度的水？" if not body.get("stream") else None  # the translation
    window = make_window(llm_settings(llm_server, translate_queries=True))
    add_and_wait(qtbot, window, [str(docs)])

    with qtbot.waitSignal(window.collections.listing_changed, timeout=30_000):
        window.collections.create("Work")  # an index write: on the index worker
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000):
        window.chat_panel.input.setPlainText(QUESTION)
        window.chat_panel.send_button.click()
    conversation = window.chat.conversation_id
    row = window.chat_model.last_assistant_row()
    window.chat_panel.messages.widget_at(row).grade_bar.buttons["right"].click()  # grading (issue 39)
    window.grading.source_opened(row, 1)  # what a click on [1] records: the "opened" signal
    qtbot.waitUntil(lambda: window.backend.reader.pending == 0, timeout=30_000)
    with qtbot.waitSignal(window.chat.conversations_loaded, timeout=30_000):
        window.chat.rename_conversation(conversation, "Tea")
    window.collections.select(None)  # the open conversation remembers "all": a conversation write
    with qtbot.waitSignal(window.chat.conversations_loaded, timeout=30_000):
        window.chat.delete_conversation(conversation, keep_grades=True)
    with qtbot.waitSignal(window.backend.library_loaded, timeout=30_000):
        window.backend.remove(str(docs))
    wait_idle(qtbot, window)

    assert set(locked) == {INDEX_THREAD}  # every index change went through the writer lock on the index worker
    assert ("desktop-rag-answer", "desktop_rag.engine.store.translations", "remember") in writes  # the test did translate
    assert ("desktop-rag-answer", "desktop_rag.engine.store.conversations", "add_message") in writes
    assert {f for _t, m, f in writes if m == "desktop_rag.engine.review.grading"} == {
        "set_grade", "record_source_opened"}  # (marking: tests/gui/test_grading_gui.py)
    for thread, module, function in writes:
        assert thread != "GUI", f"{module}.{function} wrote on the GUI thread"
        if thread == INDEX_THREAD or function == "_migrate":  # opening a connection may upgrade the schema
            continue
        assert thread in SIDE_WRITES.get((module, function), ()), f"{module}.{function} wrote on {thread}"
